/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared virtual memory on a CPU: clSVMAlloc, clSVMFree and the SVM
 * commands. Host and device share one address space and one coherent
 * memory, so an SVM allocation is an ordinary allocation that refcl
 * remembers (for clSVMFree, CL_MEM_USES_SVM_POINTER and
 * clEnqueueSVMMigrateMem's bounds), map and unmap are only places in the
 * queue's order, and memcpy and fill are the buffer commands' byte movers.
 * docs/memory.md says which CL_DEVICE_SVM_CAPABILITIES refcl reports and
 * why.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"

/* Largest alignment clSVMAlloc takes: "a power of two up to the largest
 * data type supported by the OpenCL device", long16. */
#define SVM_ALIGN_MAX 128u

/* ---- the allocations -------------------------------------------------- */

struct svm_allocation {
    char *base;
    size_t size;
    const struct _cl_context *context;
};

/* Every live allocation, sorted by base address, under svm_lock. */
static pthread_mutex_t svm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct svm_allocation *svm_list;
static size_t svm_count, svm_capacity;

/* The index of the first allocation whose base lies above @p ptr. */
static size_t svm_upper(const void *ptr)
{
    size_t lo = 0, hi = svm_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((const char *)ptr < svm_list[mid].base)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The allocation holding @p ptr, or NULL. Under svm_lock. */
static struct svm_allocation *svm_holding(const void *ptr)
{
    size_t i = svm_upper(ptr);
    if (i == 0)
        return NULL;
    struct svm_allocation *a = &svm_list[i - 1];
    return (uintptr_t)ptr - (uintptr_t)a->base < a->size ? a : NULL;
}

bool refcl_svm_find(const struct _cl_context *context, const void *ptr,
                    size_t size, void **base, size_t *bytes)
{
    bool found = false;
    pthread_mutex_lock(&svm_lock);
    struct svm_allocation *a = svm_count ? svm_holding(ptr) : NULL;
    if (a && a->context == context &&
        refcl_range_inside((size_t)((const char *)ptr - a->base), size,
                           a->size)) {
        *base = a->base;
        *bytes = a->size;
        found = true;
    }
    pthread_mutex_unlock(&svm_lock);
    return found;
}

/* Remembers an allocation. @return false when out of memory. */
static bool svm_remember(char *base, size_t size,
                         const struct _cl_context *context)
{
    bool ok = true;
    pthread_mutex_lock(&svm_lock);
    if (svm_count == svm_capacity) {
        size_t capacity = svm_capacity ? 2 * svm_capacity : 16;
        struct svm_allocation *list =
            realloc(svm_list, capacity * sizeof(*list));
        ok = list != NULL;
        if (ok) {
            svm_list = list;
            svm_capacity = capacity;
        }
    }
    if (ok) {
        size_t i = svm_upper(base);
        memmove(&svm_list[i + 1], &svm_list[i],
                (svm_count - i) * sizeof(*svm_list));
        svm_list[i] = (struct svm_allocation){base, size, context};
        svm_count++;
    }
    pthread_mutex_unlock(&svm_lock);
    return ok;
}

/* Forgets the allocation of @p context starting at @p ptr. @return its
 * size, or 0 if there is none. */
static size_t svm_forget(const struct _cl_context *context, const void *ptr)
{
    size_t size = 0;
    pthread_mutex_lock(&svm_lock);
    size_t i = svm_count ? svm_upper(ptr) : 0;
    if (i > 0 && svm_list[i - 1].base == ptr &&
        svm_list[i - 1].context == context) {
        size = svm_list[i - 1].size;
        memmove(&svm_list[i - 1], &svm_list[i],
                (svm_count - i) * sizeof(*svm_list));
        svm_count--;
    }
    pthread_mutex_unlock(&svm_lock);
    return size;
}

void refcl_svm_teardown(void)
{
    for (size_t i = 0; i < svm_count; i++)
        refcl_storage_free(svm_list[i].base, svm_list[i].size);
    free(svm_list);
    svm_list = NULL;
    svm_count = svm_capacity = 0;
}

#define SVM_FLAGS                                                    \
    (REFCL_MEM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER |          \
     CL_MEM_SVM_ATOMICS)

/* clSVMAlloc "will fail if": "flags does not contain
 * CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain CL_MEM_SVM_ATOMICS",
 * "Values specified in flags do not follow rules described for supported
 * values in the SVM Memory Flags table", "CL_MEM_SVM_FINE_GRAIN_BUFFER or
 * CL_MEM_SVM_ATOMICS is specified in flags and these are not supported by
 * at least one device in context" (refcl has no SVM atomics), "size is 0
 * or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in context",
 * "alignment is not a power of two or the OpenCL implementation cannot
 * support the specified alignment". */
static cl_int svm_request_check(cl_svm_mem_flags flags, size_t size,
                                cl_uint alignment)
{
    if (!refcl_mem_flags_valid(flags, SVM_FLAGS))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if values "
                          "specified in flags do not follow rules described "
                          "for supported values\"", (unsigned long long)flags);
    if (flags & CL_MEM_SVM_ATOMICS)
        return REFCL_FAIL(CL_INVALID_VALUE, "CL_MEM_SVM_ATOMICS: \"not "
                          "supported by at least one device in context\"");
    if (size == 0 || size > refcl_max_mem_alloc_size())
        return REFCL_FAIL(CL_INVALID_VALUE, "size %zu: \"if size is 0 or > "
                          "CL_DEVICE_MAX_MEM_ALLOC_SIZE\" (%llu)", size,
                          (unsigned long long)refcl_max_mem_alloc_size());
    if ((alignment & (alignment - 1)) != 0 || alignment > SVM_ALIGN_MAX)
        return REFCL_FAIL(CL_INVALID_VALUE, "alignment %u: \"if alignment is "
                          "not a power of two or the OpenCL implementation "
                          "cannot support the specified alignment\"",
                          alignment);
    return CL_SUCCESS;
}

/* "Otherwise, like malloc, it returns a NULL pointer value": NULL is the
 * only way clSVMAlloc says anything, a bad context included (the trace
 * still shows why, with the code the spec would have had). */
void *CL_API_CALL refcl_clSVMAlloc(cl_context context, cl_svm_mem_flags flags,
                                   size_t size, cl_uint alignment)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT)) {
        refcl_invalid_handle(context, REFCL_CONTEXT);
        return NULL;
    }
    if (svm_request_check(flags, size, alignment) != CL_SUCCESS)
        return NULL;
    /* "If alignment is 0, a default alignment will be used that is equal
     * to the size of largest data type supported". */
    char *bytes = refcl_storage_alloc(size, alignment ? alignment
                                                      : SVM_ALIGN_MAX);
    if (bytes && !svm_remember(bytes, size, context)) {
        refcl_storage_free(bytes, size);
        bytes = NULL;
    }
    if (!bytes)
        (void)REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for %zu bytes",
                         size);
    return bytes;
}

