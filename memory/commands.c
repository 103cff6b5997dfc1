/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The buffer commands that move bytes in one line: clEnqueueReadBuffer,
 * clEnqueueWriteBuffer, clEnqueueCopyBuffer, clEnqueueFillBuffer, and
 * clEnqueueMigrateMemObjects, which has nothing to move on a CPU. Also
 * what every memory command shares (memory/command.h).
 *
 * Each command checks its arguments on the caller's thread, retains the
 * memory objects it uses and records the addresses it will touch; its work
 * runs on the queue's worker (queue/executor.c), which drops those
 * references before anyone can see the command complete.
 */
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "refcl/api.h"
#include "refcl/context.h"

/* ---- shared by every memory command ----------------------------------- */

/* The checks of refcl_command_check; @p buffers: each object must be a
 * buffer. */
static cl_int command_check(const struct _cl_command_queue *queue,
                            struct _cl_mem *const *mems, size_t count,
                            bool buffers, cl_uint num_events,
                            const cl_event *wait_list)
{
    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
     * command-queue". */
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    /* CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object";
     * CL_INVALID_CONTEXT "if the context associated with command_queue and
     * buffer are not the same". */
    for (size_t i = 0; i < count; i++) {
        cl_int status = refcl_mem_check(mems[i], queue->context);
        if (status != CL_SUCCESS)
            return status;
        if (buffers && !refcl_mem_is_buffer(mems[i]))
            return refcl_mem_not_buffer();
    }
    return refcl_wait_list_check(queue->context, num_events, wait_list);
}

cl_int refcl_command_check(const struct _cl_command_queue *queue,
                           struct _cl_mem *const *mems, size_t count,
                           cl_uint num_events, const cl_event *wait_list)
{
    return command_check(queue, mems, count, true, num_events, wait_list);
}

cl_int refcl_command_check_objects(const struct _cl_command_queue *queue,
                                   struct _cl_mem *const *mems, size_t count,
                                   cl_uint num_events,
                                   const cl_event *wait_list)
{
    return command_check(queue, mems, count, false, num_events, wait_list);
}

void refcl_hold_release(void *payload)
{
    struct refcl_hold *hold = payload;
    for (int i = 0; i < 2; i++)
        if (hold->mems[i])
            refcl_mem_release(hold->mems[i]);
    free(payload);
}

cl_int refcl_copy_ends(struct _cl_mem *src_buffer, struct _cl_mem *dst_buffer,
                       char **src, char **dst)
{
    /* "The usage information ... given by the cl_mem_flags argument value
     * specified when src_buffer or dst_buffer is created is ignored", but
     * read-only imported bytes cannot be a destination. */
    cl_int status = refcl_mem_writable(dst_buffer);
    if (status != CL_SUCCESS)
        return status;
    *src = refcl_mem_address(src_buffer);
    *dst = *src ? refcl_mem_address(dst_buffer) : NULL;
    return *dst ? CL_SUCCESS : refcl_mem_store_failed();
}

cl_int refcl_mem_enqueue(struct _cl_command_queue *queue,
                         cl_command_type type, cl_bool blocking,
                         cl_uint num_events, const cl_event *wait_list,
                         cl_event *event, const struct refcl_command_ops *ops,
                         void *payload)
{
    struct refcl_command command = {
        .type = type,
        .blocking = blocking != CL_FALSE,
        .num_events = num_events,
        .wait_list = wait_list,
        .ops = ops,
        .payload = payload,
    };
    return refcl_executor_enqueue(queue, &command, event);
}

/* ---- read, write, copy ------------------------------------------------ */

/* A linear copy between host memory and buffers, or buffer to buffer. */
struct copy_command {
    struct refcl_hold hold;
    char *dst;
    const char *src;
    size_t size;
};

static cl_int copy_run(void *payload, struct _cl_command_queue *queue)
{
    struct copy_command *c = payload;
    refcl_copy_bytes(queue->device, c->dst, c->src, c->size);
    return CL_COMPLETE;
}

static const struct refcl_command_ops copy_ops = {
    .run = copy_run, .release = refcl_hold_release};
/* A small read or write: the host's access to bytes it shares with the
 * device, done on the calling thread when the queue is idle. */
static const struct refcl_command_ops host_copy_ops = {
    .run = copy_run, .release = refcl_hold_release, .on_caller = true};

cl_int refcl_enqueue_copy(struct _cl_command_queue *queue,
                          cl_command_type type, cl_bool blocking,
                          struct _cl_mem *a, struct _cl_mem *b, void *dst,
                          const void *src, size_t size, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event)
{
    struct copy_command *c = malloc(sizeof(*c));
    if (!c)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    refcl_hold_take(&c->hold, a, b);
    c->dst = dst;
    c->src = src;
    c->size = size;
    bool host = (type == CL_COMMAND_READ_BUFFER ||
                 type == CL_COMMAND_WRITE_BUFFER) &&
                size <= REFCL_HOST_COPY_MAX;
    return refcl_mem_enqueue(queue, type, blocking, num_events, wait_list,
                             event, host ? &host_copy_ops : &copy_ops, c);
}

