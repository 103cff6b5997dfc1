/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clEnqueueMapBuffer and clEnqueueUnmapMemObject, zero-copy: the device's
 * memory is the host's, so a map returns a pointer into the buffer itself
 * (or the image: image/commands.c maps through refcl_map_enqueue)
 * (host_ptr + offset for a CL_MEM_USE_HOST_PTR buffer) and neither command
 * moves a byte; both still take their place in the queue's order.
 *
 * The buffer that owns the bytes keeps a list of the mappings of itself
 * and its sub-buffers, in its own coordinates: unmap finds the pointer
 * there, and two mappings for writing may not overlap ("Mapping (and
 * unmapping) overlapped regions in a memory object and/or associated
 * memory objects ... for writing is an error"). Mappings are recorded and
 * dropped when the commands are enqueued, so that an unmap enqueued right
 * after a non-blocking map finds its pointer.
 */
#include <stdlib.h>

#include "command.h"
#include "refcl/api.h"

struct refcl_mapping {
    struct _cl_mem *mem;  /* the object mapped: the buffer or a sub-buffer */
    void *ptr;            /* what clEnqueueMapBuffer returned */
    size_t start, size;   /* in the owning buffer's bytes */
    bool writes;          /* CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION */
    struct refcl_mapping *next;
};

#define MAP_FLAGS \
    (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)
#define MAP_WRITES (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

/* "CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are
 * mutually exclusive"; no other bit. */
