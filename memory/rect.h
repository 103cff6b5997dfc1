/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rectangles of bytes: the 2D and 3D regions of clEnqueue{Read,Write,
 * Copy}BufferRect, and of the image commands (image/commands.c). Shared by
 * memory/ and the image layer above it.
 */
#ifndef REFCL_MEMORY_RECT_H
#define REFCL_MEMORY_RECT_H

#include <stddef.h>

#include "refcl/event.h"

struct _cl_device_id;
struct _cl_command_queue;
struct _cl_mem;

/** One rectangle copy, pitches resolved (none is 0). */
struct refcl_rect_copy {
    char *dst;                /**< the rectangle's first byte */
    const char *src;
    size_t region[3];         /**< bytes, rows, slices; none 0 */
    size_t dst_row, dst_slice;
    size_t src_row, src_slice;
};

/** Copies @p copy row by row, large ones over @p device's compute units. */
void refcl_copy_rect(struct _cl_device_id *device,
                     const struct refcl_rect_copy *copy);

/**
 * Enqueues @p copy on @p queue as a command of @p type, holding @p a and
 * @p b (either may be NULL) until it is done.
 */
cl_int refcl_enqueue_rect(struct _cl_command_queue *queue,
                          cl_command_type type, cl_bool blocking,
                          struct _cl_mem *a, struct _cl_mem *b,
                          const struct refcl_rect_copy *copy,
                          cl_uint num_events, const cl_event *wait_list,
                          cl_event *event);

#endif /* REFCL_MEMORY_RECT_H */
