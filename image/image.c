/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Image objects: clCreateImage and its variants, clGetImageInfo,
 * clGetSupportedImageFormats.
 *
 * An image of refcl's own has tight pitches (a row is width texels, a
 * slice height rows) and is allocated when first used, like a buffer; one
 * with CL_MEM_USE_HOST_PTR is the application's memory with the
 * application's pitches; one made from a buffer or from another image
 * shares that object's bytes (its parent, CL_MEM_ASSOCIATED_MEMOBJECT).
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/image.h"
#include "refcl/info.h"

/* Creation's arguments, and what the checks work out. */
struct image_request {
    struct _cl_context *context;
    const cl_mem_properties *properties;
    size_t properties_len; /* entries, 0 included; 0 for NULL */
    cl_mem_flags flags;
    const cl_image_format *format;
    const cl_image_desc *desc;
    void *host_ptr;
    struct _cl_mem *source;   /* desc->mem_object, if any */
    struct refcl_image shape; /* the image's, once checked */
    size_t host_row, host_slice; /* the pitches of host_ptr's texels */
    size_t size;              /* bytes */
};

static bool is_array(cl_mem_object_type type)
{
    return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
           type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

static bool is_1d(cl_mem_object_type type)
{
    return type == CL_MEM_OBJECT_IMAGE1D ||
           type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
           type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
}

const char *refcl_image_type_name(cl_mem_object_type type)
{
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: return "image1d_t";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "image1d_buffer_t";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "image1d_array_t";
    case CL_MEM_OBJECT_IMAGE2D: return "image2d_t";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "image2d_array_t";
    case CL_MEM_OBJECT_IMAGE3D: return "image3d_t";
    default: return NULL;
    }
}

bool refcl_image_matches(const struct _cl_mem *mem, const char *type_name)
{
    /* A typedef's name says nothing of the type it names: trusted (the
     * compiler made the argument an image). */
    if (strncmp(type_name, "image", strlen("image")) != 0)
        return true;
    const char *name = refcl_image_type_name(mem->type);
    if (mem->image->format.image_channel_order != CL_DEPTH)
        return !strcmp(type_name, name);
    /* "image2d_t" -> "image2d_depth_t", "image2d_array_t" ->
     * "image2d_array_depth_t". */
    size_t stem = strlen(name) - strlen("_t");
    return !strncmp(type_name, name, stem) &&
           !strcmp(type_name + stem, "_depth_t");
}

/* ---- the checks ------------------------------------------------------- */

static cl_int bad_descriptor(const char *why)
{
    return REFCL_FAIL(CL_INVALID_IMAGE_DESCRIPTOR, "%s: \"if values "
                      "specified in image_desc are not valid\"", why);
}

/* The largest width, height and depth of an image of @p type (0: the
 * dimension is not used). */
static void max_extent(cl_mem_object_type type, size_t max[3])
{
    size_t two = REFCL_IMAGE2D_MAX, three = REFCL_IMAGE3D_MAX;
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        max[0] = REFCL_IMAGE_MAX_BUFFER, max[1] = max[2] = 0;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        max[0] = max[1] = max[2] = three;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        max[0] = max[1] = two, max[2] = 0;
        break;
    default: /* 1D and 1D arrays: "<= CL_DEVICE_IMAGE2D_MAX_WIDTH" */
        max[0] = two, max[1] = max[2] = 0;
        break;
    }
}

/* The image's width, height, depth and layers from the descriptor:
 * CL_INVALID_IMAGE_DESCRIPTOR for a 0 where one is used, then
 * CL_INVALID_IMAGE_SIZE "if image dimensions specified in image_desc
 * exceed the maximum image dimensions". */