static bool map_flags_valid(cl_map_flags flags)
{
    return !(flags & ~(cl_map_flags)MAP_FLAGS) &&
           !((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
             (flags & (CL_MAP_READ | CL_MAP_WRITE)));
}

/* CL_INVALID_OPERATION "if buffer was created with CL_MEM_HOST_WRITE_ONLY
 * or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags", "if buffer
 * was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
 * CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags". */
static cl_int map_access_check(const struct _cl_mem *mem, cl_map_flags flags)
{
    unsigned access = (flags & CL_MAP_READ ? REFCL_HOST_READS : 0) |
                      (flags & MAP_WRITES ? REFCL_HOST_WRITES : 0);
    return refcl_mem_host_access(mem, access);
}

/* Records the mapping @p m in its owning buffer, unless (when @p check)
 * both it and a mapping it overlaps are for writing: CL_INVALID_OPERATION
 * "if mapping would lead to overlapping regions being mapped for writing".
 * A region mapped for reading may overlap one mapped for writing (its
 * contents are then "undefined until this region is unmapped"). */
static cl_int mapping_add(struct _cl_mem *root, struct refcl_mapping *m,
                          bool check)
{
    cl_int status = CL_SUCCESS;
    pthread_mutex_lock(&root->map_lock);
    for (struct refcl_mapping *o = check ? root->mappings : NULL; o;
         o = o->next)
        if (m->writes && o->writes &&
            refcl_ranges_overlap(m->start, m->size, o->start, o->size)) {
            status = REFCL_FAIL(CL_INVALID_OPERATION, "\"if mapping would "
                                "lead to overlapping regions being mapped "
                                "for writing\"");
            break;
        }
    if (status == CL_SUCCESS) {
        m->next = root->mappings;
        root->mappings = m;
        atomic_fetch_add_explicit(&m->mem->map_count, 1,
                                  memory_order_relaxed);
    }
    pthread_mutex_unlock(&root->map_lock);
    return status;
}

/* Takes @p m (recorded) out of its owning buffer's list again. */
static void mapping_unlink(struct _cl_mem *root, struct refcl_mapping *m)
{
    pthread_mutex_lock(&root->map_lock);
    for (struct refcl_mapping **p = &root->mappings; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            atomic_fetch_sub_explicit(&m->mem->map_count, 1,
                                      memory_order_relaxed);
            break;
        }
    pthread_mutex_unlock(&root->map_lock);
}

/* Takes the mapping of @p mem at @p ptr out of the list, or NULL if there
 * is none. Where one pointer was mapped several times, any of them. */
static struct refcl_mapping *mapping_take(struct _cl_mem *mem, const void *ptr)
{
    struct _cl_mem *root = refcl_mem_root(mem);
    struct refcl_mapping *found = NULL;
    pthread_mutex_lock(&root->map_lock);
    for (struct refcl_mapping **p = &root->mappings; *p; p = &(*p)->next)
        if ((*p)->mem == mem && (*p)->ptr == ptr) {
            found = *p;
            *p = found->next;
            atomic_fetch_sub_explicit(&mem->map_count, 1,
                                      memory_order_relaxed);
            break;
        }
    pthread_mutex_unlock(&root->map_lock);
    return found;
}

void refcl_mappings_drop(struct _cl_mem *mem)
{
    /* The map count counts @p mem's records: none, nothing to look for
     * (and no lock to take on every release). */
    if (atomic_load_explicit(&mem->map_count, memory_order_relaxed) == 0)
        return;
    struct _cl_mem *root = refcl_mem_root(mem);
    pthread_mutex_lock(&root->map_lock);
    for (struct refcl_mapping **p = &root->mappings; *p;) {
        struct refcl_mapping *m = *p;
        if (m->mem == mem) {
            *p = m->next;
            free(m);
        } else {
            p = &m->next;
        }
    }
    pthread_mutex_unlock(&root->map_lock);
}

/* Map and unmap do no work; the command holds its object until done. */
static const struct refcl_command_ops hold_ops = {
    .release = refcl_hold_release, .on_caller = true};

/* Enqueues a map or unmap of @p mem. */
static cl_int enqueue_hold(struct _cl_command_queue *queue,
                           cl_command_type type, cl_bool blocking,
                           struct _cl_mem *mem, cl_uint num_events,
                           const cl_event *wait_list, cl_event *event)
{
    struct refcl_hold *hold = malloc(sizeof(*hold));
    if (!hold)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    refcl_hold_take(hold, mem, NULL);
    return refcl_mem_enqueue(queue, type, blocking, num_events, wait_list,
                             event, &hold_ops, hold);
}

/* The checks of clEnqueueMapBuffer before anything is recorded. */
static cl_int map_check(cl_command_queue queue, cl_mem buffer,
                        cl_map_flags map_flags, size_t offset, size_t size,
                        cl_uint num_events, const cl_event *wait_list)
{
    cl_int status =
        refcl_command_check(queue, &buffer, 1, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if the region being mapped specified by offset and
     * size is out of bounds", "if size is zero", "if values specified in
     * map_flags are not valid". */
    if (!refcl_range_inside(offset, size, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "offset %zu, size %zu of %zu "
                          "bytes: \"if the region being mapped specified by "
                          "offset and size is out of bounds\"",
                          offset, size, buffer->size);
    if (size == 0)
        return REFCL_FAIL(CL_INVALID_VALUE, "size 0: \"if size is zero\"");
    return refcl_map_flags_check(buffer, map_flags);
}

cl_int refcl_map_flags_check(const struct _cl_mem *mem, cl_map_flags flags)
{
    if (!map_flags_valid(flags))
        return REFCL_FAIL(CL_INVALID_VALUE, "map_flags 0x%llX: \"if values "
                          "specified in map_flags are not valid\"",
                          (unsigned long long)flags);
    return map_access_check(mem, flags);
}

void *refcl_map_enqueue(struct _cl_command_queue *queue, struct _cl_mem *mem,
                        cl_command_type type, cl_bool blocking,
                        cl_map_flags map_flags, size_t offset, size_t size,
                        cl_uint num_events, const cl_event *wait_list,
                        cl_event *event, cl_int *errcode_ret)
{
    char *bytes = refcl_mem_address(mem);
    if (!bytes)
        return refcl_errcode(NULL, refcl_mem_store_failed(), errcode_ret);
    struct refcl_mapping *m = malloc(sizeof(*m));
    if (!m)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                        "no memory for the mapping"),
                             errcode_ret);
    /* "The pointer value returned by clEnqueueMapBuffer will be derived
     * from the host_ptr specified when the buffer object is created": the
     * bytes are the object's own, whatever their origin. */
    *m = (struct refcl_mapping){mem, bytes + offset,
                                refcl_mem_root_offset(mem) + offset, size,
                                (map_flags & MAP_WRITES) != 0, NULL};
    struct _cl_mem *root = refcl_mem_root(mem);
    cl_int status = mapping_add(root, m, true);
    if (status == CL_SUCCESS)
        status = enqueue_hold(queue, type, blocking, mem, num_events,
                              wait_list, event);
    if (status != CL_SUCCESS) {
        /* A blocking map whose wait list failed, or no memory: no pointer
         * was handed out, so there is nothing to unmap. */
        mapping_unlink(root, m);
        free(m);
        return refcl_errcode(NULL, status, errcode_ret);
    }
    return refcl_errcode(m->ptr, CL_SUCCESS, errcode_ret);
}

void *CL_API_CALL refcl_clEnqueueMapBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_map,
    cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event, cl_int *errcode_ret)
{
    cl_int status = map_check(queue, buffer, map_flags, offset, size,
                              num_events, wait_list);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    return refcl_map_enqueue(queue, buffer, CL_COMMAND_MAP_BUFFER,
                             blocking_map, map_flags, offset, size, num_events,
                             wait_list, event, errcode_ret);
}

cl_int CL_API_CALL refcl_clEnqueueUnmapMemObject(
    cl_command_queue queue, cl_mem memobj, void *mapped_ptr,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    cl_int status =
        refcl_command_check_objects(queue, &memobj, 1, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if mapped_ptr is not a valid pointer returned by
     * clEnqueueMapBuffer or clEnqueueMapImage for memobj" (or was unmapped
     * since). */
    struct refcl_mapping *m = mapping_take(memobj, mapped_ptr);
    if (!m)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if mapped_ptr is not a valid "
                          "pointer returned by clEnqueueMapBuffer ... for "
                          "memobj\"");
    status = enqueue_hold(queue, CL_COMMAND_UNMAP_MEM_OBJECT, CL_FALSE,
                          memobj, num_events, wait_list, event);
    if (status != CL_SUCCESS) {
        /* Not enqueued: the region stays mapped, as it was. */
        mapping_add(refcl_mem_root(memobj), m, false);
        return status;
    }
    free(m);
    return CL_SUCCESS;
}
