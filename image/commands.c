/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The image commands: clEnqueueReadImage, clEnqueueWriteImage,
 * clEnqueueCopyImage, clEnqueueFillImage, clEnqueueCopyImageToBuffer,
 * clEnqueueCopyBufferToImage and clEnqueueMapImage.
 *
 * An image's region is a rectangle of its bytes: texels along x, then
 * rows (a 1D array's layers), then slices or layers, each with its own
 * byte stride. So every copy is one of memory/'s rectangle copies, a fill
 * writes one texel pattern row by row, and a map hands out a pointer into
 * the image's own bytes, as a buffer's map does.
 */
#include <stdlib.h>
#include <string.h>

#include "../memory/command.h"
#include "../memory/rect.h"
#include "refcl/api.h"
#include "refcl/image.h"

/* An image in the spec's coordinates: how far each of origin's three
 * coordinates may go, and the bytes from one step of it to the next. */
struct geometry {
    size_t bound[3];
    size_t stride[3];
};

static struct geometry geometry_of(const struct _cl_mem *image)
{
    const struct refcl_image *s = refcl_image_of(image);
    size_t e = s->element_size;
    switch (image->type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: /* "origin[1] describes the image
                                         index in the 1D image array" */
        return (struct geometry){{s->width, s->layers, 1},
                                 {e, s->slice_pitch, 0}};
    case CL_MEM_OBJECT_IMAGE2D:
        return (struct geometry){{s->width, s->height, 1},
                                 {e, s->row_pitch, 0}};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        return (struct geometry){{s->width, s->height, s->layers},
                                 {e, s->row_pitch, s->slice_pitch}};
    case CL_MEM_OBJECT_IMAGE3D:
        return (struct geometry){{s->width, s->height, s->depth},
                                 {e, s->row_pitch, s->slice_pitch}};
    default: /* 1D, 1D buffer */
        return (struct geometry){{s->width, 1, 1}, {e, 0, 0}};
    }
}

/* CL_INVALID_VALUE unless @p region at @p origin lies in @p image and
 * follows the rules for its type ("If image is a 2D image object,
 * origin[2] must be 0", "region[2] must be 1", ..., "The values in region
 * cannot be 0"); then *@p offset is the byte of its first texel. */
static cl_int box_check(const struct _cl_mem *image, const char *name,
                        const size_t *origin, const size_t *region,
                        size_t *offset)
{
    if (!origin || !region)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s or region NULL", name);
    struct geometry g = geometry_of(image);
    *offset = 0;
    for (int i = 0; i < 3; i++) {
        if (region[i] == 0)
            return REFCL_FAIL(CL_INVALID_VALUE, "region[%d] 0: \"The values "
                              "in region cannot be 0\"", i);
        if (origin[i] > g.bound[i] || region[i] > g.bound[i] - origin[i])
            return REFCL_FAIL(CL_INVALID_VALUE, "%s[%d] %zu, region[%d] %zu "
                              "past %zu: \"if the region ... specified by "
                              "origin and region is out of bounds\" (or "
                              "not 0 and 1 where the image has no such "
                              "dimension)", name, i, origin[i], i, region[i],
                              g.bound[i]);
        *offset += origin[i] * g.stride[i];
    }
    return CL_SUCCESS;
}

/* The rectangle of @p region of @p image starting at byte @p at. */
static void image_side(const struct _cl_mem *image, char *at,
                       const size_t *region, struct refcl_rect_copy *copy,
                       bool destination)
{
    struct geometry g = geometry_of(image);
    if (destination) {
        copy->dst = at;
        copy->dst_row = g.stride[1] ? g.stride[1] : 1;
        copy->dst_slice = g.stride[2] ? g.stride[2] : 1;
    } else {
        copy->src = at;
        copy->src_row = g.stride[1] ? g.stride[1] : 1;
        copy->src_slice = g.stride[2] ? g.stride[2] : 1;
    }
    copy->region[0] = region[0] * g.stride[0];
    copy->region[1] = region[1];
    copy->region[2] = region[2];
}

/* Linear memory holding @p region's texels with @p row and @p slice
 * pitches (a 1D array's layers are its rows, @p slice apart). */
static void linear_side(const struct _cl_mem *image, char *at, size_t row,
                        size_t slice, struct refcl_rect_copy *copy,
                        bool destination)
{
    bool one_d_array = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t rows = one_d_array ? slice : row;
    if (destination) {
        copy->dst = at;
        copy->dst_row = rows;
        copy->dst_slice = slice;
    } else {
        copy->src = at;
        copy->src_row = rows;
        copy->src_slice = slice;
    }
}

/* The host's pitches for @p region: "If row_pitch is set to 0, the
 * appropriate row pitch is calculated based on the size of each element in
 * bytes multiplied by width", "If slice_pitch is set to 0, ... calculated
 * based on the row_pitch x height"; given ones must hold a row (a slice). */
static cl_int host_pitches(const struct _cl_mem *image, const size_t *region,
                           size_t *row, size_t *slice)
{
    size_t tight = region[0] * refcl_image_of(image)->element_size;
    bool one_d_array = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t rows = one_d_array ? 1 : region[1];
    if (*row == 0)
        *row = tight;
    else if (*row < tight)
        return REFCL_FAIL(CL_INVALID_VALUE, "row_pitch %zu < %zu bytes of a "
                          "row of the region", *row, tight);
    bool slices = one_d_array || image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                  image->type == CL_MEM_OBJECT_IMAGE3D;
    if (!slices || *slice == 0)
        *slice = *row * rows;
    else if (*slice < *row * rows)
        return REFCL_FAIL(CL_INVALID_VALUE, "slice_pitch %zu < %zu bytes of "
                          "a slice of the region", *slice, *row * rows);
    return CL_SUCCESS;
}

/* The handle checks of a command on @p queue with @p count memory objects,
 * the first @p images of them images. */
static cl_int handles_check(cl_command_queue queue, struct _cl_mem **mems,
                            size_t count, size_t images, cl_uint num_events,
                            const cl_event *wait_list)
{
    cl_int status = refcl_command_check_objects(queue, mems, count,
                                                num_events, wait_list);
    for (size_t i = 0; status == CL_SUCCESS && i < count; i++)
        if (refcl_mem_is_buffer(mems[i]) != (i >= images))
            status = REFCL_FAIL(CL_INVALID_MEM_OBJECT, "argument %zu: %s",
                                i + 1, i < images
                                           ? "\"if image is not a valid "
                                             "image object\""
                                           : "\"if buffer is not a valid "
                                             "buffer object\"");
    return status;
}

/* ---- read and write ----------------------------------------------------- */

/* clEnqueueReadImage and clEnqueueWriteImage: which way, and the host
 * access it needs. */
struct transfer {
    bool write;
    cl_command_type type;
    unsigned access;
};

static cl_int host_transfer(cl_command_queue queue, cl_mem image,
                            cl_bool blocking, const size_t *origin,
                            const size_t *region, size_t row, size_t slice,
                            void *ptr, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event,
                            struct transfer how)
{
    size_t offset = 0;
    cl_int status = handles_check(queue, &image, 1, 1, num_events, wait_list);
    if (status == CL_SUCCESS)
        status = box_check(image, "origin", origin, region, &offset);
    if (status == CL_SUCCESS && !ptr)
        status = REFCL_FAIL(CL_INVALID_VALUE, "ptr NULL: \"if ptr is a NULL "
                            "value\"");
    if (status == CL_SUCCESS)
        status = host_pitches(image, region, &row, &slice);
    /* CL_INVALID_OPERATION "if clEnqueueReadImage is called on image which
     * has been created with CL_MEM_HOST_WRITE_ONLY or
     * CL_MEM_HOST_NO_ACCESS", and the write's twin. */
    if (status == CL_SUCCESS)
        status = refcl_mem_host_access(image, how.access);
    if (status == CL_SUCCESS && how.write)
        status = refcl_mem_writable(image);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(image);
    if (!bytes)
        return refcl_mem_store_failed();
    struct refcl_rect_copy copy;
    image_side(image, bytes + offset, region, &copy, how.write);
    linear_side(image, ptr, row, slice, &copy, !how.write);
    return refcl_enqueue_rect(queue, how.type, blocking, image, NULL, &copy,
                              num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueReadImage(
    cl_command_queue queue, cl_mem image, cl_bool blocking_read,
    const size_t *origin, const size_t *region, size_t row_pitch,
    size_t slice_pitch, void *ptr, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    struct transfer how = {false, CL_COMMAND_READ_IMAGE, REFCL_HOST_READS};
    return host_transfer(queue, image, blocking_read, origin, region,
                         row_pitch, slice_pitch, ptr, num_events, wait_list,
                         event, how);
}

cl_int CL_API_CALL refcl_clEnqueueWriteImage(
    cl_command_queue queue, cl_mem image, cl_bool blocking_write,
    const size_t *origin, const size_t *region, size_t input_row_pitch,
    size_t input_slice_pitch, const void *ptr, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    struct transfer how = {true, CL_COMMAND_WRITE_IMAGE, REFCL_HOST_WRITES};
    return host_transfer(queue, image, blocking_write, origin, region,
                         input_row_pitch, input_slice_pitch, (void *)ptr,
                         num_events, wait_list, event, how);
}

/* ---- copies ------------------------------------------------------------- */

/* Two regions of one image share a texel. */
static bool boxes_overlap(const size_t *a, const size_t *b,
                          const size_t *region)
{
    for (int i = 0; i < 3; i++)
        if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
            return false;
    return true;
}

static bool formats_equal(const struct _cl_mem *a, const struct _cl_mem *b)
{
    const cl_image_format *fa = &refcl_image_of(a)->format;
    const cl_image_format *fb = &refcl_image_of(b)->format;
    return fa->image_channel_order == fb->image_channel_order &&
           fa->image_channel_data_type == fb->image_channel_data_type;
}

cl_int CL_API_CALL refcl_clEnqueueCopyImage(
    cl_command_queue queue, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct _cl_mem *mems[2] = {src_image, dst_image};
    size_t from = 0, to = 0;
    cl_int status = handles_check(queue, mems, 2, 2, num_events, wait_list);
    /* CL_IMAGE_FORMAT_MISMATCH "if src_image and dst_image do not use the
     * same image format". */
    if (status == CL_SUCCESS && !formats_equal(src_image, dst_image))
        status = REFCL_FAIL(CL_IMAGE_FORMAT_MISMATCH, "\"if src_image and "
                            "dst_image do not use the same image format\"");
    if (status == CL_SUCCESS)
        status = box_check(src_image, "src_origin", src_origin, region, &from);
    if (status == CL_SUCCESS)
        status = box_check(dst_image, "dst_origin", dst_origin, region, &to);
    /* CL_MEM_COPY_OVERLAP "if src_image and dst_image are the same image
     * object and the source and destination regions overlap". */
    if (status == CL_SUCCESS && src_image == dst_image &&
        boxes_overlap(src_origin, dst_origin, region))
        status = REFCL_FAIL(CL_MEM_COPY_OVERLAP, "\"if src_image and "
                            "dst_image are the same image object and the "
                            "source and destination regions overlap\"");
    char *src = NULL, *dst = NULL;
    if (status == CL_SUCCESS)
        status = refcl_copy_ends(src_image, dst_image, &src, &dst);
    if (status != CL_SUCCESS)
        return status;
    struct refcl_rect_copy copy;
    image_side(src_image, src + from, region, &copy, false);
    image_side(dst_image, dst + to, region, &copy, true);
    return refcl_enqueue_rect(queue, CL_COMMAND_COPY_IMAGE, CL_FALSE,
                              src_image, dst_image, &copy, num_events,
                              wait_list, event);
}

/* The buffer side of a copy between an image and a buffer: "if the region
 * specified by dst_offset and dst_offset + dst_cb refer to a region
 * outside dst_buffer" (where dst_cb is the region's texels), and
 * CL_MISALIGNED_SUB_BUFFER_OFFSET for a sub-buffer whose origin is not
 * aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
static cl_int buffer_side_check(const struct _cl_mem *image,
                                const struct _cl_mem *buffer, size_t offset,
                                const size_t *region)
{
    size_t bytes = refcl_image_of(image)->element_size;
    for (int i = 0; i < 3; i++)
        if (__builtin_mul_overflow(bytes, region[i], &bytes))
            bytes = SIZE_MAX;
    if (!refcl_range_inside(offset, bytes, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "offset %zu and %zu bytes of "
                          "texels: outside the buffer's %zu", offset, bytes,
                          buffer->size);
    if (buffer->parent && buffer->origin % REFCL_MEM_BASE_ALIGN)
        return REFCL_FAIL(CL_MISALIGNED_SUB_BUFFER_OFFSET, "a sub-buffer "
                          "whose origin is not aligned to "
                          "CL_DEVICE_MEM_BASE_ADDR_ALIGN");
    return CL_SUCCESS;
}

/* A copy between @p image and @p buffer, either way. */
struct buffer_copy {
    bool to_buffer;
    cl_command_type type;
};

static cl_int image_buffer_copy(cl_command_queue queue, cl_mem image,
                                cl_mem buffer, const size_t *origin,
                                const size_t *region, size_t offset,
                                cl_uint num_events, const cl_event *wait_list,
                                cl_event *event, struct buffer_copy how)
{
    struct _cl_mem *mems[2] = {image, buffer};
    size_t at = 0;
    cl_int status = handles_check(queue, mems, 2, 1, num_events, wait_list);
    if (status == CL_SUCCESS)
        status = box_check(image, how.to_buffer ? "src_origin" : "dst_origin",
                           origin, region, &at);
    if (status == CL_SUCCESS)
        status = buffer_side_check(image, buffer, offset, region);
    char *image_bytes = NULL, *buffer_bytes = NULL;
    if (status == CL_SUCCESS)
        status = how.to_buffer
                     ? refcl_copy_ends(image, buffer, &image_bytes, &buffer_bytes)
                     : refcl_copy_ends(buffer, image, &buffer_bytes, &image_bytes);
    if (status != CL_SUCCESS)
        return status;
    size_t row = region[0] * refcl_image_of(image)->element_size;
    size_t slice = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                       ? row : row * region[1];
    struct refcl_rect_copy copy;
    image_side(image, image_bytes + at, region, &copy, !how.to_buffer);
    linear_side(image, buffer_bytes + offset, row, slice, &copy,
                how.to_buffer);
    return refcl_enqueue_rect(queue, how.type, CL_FALSE, image, buffer, &copy,
                              num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueCopyImageToBuffer(
    cl_command_queue queue, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct buffer_copy how = {true, CL_COMMAND_COPY_IMAGE_TO_BUFFER};
    return image_buffer_copy(queue, src_image, dst_buffer, src_origin, region,
                             dst_offset, num_events, wait_list, event, how);
}

cl_int CL_API_CALL refcl_clEnqueueCopyBufferToImage(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct buffer_copy how = {false, CL_COMMAND_COPY_BUFFER_TO_IMAGE};
    return image_buffer_copy(queue, dst_image, src_buffer, dst_origin, region,
                             src_offset, num_events, wait_list, event, how);
}

/* ---- fill --------------------------------------------------------------- */

/* One texel written over a region, row by row. */
struct fill_command {
    struct refcl_hold hold;
    struct refcl_rect_copy box; /* dst, region (bytes, rows, slices),
                                   dst_row, dst_slice */
    size_t texel_size;
    unsigned char texel[16];
};

static cl_int fill_run(void *payload, struct _cl_command_queue *queue)
{
    struct fill_command *f = payload;
    const struct refcl_rect_copy *b = &f->box;
    size_t plane = b->region[0] * b->region[1];
    bool contiguous = (b->region[1] == 1 || b->dst_row == b->region[0]) &&
                      (b->region[2] == 1 || b->dst_slice == plane);
    if (contiguous) { /* whole rows and slices: one fill over the device */
        refcl_fill_bytes(queue->device, b->dst, f->texel, f->texel_size,
                         plane * b->region[2]);
        return CL_COMPLETE;
    }
    for (size_t z = 0; z < b->region[2]; z++)
        for (size_t y = 0; y < b->region[1]; y++)
            refcl_fill_bytes(queue->device,
                             b->dst + z * b->dst_slice + y * b->dst_row,
                             f->texel, f->texel_size, b->region[0]);
    return CL_COMPLETE;
}

static const struct refcl_command_ops fill_ops = {
    .run = fill_run, .release = refcl_hold_release};

cl_int CL_API_CALL refcl_clEnqueueFillImage(
    cl_command_queue queue, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    size_t at = 0;
    cl_int status = handles_check(queue, &image, 1, 1, num_events, wait_list);
    if (status == CL_SUCCESS && !fill_color)
        status = REFCL_FAIL(CL_INVALID_VALUE, "fill_color NULL: \"if "
                            "fill_color is NULL\"");
    if (status == CL_SUCCESS)
        status = box_check(image, "origin", origin, region, &at);
    if (status == CL_SUCCESS)
        status = refcl_mem_writable(image);
    char *bytes = status == CL_SUCCESS ? refcl_mem_address(image) : NULL;
    if (status == CL_SUCCESS && !bytes)
        status = refcl_mem_store_failed();
    if (status != CL_SUCCESS)
        return status;
    struct fill_command *f = malloc(sizeof(*f));
    if (!f)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    const struct refcl_image *s = refcl_image_of(image);
    refcl_hold_take(&f->hold, image, NULL);
    image_side(image, bytes + at, region, &f->box, true);
    f->texel_size = s->element_size;
    /* "The fill color is ... converted to the appropriate image channel
     * format and order associated with image." */
    refcl_format_pack(&s->format, fill_color, f->texel);
    return refcl_mem_enqueue(queue, CL_COMMAND_FILL_IMAGE, CL_FALSE,
                             num_events, wait_list, event, &fill_ops, f);
}

/* ---- map ---------------------------------------------------------------- */

void *CL_API_CALL refcl_clEnqueueMapImage(
    cl_command_queue queue, cl_mem image, cl_bool blocking_map,
    cl_map_flags map_flags, const size_t *origin, const size_t *region,
    size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events,
    const cl_event *wait_list, cl_event *event, cl_int *errcode_ret)
{
    size_t at = 0;
    cl_int status = handles_check(queue, &image, 1, 1, num_events, wait_list);
    if (status == CL_SUCCESS)
        status = box_check(image, "origin", origin, region, &at);
    bool slices = status == CL_SUCCESS &&
                  (image->type == CL_MEM_OBJECT_IMAGE3D ||
                   image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY);
    /* CL_INVALID_VALUE "if image_row_pitch is NULL", "if image is a 3D
     * image, 1D or 2D image array object and image_slice_pitch is NULL". */
    if (status == CL_SUCCESS && !image_row_pitch)
        status = REFCL_FAIL(CL_INVALID_VALUE, "\"if image_row_pitch is "
                            "NULL\"");
    if (status == CL_SUCCESS && slices && !image_slice_pitch)
        status = REFCL_FAIL(CL_INVALID_VALUE, "\"if image is a 3D image, 1D "
                            "or 2D image array object and image_slice_pitch "
                            "is NULL\"");
    if (status == CL_SUCCESS)
        status = refcl_map_flags_check(image, map_flags);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    struct geometry g = geometry_of(image);
    size_t span = g.stride[0];
    for (int i = 0; i < 3; i++)
        span += (region[i] - 1) * g.stride[i];
    const struct refcl_image *s = refcl_image_of(image);
    /* The image's own pitches: the pointer is into its bytes. "For a 1D and
     * 2D image, zero is returned" as the slice pitch. */
    *image_row_pitch = s->row_pitch;
    if (image_slice_pitch)
        *image_slice_pitch = s->slice_pitch;
    return refcl_map_enqueue(queue, image, CL_COMMAND_MAP_IMAGE, blocking_map,
                             map_flags, at, span, num_events, wait_list,
                             event, errcode_ret);
}