static cl_int extent_check(struct image_request *req)
{
    const cl_image_desc *d = req->desc;
    size_t max[3];
    max_extent(d->image_type, max);
    size_t given[3] = {d->image_width, d->image_height, d->image_depth};
    static const char *const names[3] = {"image_width", "image_height",
                                         "image_depth"};
    for (int i = 0; i < 3; i++) {
        if (max[i] && given[i] == 0)
            return bad_descriptor(names[i]);
        if (max[i] && given[i] > max[i])
            return REFCL_FAIL(CL_INVALID_IMAGE_SIZE, "%s %zu > %zu: \"if "
                              "image dimensions specified in image_desc "
                              "exceed the maximum image dimensions\"",
                              names[i], given[i], max[i]);
    }
    size_t layers = is_array(d->image_type) ? d->image_array_size : 1;
    if (layers == 0)
        return bad_descriptor("image_array_size 0");
    if (layers > REFCL_IMAGE_MAX_ARRAY)
        return REFCL_FAIL(CL_INVALID_IMAGE_SIZE, "image_array_size %zu > "
                          "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE (%u)", layers,
                          REFCL_IMAGE_MAX_ARRAY);
    struct refcl_image *s = &req->shape;
    s->width = given[0];
    s->height = max[1] ? given[1] : 1;
    s->depth = max[2] ? given[2] : 1;
    s->layers = layers;
    return CL_SUCCESS;
}

/* The pitches of host_ptr's texels (or of a 2D image's buffer): "If
 * image_row_pitch is not 0, it must be a multiple of the image element
 * size in bytes", ">= image_width * size of element"; the slice pitch
 * ">= image_row_pitch * image_height for a 2D image array or 3D image",
 * ">= image_row_pitch for a 1D image array", "a multiple of the
 * image_row_pitch". */
static cl_int pitch_check(struct image_request *req)
{
    const cl_image_desc *d = req->desc;
    const struct refcl_image *s = &req->shape;
    size_t row = s->width * s->element_size;
    size_t rows = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1
                                                               : s->height;
    size_t given_row = d->image_row_pitch, given_slice = d->image_slice_pitch;
    if (given_row && (given_row < row || given_row % s->element_size))
        return bad_descriptor("image_row_pitch");
    req->host_row = given_row ? given_row : row;
    bool slices = is_array(d->image_type) ||
                  d->image_type == CL_MEM_OBJECT_IMAGE3D;
    if (slices && given_slice &&
        (given_slice < req->host_row * rows || given_slice % req->host_row))
        return bad_descriptor("image_slice_pitch");
    req->host_slice = !slices ? 0 : given_slice ? given_slice
                                                : req->host_row * rows;
    return CL_SUCCESS;
}

/* The flags of an image made from @p source: "If the CL_MEM_READ_WRITE,
 * CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values are not specified in flags,
 * they are inherited", "The CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and
 * CL_MEM_COPY_HOST_PTR values cannot be specified in flags but are
 * inherited", likewise the host-access flags. CL_INVALID_VALUE for the
 * combinations the spec lists. */
