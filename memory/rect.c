/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rectangle commands: clEnqueueReadBufferRect, clEnqueueWriteBufferRect
 * and clEnqueueCopyBufferRect, with every pitch rule, bounds checked
 * without overflow, and the copy-overlap check of the spec's appendix.
 */
#include <stdint.h>
#include <stdlib.h>

#include "command.h"
#include "rect.h"
#include "refcl/api.h"

/* One side of a rectangle command: where its rectangle starts (origin, in
 * bytes) and how far its last byte lies beyond (extent), pitches resolved. */
struct rect_side {
    size_t row, slice;
    size_t offset; /* origin[2] * slice + origin[1] * row + origin[0] */
    size_t extent; /* (region[2]-1) * slice + (region[1]-1) * row + region[0] */
};

/* a * b + c, or false when it does not fit a size_t. */
static bool mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    size_t product;
    return !__builtin_mul_overflow(a, b, &product) &&
           !__builtin_add_overflow(product, c, out);
}

/* Resolves one side's pitches and places its rectangle: CL_INVALID_VALUE
 * "if buffer_row_pitch is not equal to zero and is less than region[0]",
 * "if buffer_slice_pitch is not equal to zero and is less than region[1]
 * times buffer_row_pitch", "if buffer_slice_pitch is not equal to zero and
 * is not a multiple of buffer_row_pitch" (likewise for the host and for
 * source and destination), and where its offsets do not fit a size_t the
 * region is out of any bounds. "If buffer_row_pitch is 0, buffer_row_pitch
 * is computed as region[0]. If buffer_slice_pitch is 0,
 * buffer_slice_pitch is computed as region[1] x buffer_row_pitch." */
static cl_int side_place(const char *name, const size_t origin[3],
                         const size_t region[3], size_t row, size_t slice,
                         struct rect_side *side)
{
    size_t min_slice;
    if (row == 0)
        row = region[0];
    if (row < region[0] || __builtin_mul_overflow(region[1], row, &min_slice))
        return REFCL_FAIL(CL_INVALID_VALUE, "%s_row_pitch %zu: \"if "
                          "%s_row_pitch is not equal to zero and is less "
                          "than region[0]\" (%zu)", name, row, name,
                          region[0]);
    if (slice == 0)
        slice = min_slice;
    if (slice < min_slice)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s_slice_pitch %zu: \"if "
                          "%s_slice_pitch is not equal to zero and is less "
                          "than region[1] times %s_row_pitch\" (%zu)", name,
                          slice, name, name, min_slice);
    if (slice % row)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s_slice_pitch %zu: \"if "
                          "%s_slice_pitch is not equal to zero and is not a "
                          "multiple of %s_row_pitch\" (%zu)", name, slice,
                          name, name, row);
    size_t offset, last;
    if (!mul_add(origin[1], row, origin[0], &offset) ||
        !mul_add(origin[2], slice, offset, &offset) ||
        !mul_add(region[1] - 1, row, region[0], &last) ||
        !mul_add(region[2] - 1, slice, last, &last) ||
        __builtin_add_overflow(offset, last, &(size_t){0}))
        return REFCL_FAIL(CL_INVALID_VALUE, "%s_origin and region: beyond "
                          "the address space", name);
    *side = (struct rect_side){row, slice, offset, last};
    return CL_SUCCESS;
}

/* CL_INVALID_VALUE "if buffer_origin, host_origin, or region is NULL", "if
 * any region array element is zero". */
static cl_int region_check(const size_t *a, const size_t *b,
                           const size_t *region)
{
    if (!a || !b || !region)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s NULL: \"if buffer_origin, "
                          "host_origin, or region is NULL\"",
                          !region ? "region" : !a ? "an origin (first)"
                                                  : "an origin (second)");
    if (!region[0] || !region[1] || !region[2])
        return REFCL_FAIL(CL_INVALID_VALUE, "region {%zu, %zu, %zu}: \"if "
                          "any region array element is zero\"",
                          region[0], region[1], region[2]);
    return CL_SUCCESS;
}

/* The rectangle of @p side inside a buffer of @p size bytes: "if the
 * region being read or written specified by buffer_origin, region,
 * buffer_row_pitch, and buffer_slice_pitch is out of bounds". */