/* "If a NULL pointer is passed in svm_pointer, no action occurs"; neither
 * for a context that is not one, nor for a pointer that is not an
 * allocation of it (undefined: refcl leaves memory it does not own
 * alone). */
void CL_API_CALL refcl_clSVMFree(cl_context context, void *svm_pointer)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT) || !svm_pointer)
        return;
    size_t size = svm_forget(context, svm_pointer);
    if (size)
        refcl_storage_free(svm_pointer, size);
}

/* ---- commands --------------------------------------------------------- */

/* CL_INVALID_COMMAND_QUEUE, then the wait list: the handles of every SVM
 * command. */
static cl_int svm_command_check(const struct _cl_command_queue *queue,
                                cl_uint num_events, const cl_event *wait_list)
{
    return refcl_command_check(queue, NULL, 0, num_events, wait_list);
}

/* A range that runs past the end of the address space cannot be memory. */
static bool range_wraps(const void *ptr, size_t size)
{
    uintptr_t end;
    return __builtin_add_overflow((uintptr_t)ptr, size, &end);
}

struct svm_free_command {
    cl_command_queue queue; /* what the callback is told */
    void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void **, void *);
    void *user_data;
    cl_uint count;
    void *pointers[];
};

static cl_int svm_free_run(void *payload, struct _cl_command_queue *queue)
{
    struct svm_free_command *f = payload;
    /* "If pfn_free_func is a valid callback function, the OpenCL
     * implementation will call pfn_free_func to free all the SVM pointers";
     * else it "will free these SVM pointers". */
    if (f->fn)
        f->fn(f->queue, f->count, f->pointers, f->user_data);
    else
        for (cl_uint i = 0; i < f->count; i++)
            refcl_clSVMFree(queue->context, f->pointers[i]);
    return CL_COMPLETE;
}

