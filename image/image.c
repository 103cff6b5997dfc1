/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Images and samplers, absent: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE.
 * clGetSupportedImageFormats validates its arguments and lists no format;
 * every call that would create an image or a sampler returns the spec's
 * error for a context without image support. No image or sampler can
 * exist, so the calls that take one stay in api/stubs.c. Like the stubs,
 * the creation calls use only their context (built with
 * -Wno-unused-parameter).
 */
#include "refcl/api.h"
#include "refcl/object.h"

#define MEM_FLAGS                                                        \
    (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |          \
     CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | \
     CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |                    \
     CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE)

/* At most one of @p group is set in @p flags. */
static bool at_most_one(cl_mem_flags flags, cl_mem_flags group)
{
    cl_mem_flags set = flags & group;
    return (set & (set - 1)) == 0;
}

/* The memory flags table: known bits, and none of its "mutually exclusive"
 * pairs. */
static bool mem_flags_valid(cl_mem_flags flags)
{
    return !(flags & ~(cl_mem_flags)MEM_FLAGS) &&
           at_most_one(flags, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
                                  CL_MEM_READ_ONLY) &&
           at_most_one(flags, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR) &&
           at_most_one(flags, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) &&
           at_most_one(flags, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                                  CL_MEM_HOST_NO_ACCESS);
}

/* "image_type ... must be either CL_MEM_OBJECT_IMAGE1D,
 * CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
 * CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE1D_ARRAY, or
 * CL_MEM_OBJECT_IMAGE2D_ARRAY". */
static bool image_type_valid(cl_mem_object_type type)
{
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE3D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        return true;
    default:
        return false;
    }
}

/* "clGetSupportedImageFormats returns a union of image formats supported by
 * all devices in the context": none. */
cl_int CL_API_CALL refcl_clGetSupportedImageFormats(
    cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
    cl_uint num_entries, cl_image_format *image_formats,
    cl_uint *num_image_formats)
{
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return CL_INVALID_CONTEXT;
    /* CL_INVALID_VALUE "if flags or image_type are not valid, or if
     * num_entries is 0 and image_formats is not NULL". */
    if (!mem_flags_valid(flags) || !image_type_valid(image_type) ||
        (num_entries == 0 && image_formats))
        return CL_INVALID_VALUE;
    if (num_image_formats)
        *num_image_formats = 0;
    return CL_SUCCESS;
}

/* Every image and sampler creation: CL_INVALID_CONTEXT "if context is not
 * a valid context", else CL_INVALID_OPERATION "if there are no devices in
 * context that support images" (clCreateImage*) or "if images are not
 * supported by any device associated with context" (clCreateSampler*). */
static void *no_images(cl_context context, cl_int *errcode_ret)
{
    return refcl_errcode(NULL,
                         refcl_object_valid(context, REFCL_CONTEXT)
                             ? CL_INVALID_OPERATION
                             : CL_INVALID_CONTEXT,
                         errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage(cl_context context, cl_mem_flags flags,
                                       const cl_image_format *image_format,
                                       const cl_image_desc *image_desc,
                                       void *host_ptr, cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImageWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage2D(cl_context context, cl_mem_flags flags,
                                         const cl_image_format *image_format,
                                         size_t image_width,
                                         size_t image_height,
                                         size_t image_row_pitch,
                                         void *host_ptr, cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateImage3D(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    size_t image_width, size_t image_height, size_t image_depth,
    size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr,
    cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}

cl_sampler CL_API_CALL refcl_clCreateSampler(cl_context context,
                                             cl_bool normalized_coords,
                                             cl_addressing_mode addressing_mode,
                                             cl_filter_mode filter_mode,
                                             cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}

cl_sampler CL_API_CALL refcl_clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret)
{
    return no_images(context, errcode_ret);
}
