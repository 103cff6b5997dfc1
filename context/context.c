/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Contexts: clCreateContext, clCreateContextFromType, retain/release,
 * clGetContextInfo and clSetContextDestructorCallback.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/platform.h"

struct refcl_destructor {
    void(CL_CALLBACK *fn)(cl_context context, void *user_data);
    void *user_data;
    struct refcl_destructor *next;
};

void refcl_notify(refcl_notify_fn notify, void *user_data, const char *format,
                  ...)
{
    if (!notify)
        return;
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    notify(message, NULL, 0, user_data);
}

/* Creation's arguments, as validated so far. */
struct context_request {
    const cl_context_properties *properties;
    size_t properties_len;
    struct _cl_platform_id *platform; /* from CL_CONTEXT_PLATFORM, or NULL */
    refcl_notify_fn notify;
    void *notify_data;
};

/*
 * CL_INVALID_PROPERTY "if context property name in properties is not a
 * supported property name, if the value specified for a supported property
 * name is not valid, or if the same property name is specified more than
 * once"; CL_INVALID_PLATFORM "if platform value specified in properties is
 * not a valid platform".
 */
static cl_int properties_parse(struct context_request *req)
{
    bool seen_sync = false;
    const cl_context_properties *p = req->properties;
    for (; p && p[0] != 0; p += 2) {
        switch (p[0]) {
        case CL_CONTEXT_PLATFORM:
            if (req->platform)
                return REFCL_FAIL(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM "
                                  "twice: \"if the same property name is "
                                  "specified more than once\"");
            if (!refcl_object_valid((const void *)p[1], REFCL_PLATFORM))
                return refcl_invalid_handle((const void *)p[1],
                                            REFCL_PLATFORM);
            req->platform = (struct _cl_platform_id *)p[1];
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (seen_sync)
                return REFCL_FAIL(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_"
                                  "USER_SYNC twice: \"if the same property "
                                  "name is specified more than once\"");
            if (p[1] != CL_TRUE && p[1] != CL_FALSE)
                return REFCL_FAIL(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_"
                                  "USER_SYNC %ld: \"if the value specified "
                                  "for a supported property name is not "
                                  "valid\"", (long)p[1]);
            seen_sync = true;
            break;
        default:
            return REFCL_FAIL(CL_INVALID_PROPERTY, "property 0x%lX: \"if "
                              "context property name in properties is not "
                              "a supported property name\"",
                              (unsigned long)p[0]);
        }
    }
    req->properties_len = p ? (size_t)(p - req->properties) + 1 : 0;
    return CL_SUCCESS;
}

static bool device_listed(cl_device_id device, const cl_device_id *list,
                          cl_uint count)
{
    for (cl_uint i = 0; i < count; i++)
        if (list[i] == device)
            return true;
    return false;
}

long refcl_context_device_index(const struct _cl_context *context,
                                const struct _cl_device_id *device)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i] == device)
            return (long)i;
    return -1;
}

static void context_destroy(struct refcl_object *obj)
{
    struct _cl_context *context = (struct _cl_context *)obj;
    /* "The registered callback functions are called in the reverse order
     * in which they were registered." */
    struct refcl_destructor *d = atomic_load(&context->destructors);
    while (d) {
        struct refcl_destructor *next = d->next;
        d->fn(context, d->user_data);
        free(d);
        d = next;
    }
    for (cl_uint i = 0; i < context->num_devices; i++)
        refcl_device_release(context->devices[i]);
    free(context->devices);
    free(context->properties);
    refcl_object_free(&context->obj);
}

/* Allocates the context and takes its references on the (valid, unique)
 * devices. */
static struct _cl_context *context_create(const struct context_request *req,
                                          struct _cl_platform_id *platform,
                                          const cl_device_id *devices,
                                          cl_uint count, cl_int *err)
{
    struct _cl_context *context =
        refcl_object_alloc(REFCL_CONTEXT, &platform->obj, platform, NULL);
    size_t props_bytes = req->properties_len * sizeof(cl_context_properties);
    if (!context) {
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the context");
        return NULL;
    }
    context->devices = malloc(count * sizeof(cl_device_id));
    context->properties = props_bytes ? malloc(props_bytes) : NULL;
    if (!context->devices || (props_bytes && !context->properties)) {
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the context");
        context_destroy(&context->obj);
        return NULL;
    }
    if (props_bytes)
        memcpy(context->properties, req->properties, props_bytes);
    context->properties_len = req->properties_len;
    context->notify = req->notify;
    context->notify_data = req->notify_data;
    for (cl_uint i = 0; i < count; i++) {
        refcl_device_retain(devices[i]);
        context->devices[context->num_devices++] = devices[i];
    }
    *err = CL_SUCCESS;
    return context;
}

/* Checks the arguments both creation functions share. */
static cl_int request_init(struct context_request *req,
                           const cl_context_properties *properties,
                           refcl_notify_fn notify, void *user_data)
{
    *req = (struct context_request){properties, 0, NULL, notify, user_data};
    /* CL_INVALID_VALUE "if pfn_notify is NULL but user_data is not NULL". */
    if (!notify && user_data)
        return REFCL_FAIL(CL_INVALID_VALUE, "user_data without pfn_notify: "
                          "\"if pfn_notify is NULL but user_data is not "
                          "NULL\"");
    return properties_parse(req);
}