static const struct refcl_command_ops svm_free_ops = {
    .run = svm_free_run, .release = free};

cl_int CL_API_CALL refcl_clEnqueueSVMFree(
    cl_command_queue queue, cl_uint num_svm_pointers, void **svm_pointers,
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void **,
                                     void *),
    void *user_data, cl_uint num_events, const cl_event *wait_list,
    cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if num_svm_pointers is 0 and svm_pointers is
     * non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0". */
    if ((num_svm_pointers == 0) != (svm_pointers == NULL))
        return REFCL_FAIL(CL_INVALID_VALUE, "num_svm_pointers %u, "
                          "svm_pointers %s: \"if num_svm_pointers is 0 and "
                          "svm_pointers is non-NULL, or if svm_pointers is "
                          "NULL and num_svm_pointers is not 0\"",
                          num_svm_pointers, svm_pointers ? "non-NULL" : "NULL");
    /* "The memory associated with svm_pointers can be reused or freed after
     * the function returns": a copy. */
    struct svm_free_command *f =
        malloc(sizeof(*f) + num_svm_pointers * sizeof(void *));
    if (!f)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    *f = (struct svm_free_command){queue, pfn_free_func, user_data,
                                   num_svm_pointers};
    if (num_svm_pointers)
        memcpy(f->pointers, svm_pointers, num_svm_pointers * sizeof(void *));
    return refcl_mem_enqueue(queue, CL_COMMAND_SVM_FREE, CL_FALSE, num_events,
                             wait_list, event, &svm_free_ops, f);
}

cl_int CL_API_CALL refcl_clEnqueueSVMMemcpy(
    cl_command_queue queue, cl_bool blocking_copy, void *dst_ptr,
    const void *src_ptr, size_t size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if dst_ptr is NULL", "if src_ptr is NULL" (and
     * ranges past the end of the address space). */
    if (!dst_ptr || !src_ptr)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s NULL: \"if dst_ptr is NULL\", "
                          "\"if src_ptr is NULL\"",
                          dst_ptr ? "src_ptr" : "dst_ptr");
    if (range_wraps(dst_ptr, size) || range_wraps(src_ptr, size))
        return REFCL_FAIL(CL_INVALID_VALUE, "size %zu: past the end of the "
                          "address space", size);
    if (refcl_ranges_overlap((uintptr_t)dst_ptr, size, (uintptr_t)src_ptr,
                             size))
        return REFCL_FAIL(CL_MEM_COPY_OVERLAP, "\"if the values specified "
                          "for dst_ptr, src_ptr and size result in an "
                          "overlapping copy\"");
    return refcl_enqueue_copy(queue, CL_COMMAND_SVM_MEMCPY, blocking_copy,
                              NULL, NULL, dst_ptr, src_ptr, size, num_events,
                              wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueSVMMemFill(
    cl_command_queue queue, void *svm_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if svm_ptr is NULL", "if svm_ptr is not aligned to
     * pattern_size bytes", the pattern's rules, "if size is not a multiple
     * of pattern_size". */
    if (!svm_ptr)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "svm_ptr NULL: \"if svm_ptr is NULL\"");
    status = refcl_pattern_check(pattern, pattern_size);
    if (status != CL_SUCCESS)
        return status;
    if ((uintptr_t)svm_ptr % pattern_size)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if svm_ptr is not aligned to "
                          "pattern_size bytes\" (%zu)", pattern_size);
    if (size % pattern_size)
        return REFCL_FAIL(CL_INVALID_VALUE, "size %zu: \"if size is not a "
                          "multiple of pattern_size\" (%zu)", size,
                          pattern_size);
    if (range_wraps(svm_ptr, size))
        return REFCL_FAIL(CL_INVALID_VALUE, "size %zu: past the end of the "
                          "address space", size);
    return refcl_enqueue_fill(queue, CL_COMMAND_SVM_MEMFILL, NULL, svm_ptr,
                              pattern, pattern_size, size, num_events,
                              wait_list, event);
}

/* SVM map, unmap and migrate have nothing to do and nothing to hold. */
static const struct refcl_command_ops svm_order_ops = {
    .release = free, .on_caller = true};

