/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rectangles of bytes: the 2D and 3D regions of clEnqueue{Read,Write,
 * Copy}BufferRect. Private to memory/.
 */
#ifndef REFCL_MEMORY_RECT_H
#define REFCL_MEMORY_RECT_H

#include <stddef.h>

struct _cl_device_id;

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

#endif /* REFCL_MEMORY_RECT_H */