/* The checks clEnqueueReadBuffer and clEnqueueWriteBuffer share. */
static cl_int host_transfer_check(cl_command_queue queue, cl_mem buffer,
                                  size_t offset, size_t size, const void *ptr,
                                  cl_uint num_events, const cl_event *wait_list,
                                  unsigned access)
{
    cl_int status =
        refcl_command_check(queue, &buffer, 1, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if the region being read or written specified by
     * offset and size is out of bounds", "if ptr is NULL". */
    if (!refcl_range_inside(offset, size, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "offset %zu, size %zu of %zu "
                          "bytes: \"if the region being read or written "
                          "specified by offset and size is out of bounds\"",
                          offset, size, buffer->size);
    if (!ptr)
        return REFCL_FAIL(CL_INVALID_VALUE, "ptr NULL: \"if ptr is NULL\"");
    /* CL_INVALID_OPERATION "if clEnqueueReadBuffer is called on buffer
     * which has been created with CL_MEM_HOST_WRITE_ONLY or
     * CL_MEM_HOST_NO_ACCESS", and for clEnqueueWriteBuffer with
     * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS. */
    return refcl_mem_host_access(buffer, access);
}

cl_int CL_API_CALL refcl_clEnqueueReadBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read, size_t offset,
    size_t size, void *ptr, cl_uint num_events, const cl_event *wait_list,
    cl_event *event)
{
    cl_int status = host_transfer_check(queue, buffer, offset, size, ptr,
                                        num_events, wait_list,
                                        REFCL_HOST_READS);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(buffer);
    if (!bytes)
        return refcl_mem_store_failed();
    return refcl_enqueue_copy(queue, CL_COMMAND_READ_BUFFER, blocking_read,
                              buffer, NULL, ptr, bytes + offset, size,
                              num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueWriteBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    size_t offset, size_t size, const void *ptr, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    cl_int status = host_transfer_check(queue, buffer, offset, size, ptr,
                                        num_events, wait_list,
                                        REFCL_HOST_WRITES);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(buffer);
    if (!bytes)
        return refcl_mem_store_failed();
    return refcl_enqueue_copy(queue, CL_COMMAND_WRITE_BUFFER, blocking_write,
                              buffer, NULL, bytes + offset, ptr, size,
                              num_events, wait_list, event);
}

/* CL_MEM_COPY_OVERLAP "if src_buffer and dst_buffer are the same buffer or
 * sub-buffer object and the source and destination regions overlap", "if
 * src_buffer and dst_buffer are different sub-buffers of the same
 * associated buffer object and they overlap"; and between a sub-buffer and
 * its own buffer, when the bytes copied overlap. */
static bool copy_overlaps(const struct _cl_mem *src, size_t src_offset,
                          const struct _cl_mem *dst, size_t dst_offset,
                          size_t size)
{
    if (src != dst && src->parent && dst->parent)
        return src->parent == dst->parent &&
               refcl_ranges_overlap(src->origin, src->size, dst->origin,
                                    dst->size);
    if (src != dst && src->parent != dst && dst->parent != src)
        return false; /* unrelated buffers */
    return refcl_ranges_overlap(src->origin + src_offset, size,
                                dst->origin + dst_offset, size);
}

cl_int CL_API_CALL refcl_clEnqueueCopyBuffer(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    struct _cl_mem *mems[] = {src_buffer, dst_buffer};
    cl_int status = refcl_command_check(queue, mems, 2, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if the region specified by src_offset and size is
     * out of bounds of src_buffer", and for dst_offset of dst_buffer. */
    if (!refcl_range_inside(src_offset, size, src_buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "src_offset %zu, size %zu of %zu "
                          "bytes: \"if the region specified by src_offset "
                          "and size is out of bounds of src_buffer\"",
                          src_offset, size, src_buffer->size);
    if (!refcl_range_inside(dst_offset, size, dst_buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "dst_offset %zu, size %zu of %zu "
                          "bytes: \"if the region specified by dst_offset "
                          "and size is out of bounds of dst_buffer\"",
                          dst_offset, size, dst_buffer->size);
    if (copy_overlaps(src_buffer, src_offset, dst_buffer, dst_offset, size))
        return REFCL_FAIL(CL_MEM_COPY_OVERLAP, "src_offset %zu, dst_offset "
                          "%zu, size %zu: \"the source and destination "
                          "regions overlap\"", src_offset, dst_offset, size);
    char *src, *dst;
    status = refcl_copy_ends(src_buffer, dst_buffer, &src, &dst);
    if (status != CL_SUCCESS)
        return status;
    return refcl_enqueue_copy(queue, CL_COMMAND_COPY_BUFFER, CL_FALSE,
                              src_buffer, dst_buffer, dst + dst_offset,
                              src + src_offset, size, num_events, wait_list,
                              event);
}

/* ---- fill ------------------------------------------------------------- */

struct fill_command {
    struct refcl_hold hold;
    char *dst;
    size_t size;
    size_t pattern_size;
    /* "The memory associated with pattern can be reused or freed after the
     * function returns": a copy. */
    unsigned char pattern[REFCL_PATTERN_MAX];
};

static cl_int fill_run(void *payload, struct _cl_command_queue *queue)
{
    struct fill_command *f = payload;
    refcl_fill_bytes(queue->device, f->dst, f->pattern, f->pattern_size,
                     f->size);
    return CL_COMPLETE;
}

static const struct refcl_command_ops fill_ops = {
    .run = fill_run, .release = refcl_hold_release};

cl_int refcl_enqueue_fill(struct _cl_command_queue *queue,
                          cl_command_type type, struct _cl_mem *mem, void *dst,
                          const void *pattern, size_t pattern_size,
                          size_t size, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event)
{
    struct fill_command *f = malloc(sizeof(*f));
    if (!f)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    refcl_hold_take(&f->hold, mem, NULL);
    f->dst = dst;
    f->size = size;
    f->pattern_size = pattern_size;
    memcpy(f->pattern, pattern, pattern_size);
    return refcl_mem_enqueue(queue, type, CL_FALSE, num_events, wait_list,
                             event, &fill_ops, f);
}

cl_int CL_API_CALL refcl_clEnqueueFillBuffer(
    cl_command_queue queue, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    cl_int status =
        refcl_command_check(queue, &buffer, 1, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if the region being filled specified by offset and
     * size is out of bounds", the pattern's rules, "if offset is not a
     * multiple of pattern_size", "if size is not a multiple of
     * pattern_size". */
    if (!refcl_range_inside(offset, size, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "offset %zu, size %zu of %zu "
                          "bytes: \"if the region being filled specified by "
                          "offset and size is out of bounds\"",
                          offset, size, buffer->size);
    status = refcl_pattern_check(pattern, pattern_size);
    if (status != CL_SUCCESS)
        return status;
    if (offset % pattern_size || size % pattern_size)
        return REFCL_FAIL(CL_INVALID_VALUE, "offset %zu, size %zu: \"if "
                          "offset is not a multiple of pattern_size\" (%zu), "
                          "\"if size is not a multiple of pattern_size\"",
                          offset, size, pattern_size);
    status = refcl_mem_writable(buffer);
    if (status != CL_SUCCESS)
        return status;
    char *bytes = refcl_mem_address(buffer);
    if (!bytes)
        return refcl_mem_store_failed();
    return refcl_enqueue_fill(queue, CL_COMMAND_FILL_BUFFER, buffer,
                              bytes + offset, pattern, pattern_size, size,
                              num_events, wait_list, event);
}

/* ---- migrate ---------------------------------------------------------- */

/* Nothing moves: device memory is host memory. The command still holds
 * its objects, since it "uses" them until it is complete. */
struct migrate_command {
    cl_uint count;
    struct _cl_mem *mems[];
};

static void migrate_release(void *payload)
{
    struct migrate_command *m = payload;
    for (cl_uint i = 0; i < m->count; i++)
        refcl_mem_release(m->mems[i]);
    free(m);
}

static const struct refcl_command_ops migrate_ops = {
    .release = migrate_release, .on_caller = true};

#define MIGRATION_FLAGS \
    (CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)

cl_int CL_API_CALL refcl_clEnqueueMigrateMemObjects(
    cl_command_queue queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    if (num_mem_objects == 0 || !mem_objects)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s: \"if num_mem_objects is "
                          "zero or if mem_objects is NULL\"",
                          mem_objects ? "num_mem_objects 0"
                                      : "mem_objects NULL");
    cl_int status = refcl_command_check_objects(
        queue, mem_objects, num_mem_objects, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if flags is not 0 or is not any of the values
     * described in the table above". */
    if (flags & ~(cl_mem_migration_flags)MIGRATION_FLAGS)
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if flags is not "
                          "0 or is not any of the values described in the "
                          "table\"", (unsigned long long)flags);
    struct migrate_command *m =
        malloc(sizeof(*m) + num_mem_objects * sizeof(m->mems[0]));
    if (!m)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    m->count = num_mem_objects;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        m->mems[i] = mem_objects[i];
        refcl_mem_retain(m->mems[i]);
    }
    return refcl_mem_enqueue(queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, CL_FALSE,
                             num_events, wait_list, event, &migrate_ops, m);
}