static cl_int enqueue_order(struct _cl_command_queue *queue,
                            cl_command_type type, cl_bool blocking,
                            cl_uint num_events, const cl_event *wait_list,
                            cl_event *event)
{
    /* A payload of its own, so that the command is not a marker (the
     * executor orders a command without ops after everything before it). */
    void *payload = malloc(1);
    if (!payload)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    return refcl_mem_enqueue(queue, type, blocking, num_events, wait_list,
                             event, &svm_order_ops, payload);
}

cl_int CL_API_CALL refcl_clEnqueueSVMMap(
    cl_command_queue queue, cl_bool blocking_map, cl_map_flags map_flags,
    void *svm_ptr, size_t size, cl_uint num_events, const cl_event *wait_list,
    cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if svm_ptr is NULL", "if size is zero", "if values
     * specified in map_flags are not valid". "Note that since we are
     * enqueuing a command with a SVM buffer, the region is already mapped
     * in the host address space." */
    bool invalidate = map_flags & CL_MAP_WRITE_INVALIDATE_REGION;
    if (!svm_ptr)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "svm_ptr NULL: \"if svm_ptr is NULL\"");
    if (size == 0)
        return REFCL_FAIL(CL_INVALID_VALUE, "size 0: \"if size is zero\"");
    if (range_wraps(svm_ptr, size))
        return REFCL_FAIL(CL_INVALID_VALUE, "size %zu: past the end of the "
                          "address space", size);
    if ((map_flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE |
                                     CL_MAP_WRITE_INVALIDATE_REGION)) ||
        (invalidate && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return REFCL_FAIL(CL_INVALID_VALUE, "map_flags 0x%llX: \"if values "
                          "specified in map_flags are not valid\"",
                          (unsigned long long)map_flags);
    return enqueue_order(queue, CL_COMMAND_SVM_MAP, blocking_map, num_events,
                         wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueSVMUnmap(cl_command_queue queue,
                                           void *svm_ptr, cl_uint num_events,
                                           const cl_event *wait_list,
                                           cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    if (!svm_ptr)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "svm_ptr NULL: \"if svm_ptr is NULL\"");
    return enqueue_order(queue, CL_COMMAND_SVM_UNMAP, CL_FALSE, num_events,
                         wait_list, event);
}

/* CL_INVALID_VALUE "if sizes[i] is non-zero and the memory range described
 * by svm_pointers[i] and sizes[i] is not contained within an SVM
 * allocation returned by clSVMAlloc". */
static bool ranges_in_allocations(const struct _cl_context *context,
                                  cl_uint count, const void **pointers,
                                  const size_t *sizes)
{
    for (cl_uint i = 0; sizes && i < count; i++) {
        void *base;
        size_t bytes;
        if (sizes[i] &&
            !refcl_svm_find(context, pointers[i], sizes[i], &base, &bytes))
            return false;
    }
    return true;
}

cl_int CL_API_CALL refcl_clEnqueueSVMMigrateMem(
    cl_command_queue queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    cl_int status = svm_command_check(queue, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if num_svm_pointers is zero", "if svm_pointers is
     * NULL", "if flags is not zero and is not a valid combination of the
     * values described in the Memory migration Flags table", and ranges
     * outside the allocations. */
    if (num_svm_pointers == 0 || !svm_pointers)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s: \"if num_svm_pointers is "
                          "zero\", \"if svm_pointers is NULL\"",
                          svm_pointers ? "num_svm_pointers 0"
                                       : "svm_pointers NULL");
    if (flags & ~(cl_mem_migration_flags)(
                    CL_MIGRATE_MEM_OBJECT_HOST |
                    CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if flags is not "
                          "zero and is not a valid combination of the "
                          "values described in the Memory migration Flags "
                          "table\"", (unsigned long long)flags);
    if (!ranges_in_allocations(queue->context, num_svm_pointers, svm_pointers,
                               sizes))
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if sizes[i] is non-zero and "
                          "the memory range described by svm_pointers[i] "
                          "and sizes[i] is not contained within an SVM "
                          "allocation\"");
    return enqueue_order(queue, CL_COMMAND_SVM_MIGRATE_MEM, CL_FALSE,
                         num_events, wait_list, event);
}