static bool side_inside(const struct rect_side *side, size_t size)
{
    return refcl_range_inside(side->offset, side->extent, size);
}

/* The host's rectangle must lie in the address space. */
static bool host_side_fits(const void *ptr, const struct rect_side *side)
{
    uintptr_t end;
    return !__builtin_add_overflow((uintptr_t)ptr, side->offset + side->extent,
                                   &end);
}

struct rect_command {
    struct refcl_hold hold;
    struct refcl_rect_copy copy;
};

static cl_int rect_run(void *payload, struct _cl_command_queue *queue)
{
    struct rect_command *r = payload;
    refcl_copy_rect(queue->device, &r->copy);
    return CL_COMPLETE;
}

static const struct refcl_command_ops rect_ops = {
    .run = rect_run, .release = refcl_hold_release};
/* A small read or write of the host's memory: done on the calling thread
 * when the queue is idle, as a small clEnqueueReadBuffer is. */
static const struct refcl_command_ops host_rect_ops = {
    .run = rect_run, .release = refcl_hold_release, .on_caller = true};

/* True for a command of @p type whose other side is the host's memory. */
static bool host_side(cl_command_type type)
{
    return type == CL_COMMAND_READ_BUFFER_RECT ||
           type == CL_COMMAND_WRITE_BUFFER_RECT ||
           type == CL_COMMAND_READ_IMAGE || type == CL_COMMAND_WRITE_IMAGE;
}

/* Enqueues the copy from @p src's rectangle to @p dst's. */
static cl_int enqueue_rect(struct _cl_command_queue *queue,
                           cl_command_type type, cl_bool blocking,
                           struct _cl_mem *a, struct _cl_mem *b, char *dst,
                           const struct rect_side *to, const char *src,
                           const struct rect_side *from, const size_t *region,
                           cl_uint num_events, const cl_event *wait_list,
                           cl_event *event)
{
    struct refcl_rect_copy copy = {
        dst + to->offset, src + from->offset,
        {region[0], region[1], region[2]},
        to->row, to->slice, from->row, from->slice};
    return refcl_enqueue_rect(queue, type, blocking, a, b, &copy, num_events,
                              wait_list, event);
}

cl_int refcl_enqueue_rect(struct _cl_command_queue *queue,
                          cl_command_type type, cl_bool blocking,
                          struct _cl_mem *a, struct _cl_mem *b,
                          const struct refcl_rect_copy *copy,
                          cl_uint num_events, const cl_event *wait_list,
                          cl_event *event)
{
    struct rect_command *r = malloc(sizeof(*r));
    if (!r)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    refcl_hold_take(&r->hold, a, b);
    r->copy = *copy;
    size_t bytes = copy->region[0] * copy->region[1] * copy->region[2];
    bool host = host_side(type) && bytes <= REFCL_HOST_COPY_MAX;
    return refcl_mem_enqueue(queue, type, blocking, num_events, wait_list,
                             event, host ? &host_rect_ops : &rect_ops, r);
}

