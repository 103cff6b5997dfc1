/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Images and samplers (image/). An image is a memory object
 * (struct _cl_mem, refcl/memory.h) whose `image` says its format and
 * shape; its bytes are a memory object's like a buffer's: refcl's own,
 * the application's (CL_MEM_USE_HOST_PTR), or those of the buffer or image
 * it was created from. Texels are stored row after row, rows `row_pitch`
 * bytes apart, slices and array layers `slice_pitch` apart, each texel
 * its channels in the order the channel order names them (compiled
 * kernels read the same layout: kernel/enqueue.c describes an image to
 * them as refcl/kernel_abi.h's struct refcl_abi_image).
 */
#ifndef REFCL_IMAGE_H
#define REFCL_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "refcl/memory.h"

/** An image's format and shape: clGetImageInfo's answers. */
struct refcl_image {
    cl_image_format format;
    size_t element_size;   /**< CL_IMAGE_ELEMENT_SIZE */
    unsigned channels;     /**< channels stored per texel (not packed) */
    size_t width;          /**< texels */
    size_t height;         /**< rows: 1 for 1D images and 1D arrays */
    size_t depth;          /**< slices: 1 unless 3D */
    size_t layers;         /**< array layers: 1 unless an array */
    size_t row_pitch;      /**< CL_IMAGE_ROW_PITCH */
    size_t slice_pitch;    /**< bytes per slice or layer; 0 for 1D, 2D */
};

/** The image of @p mem (which must be one). */
static inline const struct refcl_image *refcl_image_of(
    const struct _cl_mem *mem)
{
    return mem->image;
}

/**
 * The region of an image as texels, rows and slices (or layers): the
 * spec's origin and region with the array index moved to where the
 * layout has it (a 1D array's layer is its "row").
 */
struct refcl_image_box {
    size_t origin[3];
    size_t region[3];
};

/* ---- formats (image/format.c) ---------------------------------------- */

/** Bytes of one texel of @p format, or 0 if the format is not valid
 *  ("if values specified in image_format are not valid"). */
size_t refcl_format_element_size(const cl_image_format *format);

/** Channels stored in one texel of valid @p format (1 for packed ones:
 *  they are one integer). */
unsigned refcl_format_channels(const cl_image_format *format);

/** True if refcl's device supports @p format for images of @p type whose
 *  kernels' access @p flags ask for (CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
 *  CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE). */
bool refcl_format_supported(const cl_image_format *format,
                            cl_mem_object_type type, cl_mem_flags flags);

/** The formats refcl_format_supported accepts for @p type and @p flags:
 *  up to @p max into @p out (may be NULL); @return how many there are. */
cl_uint refcl_formats_list(cl_mem_object_type type, cl_mem_flags flags,
                           cl_image_format *out, cl_uint max);

/** Bytes of clEnqueueFillImage's fill_color for @p format: one float for
 *  CL_DEPTH, four floats, ints or uints otherwise. */
size_t refcl_format_fill_size(const cl_image_format *format);

/**
 * One texel of @p format holding @p color (a float4, int4 or uint4 as
 * clEnqueueFillImage takes it; a float for CL_DEPTH), converted by the
 * spec's conversion rules, into @p texel (element_size bytes).
 */
void refcl_format_pack(const cl_image_format *format, const void *color,
                       void *texel);

/* ---- images (image/image.c) -------------------------------------------- */

/** CL_SUCCESS if @p mem is a live image of @p context, else
 *  CL_INVALID_MEM_OBJECT ("if image is not a valid image object") or
 *  CL_INVALID_CONTEXT. */
cl_int refcl_image_check(const struct _cl_mem *mem,
                         const struct _cl_context *context);

/** The OpenCL C type of an image of @p type: "image2d_t"... */
const char *refcl_image_type_name(cl_mem_object_type type);

/** True if image @p mem is what a kernel argument of OpenCL C type
 *  @p type_name takes ("image2d_t"; a CL_DEPTH image "image2d_depth_t");
 *  true for a typedef's name, which does not say. */
bool refcl_image_matches(const struct _cl_mem *mem, const char *type_name);

/* ---- samplers (image/sampler.c) ---------------------------------------- */

struct _cl_sampler {
    struct refcl_object obj;       /**< obj.parent: the context */
    struct _cl_context *context;   /**< retained */
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
    /** CL_SAMPLER_PROPERTIES as given, 0 included; count 0 if none. */
    cl_sampler_properties properties[7];
    size_t properties_len;
};
REFCL_OBJECT_LAYOUT(REFCL_SAMPLER, struct _cl_sampler);

#endif /* REFCL_IMAGE_H */