static cl_int inherit_flags(struct image_request *req)
{
    cl_mem_flags mine = req->flags, theirs = req->source->flags;
    if (mine & REFCL_MEM_HOST_PTR_FLAGS)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"flags specifies "
                          "CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or "
                          "CL_MEM_COPY_HOST_PTR\" for an image made from "
                          "mem_object");
    if (((theirs & CL_MEM_WRITE_ONLY) &&
         (mine & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((theirs & CL_MEM_READ_ONLY) &&
         (mine & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags ask for more kernel "
                          "access than mem_object was created with");
    if (((theirs & CL_MEM_HOST_WRITE_ONLY) &&
         (mine & CL_MEM_HOST_READ_ONLY)) ||
        ((theirs & CL_MEM_HOST_READ_ONLY) &&
         (mine & CL_MEM_HOST_WRITE_ONLY)) ||
        ((theirs & CL_MEM_HOST_NO_ACCESS) &&
         (mine & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags ask for more host access "
                          "than mem_object was created with");
    if (!(mine & REFCL_MEM_ACCESS_FLAGS))
        mine |= theirs & REFCL_MEM_ACCESS_FLAGS;
    if (!(mine & REFCL_MEM_HOST_ACCESS_FLAGS))
        mine |= theirs & REFCL_MEM_HOST_ACCESS_FLAGS;
    req->flags = mine | (theirs & REFCL_MEM_HOST_PTR_FLAGS);
    return CL_SUCCESS;
}

/* "Compatible image channel orders": a 2D image made from a 2D image
 * views its texels with another order of the same layout. */
static bool orders_compatible(cl_channel_order a, cl_channel_order b)
{
    static const cl_channel_order pairs[][2] = {
        {CL_sBGRA, CL_BGRA}, {CL_sRGBA, CL_RGBA}, {CL_sRGB, CL_RGB},
        {CL_sRGBx, CL_RGBx}, {CL_DEPTH, CL_R},
    };
    if (a == b)
        return true;
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
        if ((pairs[i][0] == a && pairs[i][1] == b) ||
            (pairs[i][0] == b && pairs[i][1] == a))
            return true;
    return false;
}

/* A 2D image from a 2D image: "All of the values specified in image_desc
 * except for mem_object must match the image descriptor information
 * associated with mem_object", "The image channel data type specified in
 * image_format must match", the orders "compatible". */
static cl_int from_image_check(struct image_request *req)
{
    const struct refcl_image *theirs = req->source->image;
    const cl_image_desc *d = req->desc;
    if (req->source->type != CL_MEM_OBJECT_IMAGE2D ||
        theirs->width != d->image_width || theirs->height != d->image_height ||
        (d->image_row_pitch && d->image_row_pitch != theirs->row_pitch))
        return bad_descriptor("a 2D image made from an image of another "
                              "shape");
    if (theirs->format.image_channel_data_type !=
            req->format->image_channel_data_type ||
        !orders_compatible(theirs->format.image_channel_order,
                           req->format->image_channel_order))
        return REFCL_FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "\"if a 2D "
                          "image is created from a 2D image object and the "
                          "rules described above are not followed\"");
    req->host_row = theirs->row_pitch;
    return CL_SUCCESS;
}

/* An image from a buffer: "mem_object can be a buffer memory object if
 * image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D";
 * for a 2D one "the pitch ... must be a multiple of" the pitch alignment
 * and the buffer's host_ptr aligned to the base address alignment
 * (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); its texels must fit the buffer. */
static cl_int from_buffer_check(struct image_request *req)
{
    const struct refcl_image *s = &req->shape;
    size_t texel = s->element_size;
    struct _cl_mem *buffer = req->source;
    if (req->desc->image_type == CL_MEM_OBJECT_IMAGE2D) {
        if (req->host_row % (REFCL_IMAGE_ALIGNMENT * texel))
            return REFCL_FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                              "image_row_pitch %zu: not a multiple of "
                              "CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels",
                              req->host_row);
        uintptr_t at = (uintptr_t)refcl_mem_root(buffer)->host_ptr +
                       refcl_mem_root_offset(buffer);
        if ((buffer->flags & CL_MEM_USE_HOST_PTR) &&
            at % (REFCL_IMAGE_ALIGNMENT * texel))
            return REFCL_FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "the "
                              "buffer's host_ptr is not aligned to "
                              "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT "
                              "texels");
    }
    size_t need = req->host_row * (s->height - 1) + s->width * texel;
    if (need > buffer->size)
        return REFCL_FAIL(CL_INVALID_IMAGE_SIZE, "the image needs %zu bytes "
                          "of a buffer of %zu", need, buffer->size);
    return CL_SUCCESS;
}

/* desc->mem_object: NULL, or a buffer or image it may be made from. */
static cl_int source_check(struct image_request *req)
{
    struct _cl_mem *source = req->desc->mem_object;
    cl_mem_object_type type = req->desc->image_type;
    if (!source)
        return CL_SUCCESS;
    if (!refcl_object_valid(source, REFCL_MEM) ||
        source->context != req->context)
        return bad_descriptor("mem_object is not a memory object of the "
                              "context");
    bool buffer_ok = type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                     type == CL_MEM_OBJECT_IMAGE2D;
    bool image_ok = type == CL_MEM_OBJECT_IMAGE2D;
    if (refcl_mem_is_buffer(source) ? !buffer_ok : !image_ok)
        return bad_descriptor("mem_object cannot back an image of this "
                              "type");
    req->source = source;
    return inherit_flags(req);
}

/* CL_INVALID_HOST_PTR "if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
 * CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
 * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags". */
static cl_int host_ptr_check(const struct image_request *req)
{
    bool wants = req->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (req->source)
        wants = false; /* inherited: no host_ptr of this call's own */
    if (wants && !req->host_ptr)
        return REFCL_FAIL(CL_INVALID_HOST_PTR, "host_ptr NULL: \"if host_ptr "
                          "is NULL and CL_MEM_USE_HOST_PTR or "
                          "CL_MEM_COPY_HOST_PTR are set in flags\"");
    if (!wants && req->host_ptr)
        return REFCL_FAIL(CL_INVALID_HOST_PTR, "\"if host_ptr is not NULL "
                          "but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR "
                          "are not set in flags\"");
    return CL_SUCCESS;
}

/* The descriptor's fields that must be 0: "num_mip_levels and num_samples
 * must be 0", and the pitches "must be 0 if host_ptr is NULL" (but for an
 * image made from a buffer, whose row pitch says its layout). */
static cl_int zero_fields_check(const struct image_request *req)
{
    const cl_image_desc *d = req->desc;
    if (d->num_mip_levels || d->num_samples)
        return bad_descriptor("num_mip_levels or num_samples not 0");
    bool has_ptr = req->host_ptr || req->desc->mem_object;
    if (!has_ptr && (d->image_row_pitch || d->image_slice_pitch))
        return bad_descriptor("a pitch without host_ptr");
    return CL_SUCCESS;
}

static bool type_valid(cl_mem_object_type type)
{
    return refcl_image_type_name(type) != NULL;
}

/* The bytes of an image with @p s's shape and pitches. */
static bool image_bytes(const struct refcl_image *s, cl_mem_object_type type,
                        size_t *bytes)
{
    size_t n = type == CL_MEM_OBJECT_IMAGE3D ? s->depth : s->layers;
    size_t unit = s->slice_pitch ? s->slice_pitch : s->row_pitch * s->height;
    return !__builtin_mul_overflow(unit, n, bytes);
}

/* The image's own pitches: the application's for CL_MEM_USE_HOST_PTR and
 * images made from memory objects, tight for storage of refcl's. */
static void layout(struct image_request *req)
{
    struct refcl_image *s = &req->shape;
    cl_mem_object_type type = req->desc->image_type;
    bool theirs = (req->flags & CL_MEM_USE_HOST_PTR) || req->source;
    size_t tight_row = s->width * s->element_size;
    s->row_pitch = theirs ? req->host_row : tight_row;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        s->slice_pitch = theirs ? req->host_slice : tight_row;
    else if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
             type == CL_MEM_OBJECT_IMAGE3D)
        s->slice_pitch = theirs ? req->host_slice : tight_row * s->height;
    else
        s->slice_pitch = 0;
}

static cl_int format_check(struct image_request *req)
{
    if (!req->format)
        return REFCL_FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format "
                          "NULL: \"if image_format is NULL\"");
    size_t texel = refcl_format_element_size(req->format);
    if (!texel)
        return REFCL_FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "order 0x%X, "
                          "type 0x%X: \"if values specified in image_format "
                          "are not valid\"",
                          req->format->image_channel_order,
                          req->format->image_channel_data_type);
    req->shape.format = *req->format;
    req->shape.element_size = texel;
    req->shape.channels = refcl_format_channels(req->format);
    return CL_SUCCESS;
}