/* Creates the context from the unique devices of @p devices. */
static cl_context create(const struct context_request *req,
                         cl_uint num_devices, const cl_device_id *devices,
                         cl_int *errcode_ret)
{
    /* CL_INVALID_VALUE "if devices is NULL" or "if num_devices is equal to
     * zero". */
    if (!devices || num_devices == 0)
        return refcl_errcode(
            NULL,
            REFCL_FAIL(CL_INVALID_VALUE, "%s: \"if devices is NULL\" or \"if "
                       "num_devices is equal to zero\"",
                       devices ? "num_devices 0" : "devices NULL"),
            errcode_ret);
    cl_device_id *unique = malloc(num_devices * sizeof(cl_device_id));
    if (!unique)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory "
                                        "for %u handles", num_devices),
                             errcode_ret);
    struct _cl_platform_id *platform = req->platform;
    cl_uint count = 0;
    for (cl_uint i = 0; i < num_devices; i++) {
        /* CL_INVALID_DEVICE "if devices contains an invalid device"; a
         * device of another platform is not valid in this context. */
        cl_int bad = CL_SUCCESS;
        if (!refcl_object_valid(devices[i], REFCL_DEVICE))
            bad = refcl_invalid_handle(devices[i], REFCL_DEVICE);
        else if (platform && devices[i]->obj.platform != platform)
            bad = REFCL_FAIL(CL_INVALID_DEVICE, "devices[%u] of another "
                             "platform: \"if devices contains an invalid "
                             "device\"", i);
        if (bad != CL_SUCCESS) {
            free(unique);
            return refcl_errcode(NULL, bad, errcode_ret);
        }
        platform = devices[i]->obj.platform;
        /* "Duplicate devices specified in devices are ignored." */
        if (!device_listed(devices[i], unique, count))
            unique[count++] = devices[i];
    }
    cl_int err;
    cl_context context = context_create(req, platform, unique, count, &err);
    free(unique);
    if (!context)
        return refcl_errcode(NULL, err, errcode_ret);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return context;
}

cl_context CL_API_CALL refcl_clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices, refcl_notify_fn pfn_notify, void *user_data,
    cl_int *errcode_ret)
{
    struct context_request req;
    cl_int err = request_init(&req, properties, pfn_notify, user_data);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    return create(&req, num_devices, devices, errcode_ret);
}

/* "Only devices that are returned by clGetDeviceIDs for device_type are
 * used": the root devices, never sub-devices. */
cl_context CL_API_CALL refcl_clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    refcl_notify_fn pfn_notify, void *user_data, cl_int *errcode_ret)
{
    struct context_request req;
    cl_int err = request_init(&req, properties, pfn_notify, user_data);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    /* "properties can also be NULL in which case the platform that is
     * selected is implementation-defined": refcl's default platform. */
    struct _cl_platform_id *platform = refcl_platform_resolve(req.platform);
    if (!platform)
        return refcl_errcode(
            NULL, refcl_invalid_handle(req.platform, REFCL_PLATFORM),
            errcode_ret);
    cl_device_id device;
    err = refcl_clGetDeviceIDs(platform, device_type, 1, &device, NULL);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    return create(&req, 1, &device, errcode_ret);
}

/* CL_INVALID_CONTEXT "if context is not a valid OpenCL context". */
cl_int CL_API_CALL refcl_clRetainContext(cl_context context)
{
    return refcl_handle_retain(context, REFCL_CONTEXT);
}

void refcl_context_release(struct _cl_context *context)
{
    if (refcl_object_release(&context->obj))
        context_destroy(&context->obj);
}

cl_int CL_API_CALL refcl_clReleaseContext(cl_context context)
{
    return refcl_handle_release(context, REFCL_CONTEXT, context_destroy);
}

cl_int CL_API_CALL refcl_clGetContextInfo(cl_context context,
                                          cl_context_info param_name,
                                          size_t param_value_size,
                                          void *param_value,
                                          size_t *param_value_size_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_invalid_handle(context, REFCL_CONTEXT);
    const void *value;
    size_t size;
    cl_uint refcount;
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        refcount = refcl_object_refcount(&context->obj);
        value = &refcount;
        size = sizeof(refcount);
        break;
    case CL_CONTEXT_NUM_DEVICES:
        value = &context->num_devices;
        size = sizeof(context->num_devices);
        break;
    case CL_CONTEXT_DEVICES:
        value = context->devices;
        size = context->num_devices * sizeof(cl_device_id);
        break;
    case CL_CONTEXT_PROPERTIES:
        /* NULL properties: "a param_value_size_ret of 0". */
        value = context->properties;
        size = context->properties_len * sizeof(cl_context_properties);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

/* CL_INVALID_CONTEXT "if context is not a valid context"; CL_INVALID_VALUE
 * "if pfn_notify is NULL". */
cl_int CL_API_CALL refcl_clSetContextDestructorCallback(
    cl_context context,
    void(CL_CALLBACK *pfn_notify)(cl_context context, void *user_data),
    void *user_data)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_invalid_handle(context, REFCL_CONTEXT);
    if (!pfn_notify)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "pfn_notify NULL: \"if pfn_notify is NULL\"");
    struct refcl_destructor *d = malloc(sizeof(*d));
    if (!d)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                          "no memory for the callback");
    d->fn = pfn_notify;
    d->user_data = user_data;
    d->next = atomic_load_explicit(&context->destructors,
                                   memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        &context->destructors, &d->next, d, memory_order_release,
        memory_order_relaxed))
        ;
    return CL_SUCCESS;
}