/* The checks of a rectangle read or write, placing both sides. */
static cl_int host_rect_check(cl_command_queue queue, cl_mem buffer,
                              const size_t *buffer_origin,
                              const size_t *host_origin, const size_t *region,
                              size_t buffer_row, size_t buffer_slice,
                              size_t host_row, size_t host_slice,
                              const void *ptr, cl_uint num_events,
                              const cl_event *wait_list, unsigned access,
                              struct rect_side *mem, struct rect_side *host)
{
    cl_int status =
        refcl_command_check(queue, &buffer, 1, num_events, wait_list);
    if (status == CL_SUCCESS)
        status = region_check(buffer_origin, host_origin, region);
    if (status == CL_SUCCESS)
        status = side_place("buffer", buffer_origin, region, buffer_row,
                            buffer_slice, mem);
    if (status == CL_SUCCESS)
        status = side_place("host", host_origin, region, host_row, host_slice,
                            host);
    if (status != CL_SUCCESS)
        return status;
    if (!side_inside(mem, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "bytes %zu to %zu of %zu: \"if "
                          "the region being read or written specified by "
                          "(buffer_origin, region, buffer_row_pitch, "
                          "buffer_slice_pitch) is out of bounds\"",
                          mem->offset, mem->offset + mem->extent, buffer->size);
    if (!ptr)
        return REFCL_FAIL(CL_INVALID_VALUE, "ptr NULL: \"if ptr is NULL\"");
    if (!host_side_fits(ptr, host))
        return REFCL_FAIL(CL_INVALID_VALUE, "the host rectangle runs past "
                          "the end of the address space");
    /* CL_INVALID_OPERATION for the host-access flags, as the linear
     * commands. */
    return refcl_mem_host_access(buffer, access);
}

cl_int CL_API_CALL refcl_clEnqueueReadBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rect_side mem, host;
    cl_int status = host_rect_check(
        queue, buffer, buffer_origin, host_origin, region, buffer_row_pitch,
        buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events,
        wait_list, REFCL_HOST_READS, &mem, &host);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(buffer);
    if (!bytes)
        return refcl_mem_store_failed();
    return enqueue_rect(queue, CL_COMMAND_READ_BUFFER_RECT, blocking_read,
                        buffer, NULL, ptr, &host, bytes, &mem, region,
                        num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueWriteBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rect_side mem, host;
    cl_int status = host_rect_check(
        queue, buffer, buffer_origin, host_origin, region, buffer_row_pitch,
        buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events,
        wait_list, REFCL_HOST_WRITES, &mem, &host);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(buffer);
    if (!bytes)
        return refcl_mem_store_failed();
    return enqueue_rect(queue, CL_COMMAND_WRITE_BUFFER_RECT, blocking_write,
                        buffer, NULL, bytes, &mem, ptr, &host, region,
                        num_events, wait_list, event);
}

/* ---- copy overlap ----------------------------------------------------- */

/* The spec's check_copy_overlap (appendix "Checking for Memory Copy
 * Overlap"), for source and destination in one buffer object with one row
 * and one slice pitch. */
static bool spec_copy_overlap(const size_t src_origin[3],
                              const size_t dst_origin[3],
                              const size_t region[3], size_t row_pitch,
                              size_t slice_pitch)
{
    const size_t slice_size = (region[1] - 1) * row_pitch + region[0];
    const size_t block_size = (region[2] - 1) * slice_pitch + slice_size;
    const size_t src_start = src_origin[2] * slice_pitch +
                             src_origin[1] * row_pitch + src_origin[0];
    const size_t src_end = src_start + block_size;
    const size_t dst_start = dst_origin[2] * slice_pitch +
                             dst_origin[1] * row_pitch + dst_origin[0];
    const size_t dst_end = dst_start + block_size;
    if (dst_end <= src_start || src_end <= dst_start)
        return false;
    const size_t src_dx = src_origin[0] % row_pitch;
    const size_t dst_dx = dst_origin[0] % row_pitch;
    if ((dst_dx >= src_dx + region[0] &&
         dst_dx + region[0] <= src_dx + row_pitch) ||
        (src_dx >= dst_dx + region[0] &&
         src_dx + region[0] <= dst_dx + row_pitch))
        return false;
    const size_t src_dy =
        (src_origin[1] * row_pitch + src_origin[0]) % slice_pitch;
    const size_t dst_dy =
        (dst_origin[1] * row_pitch + dst_origin[0]) % slice_pitch;
    if ((dst_dy >= src_dy + slice_size &&
         dst_dy + slice_size <= src_dy + slice_pitch) ||
        (src_dy >= dst_dy + slice_size &&
         src_dy + slice_size <= dst_dy + slice_pitch))
        return false;
    return true;
}

/* The rows of one rectangle, in its buffer's address order: row r (counted
 * across slices) starts at base + (r / height) * slice + (r % height) *
 * row. */
struct row_walk {
    size_t base, row, slice, height, rows, next;
};

static size_t row_start(const struct row_walk *w)
{
    return w->base + (w->next / w->height) * w->slice +
           (w->next % w->height) * w->row;
}

/* Do two rectangles of different pitches in one buffer share a byte? Their
 * rows are each in increasing address order and disjoint, so one merge
 * walk answers exactly. */
static bool rows_overlap(struct row_walk a, struct row_walk b, size_t width)
{
    while (a.next < a.rows && b.next < b.rows) {
        size_t sa = row_start(&a), sb = row_start(&b);
        if (sa < sb + width && sb < sa + width)
            return true;
        if (sa < sb)
            a.next++;
        else
            b.next++;
    }
    return false;
}

/* CL_MEM_COPY_OVERLAP for clEnqueueCopyBufferRect: the spec's algorithm
 * for one buffer or sub-buffer object; "different sub-buffers of the same
 * associated buffer object and they overlap"; and a sub-buffer and its own
 * buffer whose rectangles share a byte. */
static bool rect_overlaps(const struct _cl_mem *src, const size_t *src_origin,
                          const struct rect_side *from,
                          const struct _cl_mem *dst, const size_t *dst_origin,
                          const struct rect_side *to, const size_t *region)
{
    if (src == dst)
        return spec_copy_overlap(src_origin, dst_origin, region, from->row,
                                 from->slice);
    if (src->parent && dst->parent)
        return src->parent == dst->parent &&
               refcl_ranges_overlap(src->origin, src->size, dst->origin,
                                    dst->size);
    if (src->parent != dst && dst->parent != src)
        return false;
    size_t rows = region[1] * region[2];
    struct row_walk a = {src->origin + from->offset, from->row, from->slice,
                         region[1], rows, 0};
    struct row_walk b = {dst->origin + to->offset, to->row, to->slice,
                         region[1], rows, 0};
    /* Disjoint spans need no walk. */
    if (!refcl_ranges_overlap(a.base, from->extent, b.base, to->extent))
        return false;
    return rows_overlap(a, b, region[0]);
}

cl_int CL_API_CALL refcl_clEnqueueCopyBufferRect(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events, const cl_event *wait_list,
    cl_event *event)
{
    struct _cl_mem *mems[] = {src_buffer, dst_buffer};
    struct rect_side from, to;
    cl_int status = refcl_command_check(queue, mems, 2, num_events, wait_list);
    if (status == CL_SUCCESS)
        status = region_check(src_origin, dst_origin, region);
    if (status == CL_SUCCESS)
        status = side_place("src", src_origin, region, src_row_pitch,
                            src_slice_pitch, &from);
    if (status == CL_SUCCESS)
        status = side_place("dst", dst_origin, region, dst_row_pitch,
                            dst_slice_pitch, &to);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE for either rectangle out of bounds, "if src_buffer
     * and dst_buffer are the same buffer object and src_row_pitch is not
     * equal to dst_row_pitch", likewise for the slice pitches (compared as
     * resolved: a 0 stands for the pitch it computes to). */
    if (!side_inside(&from, src_buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "src bytes %zu to %zu of %zu: "
                          "\"if (src_origin, region, src_row_pitch, "
                          "src_slice_pitch) would require accessing elements "
                          "outside the buffer\"", from.offset,
                          from.offset + from.extent, src_buffer->size);
    if (!side_inside(&to, dst_buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "dst bytes %zu to %zu of %zu: "
                          "\"if (dst_origin, region, dst_row_pitch, "
                          "dst_slice_pitch) would require accessing elements "
                          "outside the buffer\"", to.offset,
                          to.offset + to.extent, dst_buffer->size);
    if (src_buffer == dst_buffer &&
        (from.row != to.row || from.slice != to.slice))
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if src_buffer and dst_buffer "
                          "are the same buffer object and src_row_pitch is "
                          "not equal to dst_row_pitch\" (or the slice "
                          "pitches)");
    if (rect_overlaps(src_buffer, src_origin, &from, dst_buffer, dst_origin,
                      &to, region))
        return REFCL_FAIL(CL_MEM_COPY_OVERLAP, "\"if src_buffer and "
                          "dst_buffer are the same buffer ... and the source "
                          "and destination regions overlap\"");
    char *src, *dst;
    status = refcl_copy_ends(src_buffer, dst_buffer, &src, &dst);
    if (status != CL_SUCCESS)
        return status;
    return enqueue_rect(queue, CL_COMMAND_COPY_BUFFER_RECT, CL_FALSE,
                        src_buffer, dst_buffer, dst, &to, src, &from, region,
                        num_events, wait_list, event);
}