/* CL_IMAGE_FORMAT_NOT_SUPPORTED "if there are no devices in context that
 * support image_format", for the image's type and kernel access. */
static cl_int support_check(const struct image_request *req)
{
    cl_mem_flags access = req->flags & REFCL_MEM_ACCESS_FLAGS;
    if (!refcl_format_supported(req->format, req->desc->image_type,
                                access ? access : CL_MEM_READ_WRITE))
        return REFCL_FAIL(CL_IMAGE_FORMAT_NOT_SUPPORTED, "order 0x%X, type "
                          "0x%X for this image type and access",
                          req->format->image_channel_order,
                          req->format->image_channel_data_type);
    return CL_SUCCESS;
}

static cl_int size_check(struct image_request *req)
{
    if (!image_bytes(&req->shape, req->desc->image_type, &req->size) ||
        req->size > refcl_max_mem_alloc_size())
        return REFCL_FAIL(CL_INVALID_IMAGE_SIZE, "the image's bytes exceed "
                          "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    return CL_SUCCESS;
}

/* Every check of clCreateImage*, in refcl's order (docs/images.md). */
static cl_int request_check(struct image_request *req)
{
    cl_int status =
        refcl_mem_properties_parse(req->properties, &req->properties_len);
    if (status == CL_SUCCESS &&
        !refcl_mem_flags_valid(req->flags, REFCL_MEM_ACCESS_FLAGS |
                                               REFCL_MEM_HOST_ACCESS_FLAGS |
                                               REFCL_MEM_HOST_PTR_FLAGS))
        status = REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if values "
                            "specified in flags are not valid\"",
                            (unsigned long long)req->flags);
    if (status == CL_SUCCESS)
        status = format_check(req);
    if (status == CL_SUCCESS && !req->desc)
        status = REFCL_FAIL(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc NULL: "
                            "\"if image_desc is NULL\"");
    if (status == CL_SUCCESS && !type_valid(req->desc->image_type))
        status = bad_descriptor("image_type");
    if (status == CL_SUCCESS)
        status = zero_fields_check(req);
    if (status == CL_SUCCESS)
        status = extent_check(req);
    if (status == CL_SUCCESS)
        status = source_check(req);
    if (status == CL_SUCCESS)
        status = host_ptr_check(req);
    if (status == CL_SUCCESS)
        status = req->source && !refcl_mem_is_buffer(req->source)
                     ? from_image_check(req)
                     : pitch_check(req);
    if (status == CL_SUCCESS && req->source &&
        refcl_mem_is_buffer(req->source))
        status = from_buffer_check(req);
    if (status == CL_SUCCESS)
        status = support_check(req);
    if (status == CL_SUCCESS) {
        layout(req);
        status = size_check(req);
    }
    return status;
}

