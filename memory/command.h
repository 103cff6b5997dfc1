/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the memory commands of memory/ share: the checks every one starts
 * with, the payload header that holds their memory objects, the enqueue,
 * and the byte movers that spread large copies and fills over the
 * device's compute units. Shared by memory/ and the image layer above it,
 * whose commands are memory commands too.
 */
#ifndef REFCL_MEMORY_COMMAND_H
#define REFCL_MEMORY_COMMAND_H

#include "refcl/event.h"
#include "refcl/memory.h"
#include "refcl/queue.h"

/**
 * The handle checks of a command on @p queue using @p count memory objects
 * and a wait list, in refcl's order (docs/memory.md): CL_INVALID_COMMAND_QUEUE,
 * then each object's CL_INVALID_MEM_OBJECT and CL_INVALID_CONTEXT, then
 * the wait list's CL_INVALID_EVENT_WAIT_LIST and CL_INVALID_CONTEXT.
 */
cl_int refcl_command_check(const struct _cl_command_queue *queue,
                           struct _cl_mem *const *mems, size_t count,
                           cl_uint num_events, const cl_event *wait_list);

/** refcl_command_check for a command that takes images as well as
 *  buffers. */
cl_int refcl_command_check_objects(const struct _cl_command_queue *queue,
                                   struct _cl_mem *const *mems, size_t count,
                                   cl_uint num_events,
                                   const cl_event *wait_list);

/** The memory objects a command holds, retained: the first member of
 *  every payload that refcl_hold_release frees. */
struct refcl_hold {
    struct _cl_mem *mems[2];
};

/** Retains @p a and @p b (either may be NULL) into @p hold. */
static inline void refcl_hold_take(struct refcl_hold *hold, struct _cl_mem *a,
                                   struct _cl_mem *b)
{
    hold->mems[0] = a;
    hold->mems[1] = b;
    if (a)
        refcl_mem_retain(a);
    if (b)
        refcl_mem_retain(b);
}

/** ops->release of a payload starting with struct refcl_hold: releases its
 *  memory objects (possibly destroying them) and frees it. */
void refcl_hold_release(void *payload);

/**
 * The host addresses of a buffer-to-buffer copy's source and destination,
 * their storage made if need be. @return CL_SUCCESS;
 * CL_INVALID_OPERATION when the destination's bytes are read-only (an
 * import); CL_MEM_OBJECT_ALLOCATION_FAILURE.
 */
cl_int refcl_copy_ends(struct _cl_mem *src_buffer, struct _cl_mem *dst_buffer,
                       char **src, char **dst);

/**
 * Enqueues a command of @p type on @p queue whose work is @p ops and
 * @p payload (owned from here on, released on every path).
 * @return what refcl_executor_enqueue returns.
 */
cl_int refcl_mem_enqueue(struct _cl_command_queue *queue,
                         cl_command_type type, cl_bool blocking,
                         cl_uint num_events, const cl_event *wait_list,
                         cl_event *event, const struct refcl_command_ops *ops,
                         void *payload);

/**
 * Enqueues the copy of @p size bytes from @p src to @p dst, holding @p a
 * and @p b (either may be NULL) until it is done.
 */
cl_int refcl_enqueue_copy(struct _cl_command_queue *queue,
                          cl_command_type type, cl_bool blocking,
                          struct _cl_mem *a, struct _cl_mem *b, void *dst,
                          const void *src, size_t size, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event);

/**
 * Enqueues the fill of @p size bytes at @p dst with @p pattern (copied),
 * holding @p mem (may be NULL) until it is done.
 */
cl_int refcl_enqueue_fill(struct _cl_command_queue *queue,
                          cl_command_type type, struct _cl_mem *mem, void *dst,
                          const void *pattern, size_t pattern_size,
                          size_t size, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event);

/** Largest read or write done on the calling thread when its queue is idle
 *  (refcl_command_ops.on_caller): a few microseconds of copying, less than
 *  handing the command to the worker costs. */
#define REFCL_HOST_COPY_MAX ((size_t)64 * 1024)

/**
 * Copies @p size bytes from @p src to @p dst on @p device: large copies in
 * pieces over its compute units, overlapping ones (USE_HOST_PTR buffers
 * over one host region, whose commands the spec leaves undefined) as a
 * memmove. On the queue's worker (or its caller: REFCL_HOST_COPY_MAX).
 */
void refcl_copy_bytes(struct _cl_device_id *device, void *dst, const void *src,
                      size_t size);

/**
 * Fills @p size bytes at @p dst (a multiple of @p pattern_size, a power of
 * two up to 128) with @p pattern, large fills over @p device's compute
 * units.
 */
void refcl_fill_bytes(struct _cl_device_id *device, void *dst,
                      const void *pattern, size_t pattern_size, size_t size);

/** Largest pattern clEnqueueFillBuffer and clEnqueueSVMMemFill take. */
#define REFCL_PATTERN_MAX 128u

/**
 * CL_INVALID_VALUE unless @p pattern is not NULL and @p pattern_size is a
 * power of two from 1 to 128 ("if pattern is NULL", "if pattern_size is
 * zero", "if pattern_size is not a power of two", "if pattern_size is
 * greater than 128").
 */
static inline cl_int refcl_pattern_check(const void *pattern,
                                         size_t pattern_size)
{
    if (!pattern)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "pattern NULL: \"if pattern is NULL\"");
    if (pattern_size == 0 || pattern_size > REFCL_PATTERN_MAX ||
        (pattern_size & (pattern_size - 1)))
        return REFCL_FAIL(CL_INVALID_VALUE, "pattern_size %zu: \"if "
                          "pattern_size is zero\", \"not a power of two\" or "
                          "\"greater than 128\"", pattern_size);
    return CL_SUCCESS;
}

/** True when the ranges [@p a, @p a + @p n) and [@p b, @p b + @p m)
 *  share a byte. */
static inline bool refcl_ranges_overlap(uintptr_t a, size_t n, uintptr_t b,
                                        size_t m)
{
    return n && m && a < b + m && b < a + n;
}

#endif /* REFCL_MEMORY_COMMAND_H */
