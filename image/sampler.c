/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Samplers: clCreateSampler, clCreateSamplerWithProperties, retain and
 * release, clGetSamplerInfo. A sampler is three values; a kernel gets them
 * as the bits of OpenCL C's sampler constants (kernel/kernel.c), so a
 * kernel argument holds no reference to the object.
 */
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/image.h"
#include "refcl/info.h"

/* The three values, checked: "CL_INVALID_VALUE if addressing_mode,
 * filter_mode, normalized_coords or a combination of these arguments are
 * not valid". */
static cl_int values_check(cl_bool normalized, cl_addressing_mode address,
                           cl_filter_mode filter)
{
    if (normalized != CL_TRUE && normalized != CL_FALSE)
        return REFCL_FAIL(CL_INVALID_VALUE, "normalized_coords %u: neither "
                          "CL_TRUE nor CL_FALSE", normalized);
    switch (address) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP:
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT:
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "addressing_mode 0x%X is not "
                          "valid", address);
    }
    if (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR)
        return REFCL_FAIL(CL_INVALID_VALUE, "filter_mode 0x%X is not valid",
                          filter);
    return CL_SUCCESS;
}

/* A sampler's creation: the values and the properties as given. */
struct sampler_request {
    cl_bool normalized;
    cl_addressing_mode address;
    cl_filter_mode filter;
    const cl_sampler_properties *properties;
    size_t properties_len; /* entries, the 0 included */
};

/* One name of a property list: its value into @p req, each at most once.
 * CL_INVALID_VALUE "if the property name in sampler_properties is not a
 * supported property name ... or if the same property name is specified
 * more than once". */
static cl_int property_take(struct sampler_request *req,
                            cl_sampler_properties name,
                            cl_sampler_properties value, unsigned *seen)
{
    unsigned bit;
    switch (name) {
    case CL_SAMPLER_NORMALIZED_COORDS:
        bit = 1, req->normalized = (cl_bool)value;
        if (value != CL_TRUE && value != CL_FALSE)
            req->normalized = 2; /* refused by values_check */
        break;
    case CL_SAMPLER_ADDRESSING_MODE:
        bit = 2, req->address = (cl_addressing_mode)value;
        break;
    case CL_SAMPLER_FILTER_MODE:
        bit = 4, req->filter = (cl_filter_mode)value;
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "property 0x%llX: \"if the "
                          "property name in sampler_properties is not a "
                          "supported property name\"",
                          (unsigned long long)name);
    }
    if (*seen & bit)
        return REFCL_FAIL(CL_INVALID_VALUE, "property 0x%llX twice: \"if the "
                          "same property name is specified more than once\"",
                          (unsigned long long)name);
    *seen |= bit;
    return CL_SUCCESS;
}

static cl_int properties_parse(struct sampler_request *req)
{
    const cl_sampler_properties *p = req->properties;
    unsigned seen = 0;
    size_t i = 0;
    for (; p && p[i]; i += 2) {
        cl_int status = property_take(req, p[i], p[i + 1], &seen);
        if (status != CL_SUCCESS)
            return status;
    }
    req->properties_len = p ? i + 1 : 0;
    return values_check(req->normalized, req->address, req->filter);
}

static cl_sampler sampler_create(cl_context context,
                                 const struct sampler_request *req,
                                 cl_int *errcode_ret)
{
    struct _cl_sampler *s = refcl_object_alloc(REFCL_SAMPLER, &context->obj,
                                               context->obj.platform, NULL);
    if (!s)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory "
                                        "for the sampler"),
                             errcode_ret);
    refcl_object_retain(&context->obj);
    s->context = context;
    s->normalized_coords = req->normalized;
    s->addressing_mode = req->address;
    s->filter_mode = req->filter;
    s->properties_len = req->properties_len;
    if (req->properties_len)
        memcpy(s->properties, req->properties,
               req->properties_len * sizeof(cl_sampler_properties));
    return refcl_errcode(s, CL_SUCCESS, errcode_ret);
}

/* "If a supported property and its value is not specified in
 * sampler_properties, its default value will be used": normalized
 * coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. */
cl_sampler CL_API_CALL refcl_clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    struct sampler_request req = {CL_TRUE, CL_ADDRESS_CLAMP,
                                  CL_FILTER_NEAREST, properties, 0};
    cl_int status = properties_parse(&req);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    return sampler_create(context, &req, errcode_ret);
}

cl_sampler CL_API_CALL refcl_clCreateSampler(cl_context context,
                                             cl_bool normalized_coords,
                                             cl_addressing_mode addressing_mode,
                                             cl_filter_mode filter_mode,
                                             cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    cl_int status = values_check(normalized_coords, addressing_mode,
                                 filter_mode);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    struct sampler_request req = {normalized_coords, addressing_mode,
                                  filter_mode, NULL, 0};
    return sampler_create(context, &req, errcode_ret);
}

static void sampler_destroy(struct refcl_object *obj)
{
    struct _cl_sampler *s = (struct _cl_sampler *)obj;
    struct _cl_context *context = s->context;
    refcl_object_free(obj);
    refcl_context_release(context);
}

/* CL_INVALID_SAMPLER "if sampler is not a valid sampler object". */
cl_int CL_API_CALL refcl_clRetainSampler(cl_sampler sampler)
{
    return refcl_handle_retain(sampler, REFCL_SAMPLER);
}

cl_int CL_API_CALL refcl_clReleaseSampler(cl_sampler sampler)
{
    return refcl_handle_release(sampler, REFCL_SAMPLER, sampler_destroy);
}

cl_int CL_API_CALL refcl_clGetSamplerInfo(cl_sampler sampler,
                                          cl_sampler_info param_name,
                                          size_t param_value_size,
                                          void *param_value,
                                          size_t *param_value_size_ret)
{
    if (!refcl_object_valid(sampler, REFCL_SAMPLER))
        return refcl_invalid_handle(sampler, REFCL_SAMPLER);
    union {
        cl_uint count;
        const void *handle;
    } v;
    const void *value = &v;
    size_t size;
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT:
        v.count = refcl_object_refcount(&sampler->obj);
        size = sizeof(v.count);
        break;
    case CL_SAMPLER_CONTEXT:
        v.handle = sampler->context;
        size = sizeof(v.handle);
        break;
    case CL_SAMPLER_NORMALIZED_COORDS:
        value = &sampler->normalized_coords;
        size = sizeof(sampler->normalized_coords);
        break;
    case CL_SAMPLER_ADDRESSING_MODE:
        value = &sampler->addressing_mode;
        size = sizeof(sampler->addressing_mode);
        break;
    case CL_SAMPLER_FILTER_MODE:
        value = &sampler->filter_mode;
        size = sizeof(sampler->filter_mode);
        break;
    /* "the values specified in the sampler_properties argument ... in the
     * same order"; none given: "param_value_size_ret equal to 0". */
    case CL_SAMPLER_PROPERTIES:
        value = sampler->properties;
        size = sampler->properties_len * sizeof(cl_sampler_properties);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}