/* ---- creation --------------------------------------------------------- */

/* Copies host_ptr's texels, with its pitches, into @p mem's tight ones. */
static void copy_in(const struct image_request *req, char *bytes)
{
    const struct refcl_image *s = &req->shape;
    size_t row = s->width * s->element_size;
    bool one_d_array = req->desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t rows = one_d_array ? 1 : s->height;
    size_t slices = req->desc->image_type == CL_MEM_OBJECT_IMAGE3D
                        ? s->depth : s->layers;
    const char *from = req->host_ptr;
    for (size_t z = 0; z < slices; z++)
        for (size_t y = 0; y < rows; y++)
            memcpy(bytes + z * s->slice_pitch + y * s->row_pitch,
                   from + z * req->host_slice + y * req->host_row, row);
}

/* The memory object of a checked @p req. */
static struct _cl_mem *mem_for(const struct image_request *req)
{
    if (req->source) {
        struct _cl_mem *mem =
            refcl_mem_create(req->context, req->source, req->flags,
                             REFCL_STORAGE_PARENT, NULL, req->size);
        if (mem) /* the bytes' nature goes with them */
            mem->read_only_bytes = req->source->read_only_bytes;
        return mem;
    }
    bool use = req->flags & CL_MEM_USE_HOST_PTR;
    struct _cl_mem *mem = refcl_mem_create(
        req->context, NULL, req->flags,
        use ? REFCL_STORAGE_HOST : REFCL_STORAGE_OWNED,
        use ? req->host_ptr : NULL, req->size);
    if (mem)
        mem->host_ptr = use ? req->host_ptr : NULL;
    return mem;
}

static struct _cl_mem *image_create(const struct image_request *req,
                                    cl_int *err)
{
    struct refcl_image *shape = malloc(sizeof(*shape));
    size_t props_bytes = req->properties_len * sizeof(cl_mem_properties);
    cl_mem_properties *properties = props_bytes ? malloc(props_bytes) : NULL;
    struct _cl_mem *mem = NULL;
    if (shape && (!props_bytes || properties))
        mem = mem_for(req);
    if (!mem) {
        free(shape);
        free(properties);
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the image "
                          "object");
        return NULL;
    }
    *shape = req->shape;
    mem->type = req->desc->image_type;
    mem->image = shape;
    if (props_bytes)
        memcpy(properties, req->properties, props_bytes);
    mem->properties = properties;
    mem->properties_len = req->properties_len;
    if (req->flags & CL_MEM_COPY_HOST_PTR && !req->source) {
        char *bytes = refcl_mem_address(mem);
        if (!bytes) {
            refcl_mem_release(mem);
            *err = REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE, "\"if there "
                              "is a failure to allocate memory for image "
                              "object\" (%zu bytes)", req->size);
            return NULL;
        }
        copy_in(req, bytes);
    }
    *err = CL_SUCCESS;
    return mem;
}

cl_mem CL_API_CALL refcl_clCreateImageWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret)
{
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    struct image_request req = {
        .context = context, .properties = properties, .flags = flags,
        .format = image_format, .desc = image_desc, .host_ptr = host_ptr};
    cl_int err = request_check(&req);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    struct _cl_mem *mem = image_create(&req, &err);
    return refcl_errcode(mem, err, errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage(cl_context context, cl_mem_flags flags,
                                       const cl_image_format *image_format,
                                       const cl_image_desc *image_desc,
                                       void *host_ptr, cl_int *errcode_ret)
{
    return refcl_clCreateImageWithProperties(context, NULL, flags,
                                             image_format, image_desc,
                                             host_ptr, errcode_ret);
}

/* The OpenCL 1.1 calls: "CL_INVALID_IMAGE_SIZE if image_width or
 * image_height are 0", which clCreateImage calls a descriptor error. */
static cl_mem create_legacy(cl_context context, cl_mem_flags flags,
                            const cl_image_format *format,
                            const cl_image_desc *desc, void *host_ptr,
                            cl_int *errcode_ret)
{
    bool zero = desc->image_width == 0 || desc->image_height == 0 ||
                (desc->image_type == CL_MEM_OBJECT_IMAGE3D &&
                 desc->image_depth == 0);
    if (zero && refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_INVALID_IMAGE_SIZE, "\"if "
                                        "image_width or image_height are "
                                        "0\""),
                             errcode_ret);
    return refcl_clCreateImage(context, flags, format, desc, host_ptr,
                               errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage2D(cl_context context, cl_mem_flags flags,
                                         const cl_image_format *image_format,
                                         size_t image_width,
                                         size_t image_height,
                                         size_t image_row_pitch,
                                         void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = image_width,
                          .image_height = image_height,
                          .image_row_pitch = image_row_pitch};
    return create_legacy(context, flags, image_format, &desc, host_ptr,
                         errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage3D(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    size_t image_width, size_t image_height, size_t image_depth,
    size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr,
    cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                          .image_width = image_width,
                          .image_height = image_height,
                          .image_depth = image_depth,
                          .image_row_pitch = image_row_pitch,
                          .image_slice_pitch = image_slice_pitch};
    return create_legacy(context, flags, image_format, &desc, host_ptr,
                         errcode_ret);
}

/* ---- queries ---------------------------------------------------------- */

cl_int refcl_image_check(const struct _cl_mem *mem,
                         const struct _cl_context *context)
{
    cl_int status = refcl_mem_check(mem, context);
    if (status == CL_SUCCESS && refcl_mem_is_buffer(mem))
        status = REFCL_FAIL(CL_INVALID_MEM_OBJECT, "a buffer: \"if image is "
                            "not a valid image object\"");
    return status;
}

/* "CL_INVALID_VALUE if flags or image_type are not valid, or if
 * num_entries is 0 and image_formats is not NULL". */
cl_int CL_API_CALL refcl_clGetSupportedImageFormats(
    cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
    cl_uint num_entries, cl_image_format *image_formats,
    cl_uint *num_image_formats)
{
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_invalid_handle(context, REFCL_CONTEXT);
    if (!refcl_mem_flags_valid(flags, REFCL_MEM_ACCESS_FLAGS |
                                          REFCL_MEM_HOST_ACCESS_FLAGS |
                                          REFCL_MEM_HOST_PTR_FLAGS |
                                          CL_MEM_KERNEL_READ_AND_WRITE))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if flags or "
                          "image_type are not valid\"",
                          (unsigned long long)flags);
    if (!type_valid(image_type))
        return REFCL_FAIL(CL_INVALID_VALUE, "image_type 0x%X: \"if flags or "
                          "image_type are not valid\"", image_type);
    if (num_entries == 0 && image_formats)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_entries 0: \"if num_entries "
                          "is 0 and image_formats is not NULL\"");
    cl_uint count = refcl_formats_list(image_type, flags, image_formats,
                                       num_entries);
    if (num_image_formats)
        *num_image_formats = count;
    return CL_SUCCESS;
}

/* CL_IMAGE_BUFFER: the buffer an image was made from, else NULL. */
static const void *image_buffer(const struct _cl_mem *image)
{
    return image->parent && refcl_mem_is_buffer(image->parent)
               ? image->parent : NULL;
}

cl_int CL_API_CALL refcl_clGetImageInfo(cl_mem image, cl_image_info param_name,
                                        size_t param_value_size,
                                        void *param_value,
                                        size_t *param_value_size_ret)
{
    /* CL_INVALID_MEM_OBJECT "if image is a not a valid image object". */
    if (!refcl_object_valid(image, REFCL_MEM))
        return refcl_invalid_handle(image, REFCL_MEM);
    if (refcl_mem_is_buffer(image))
        return REFCL_FAIL(CL_INVALID_MEM_OBJECT, "a buffer: \"if image is a "
                          "not a valid image object\"");
    const struct refcl_image *s = image->image;
    cl_mem_object_type type = image->type;
    union {
        size_t size;
        cl_uint count;
        const void *handle;
    } v;
    const void *value = &v.size;
    size_t size = sizeof(size_t);
    switch (param_name) {
    case CL_IMAGE_FORMAT:
        value = &s->format;
        size = sizeof(s->format);
        break;
    case CL_IMAGE_ELEMENT_SIZE:
        v.size = s->element_size;
        break;
    case CL_IMAGE_ROW_PITCH:
        v.size = s->row_pitch;
        break;
    /* "For a 1D image, 1D image buffer and 2D image object return 0." */
    case CL_IMAGE_SLICE_PITCH:
        v.size = s->slice_pitch;
        break;
    case CL_IMAGE_WIDTH:
        v.size = s->width;
        break;
    /* "For a 1D image, 1D image buffer and 1D image array object, height =
     * 0." */
    case CL_IMAGE_HEIGHT:
        v.size = is_1d(type) ? 0 : s->height;
        break;
    /* "For a 1D image, 1D image buffer, 2D image or 1D and 2D image array
     * object, depth = 0." */
    case CL_IMAGE_DEPTH:
        v.size = type == CL_MEM_OBJECT_IMAGE3D ? s->depth : 0;
        break;
    /* "If image is not an image array, 0 is returned." */
    case CL_IMAGE_ARRAY_SIZE:
        v.size = is_array(type) ? s->layers : 0;
        break;
    case CL_IMAGE_BUFFER:
        v.handle = image_buffer(image);
        size = sizeof(v.handle);
        break;
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES:
        v.count = 0;
        size = sizeof(v.count);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not valid\"", param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}
