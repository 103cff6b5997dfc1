/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/svm: shared virtual memory on a CPU. The capabilities refcl
 * reports; clSVMAlloc's flags, sizes and alignments, clSVMFree; buffers
 * over SVM memory (CL_MEM_USES_SVM_POINTER, CL_INVALID_BUFFER_SIZE past the
 * allocation); clEnqueueSVMFree with and without a callback,
 * clEnqueueSVMMemcpy, clEnqueueSVMMemFill, clEnqueueSVMMap and Unmap,
 * clEnqueueSVMMigrateMem, with their command types and every error.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_ulong max_alloc;

static cl_command_type type_of(cl_event event)
{
    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    return type;
}

/* Waits for @p event, checks its type, releases it. */
static void done(cl_event event, cl_command_type type)
{
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    CHECK_EQ(type_of(event), type);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
}

static void check_capabilities(void)
{
    cl_device_svm_capabilities caps = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
                             &caps, NULL),
             CL_SUCCESS);
    CHECK_EQ(caps, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                       CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                       CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
}

static void check_alloc(void)
{
    /* "If alignment is 0, a default alignment ... equal to the size of
     * largest data type supported": long16. */
    char *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 1000, 0);
    CHECK(p != NULL);
    CHECK_EQ((uintptr_t)p % 128, 0);
    p[0] = 1;
    p[999] = 2;
    clSVMFree(context, p);
    for (cl_uint a = 1; a <= 128; a *= 2) {
        p = clSVMAlloc(context, 0, 3, a);
        CHECK(p != NULL);
        CHECK_EQ((uintptr_t)p % a, 0);
        clSVMFree(context, p);
    }
    const cl_svm_mem_flags good[] = {
        CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_SVM_FINE_GRAIN_BUFFER,
        CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        p = clSVMAlloc(context, good[i], 64, 0);
        CHECK(p != NULL);
        clSVMFree(context, p);
    }
    /* "clSVMAlloc will fail if": atomics without fine grain, atomics (not
     * supported), flags against the table, size 0 or over the maximum,
     * alignments that are not powers of two or too large, a bad context. */
    const cl_svm_mem_flags bad[] = {
        CL_MEM_SVM_ATOMICS,
        CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_USE_HOST_PTR,
        CL_MEM_HOST_NO_ACCESS,
        (cl_svm_mem_flags)1 << 40,
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK(clSVMAlloc(context, bad[i], 64, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, 0, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, (size_t)max_alloc + 1, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, SIZE_MAX, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 3) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 256) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 0x80000000u) == NULL);
    CHECK(clSVMAlloc((cl_context)queue, 0, 64, 0) == NULL);
    /* "If a NULL pointer is passed in svm_pointer, no action occurs";
     * neither for a bad context. */
    clSVMFree(context, NULL);
    p = clSVMAlloc(context, 0, 64, 0);
    clSVMFree((cl_context)queue, p);
    p[63] = 1; /* still there */
    clSVMFree(context, p);
    /* A large allocation costs nothing until touched. */
    p = clSVMAlloc(context, 0, (size_t)64 << 20, 0);
    CHECK(p != NULL);
    p[((size_t)64 << 20) - 1] = 3;
    clSVMFree(context, p);
}

static cl_bool uses_svm(cl_mem mem)
{
    cl_bool value = 7;
    size_t size = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof(value),
                                &value, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(value));
    return value;
}

static void check_buffers_over_svm(void)
{
    char *svm = clSVMAlloc(context, 0, 4096, 0);
    cl_int err = 1;
    cl_mem whole = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, svm,
                                  &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(uses_svm(whole), CL_TRUE);
    /* The buffer is the SVM memory. */
    void *mapped = clEnqueueMapBuffer(queue, whole, CL_TRUE, CL_MAP_READ, 64,
                                      8, 0, NULL, NULL, &err);
    CHECK(mapped == svm + 64);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, whole, mapped, 0, NULL, NULL),
             CL_SUCCESS);
    /* Its sub-buffers too. */
    cl_buffer_region region = {128, 64};
    cl_mem sub = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    CHECK_EQ(uses_svm(sub), CL_TRUE);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    /* Inside the allocation; past its end: CL_INVALID_BUFFER_SIZE "if
     * CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set in flags, and
     * host_ptr is a pointer returned by clSVMAlloc, and size is greater
     * than the size passed to clSVMAlloc". */
    cl_mem inner = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 96, svm + 4000,
                                  &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(uses_svm(inner), CL_TRUE);
    CHECK_EQ(clReleaseMemObject(inner), CL_SUCCESS);
    CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4097, svm, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
    CHECK(clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 97, svm + 4000,
                         &err) == NULL);
    CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
    /* A copy of SVM memory is not SVM memory; neither is malloc's. */
    cl_mem copy = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 64, svm, &err);
    CHECK_EQ(uses_svm(copy), CL_FALSE);
    CHECK_EQ(clReleaseMemObject(copy), CL_SUCCESS);
    char *heap = malloc(64);
    cl_mem plain = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 64, heap, &err);
    CHECK_EQ(uses_svm(plain), CL_FALSE);
    CHECK_EQ(clReleaseMemObject(plain), CL_SUCCESS);
    free(heap);
    /* Another context's SVM memory is not this one's. */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem alien = clCreateBuffer(other, CL_MEM_USE_HOST_PTR, 4096, svm, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(uses_svm(alien), CL_FALSE);
    CHECK_EQ(clReleaseMemObject(alien), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(whole), CL_SUCCESS);
    clSVMFree(context, svm);
}

static void check_memcpy_fill(void)
{
    unsigned char *svm = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                    1024, 0);
    unsigned char host[1024];
    for (int i = 0; i < 1024; i++)
        host[i] = (unsigned char)i;
    cl_event event;
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_FALSE, svm, host, 1024, 0, NULL,
                                &event),
             CL_SUCCESS);
    done(event, CL_COMMAND_SVM_MEMCPY);
    CHECK_EQ(svm[1023], 255);
    /* Within one allocation, and from SVM to the host. */
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm + 512, svm, 512, 0, NULL,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(svm[512 + 7], 7);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm + 512, 1, 0, NULL,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(host[0], 0);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm, 0, 0, NULL, NULL),
             CL_SUCCESS);
    /* CL_MEM_COPY_OVERLAP; CL_INVALID_VALUE for NULL pointers and ranges
     * past the end of the address space. */
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm + 1, svm, 2, 0, NULL,
                                NULL),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm, svm, 1, 0, NULL, NULL),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, svm, 1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm, NULL, 1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm, host, SIZE_MAX, 0, NULL,
                                NULL),
             CL_INVALID_VALUE);

    /* Fill: every pattern size; svm_ptr aligned to it. */
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char pattern[128];
        for (size_t i = 0; i < ps; i++)
            pattern[i] = (unsigned char)(0x80 + i);
        CHECK_EQ(clEnqueueSVMMemFill(queue, svm + 128, pattern, ps, 4 * ps, 0,
                                     NULL, &event),
                 CL_SUCCESS);
        done(event, CL_COMMAND_SVM_MEMFILL);
        int ok = 1;
        for (size_t i = 0; i < 4 * ps; i++)
            ok &= svm[128 + i] == 0x80 + i % ps;
        CHECK(ok);
        if (ps > 1)
            CHECK_EQ(clEnqueueSVMMemFill(queue, svm + 1, pattern, ps, ps, 0,
                                         NULL, NULL),
                     CL_INVALID_VALUE);
        if (ps > 1)
            CHECK_EQ(clEnqueueSVMMemFill(queue, svm, pattern, ps, ps + 1, 0,
                                         NULL, NULL),
                     CL_INVALID_VALUE);
    }
    unsigned char pattern[256] = {0};
    const size_t bad_sizes[] = {0, 3, 256};
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clEnqueueSVMMemFill(queue, svm, pattern, bad_sizes[i], 0, 0,
                                     NULL, NULL),
                 CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMemFill(queue, NULL, pattern, 1, 1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMemFill(queue, svm, NULL, 1, 1, 0, NULL, NULL),
             CL_INVALID_VALUE);

    /* A failed wait list leaves the memory alone. */
    cl_int err;
    cl_event failed = clCreateUserEvent(context, &err);
    CHECK_EQ(clSetUserEventStatus(failed, -2), CL_SUCCESS);
    unsigned char before = svm[0];
    CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm, host + 512, 1, 1,
                                &failed, NULL),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(clEnqueueSVMMemFill(queue, svm, pattern, 1, 1, 1, &failed,
                                 &event),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(svm[0], before);
    CHECK_EQ(clReleaseEvent(failed), CL_SUCCESS);

    /* Fine-grain system SVM: any host memory. */
    unsigned char *heap = malloc(64);
    CHECK_EQ(clEnqueueSVMMemFill(queue, heap, pattern, 1, 64, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(heap[63], 0);
    free(heap);
    clSVMFree(context, svm);
}

static void check_map_migrate(void)
{
    char *svm = clSVMAlloc(context, 0, 4096, 0);
    cl_event event;
    CHECK_EQ(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_WRITE, svm, 4096, 0, NULL,
                             &event),
             CL_SUCCESS);
    done(event, CL_COMMAND_SVM_MAP);
    svm[5] = 5;
    CHECK_EQ(clEnqueueSVMUnmap(queue, svm, 0, NULL, &event), CL_SUCCESS);
    done(event, CL_COMMAND_SVM_UNMAP);
    CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, 1, 0, NULL,
                             NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL), CL_SUCCESS);
    /* CL_INVALID_VALUE "if svm_ptr is NULL", "if size is zero", "if values
     * specified in map_flags are not valid". */
    CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, NULL, 1, 0, NULL,
                             NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, 0, 0, NULL,
                             NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE, 16, svm, 1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE,
                             CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, svm,
                             1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMUnmap(queue, NULL, 0, NULL, NULL), CL_INVALID_VALUE);

    const void *ptrs[] = {svm, svm + 100};
    const size_t sizes[] = {4096, 0};
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, sizes, 0, 0, NULL,
                                    &event),
             CL_SUCCESS);
    done(event, CL_COMMAND_SVM_MIGRATE_MEM);
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, NULL,
                                    CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL),
             CL_SUCCESS);
    /* CL_INVALID_VALUE "if num_svm_pointers is zero", "if svm_pointers is
     * NULL", bad flags, "if sizes[i] is non-zero and the memory range ...
     * is not contained within an SVM allocation". */
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 0, ptrs, NULL, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 1, NULL, NULL, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, 8, 0, NULL, NULL),
             CL_INVALID_VALUE);
    const size_t too_big[] = {4097, 0};
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, too_big, 0, 0, NULL,
                                    NULL),
             CL_INVALID_VALUE);
    const size_t overflow[] = {1, SIZE_MAX};
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 2, ptrs, overflow, 0, 0, NULL,
                                    NULL),
             CL_INVALID_VALUE);
    int stack;
    const void *not_svm[] = {&stack};
    const size_t one[] = {1};
    CHECK_EQ(clEnqueueSVMMigrateMem(queue, 1, not_svm, one, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    clSVMFree(context, svm);
}

/* ---- clEnqueueSVMFree -------------------------------------------------- */

static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static int freed_calls;
static cl_command_queue freed_queue;
static void *freed[4];
static cl_uint freed_count;

static void CL_CALLBACK free_func(cl_command_queue q, cl_uint n, void **ptrs,
                                  void *user_data)
{
    pthread_mutex_lock(&free_lock);
    freed_calls += user_data == &freed_calls;
    freed_queue = q;
    freed_count = n;
    for (cl_uint i = 0; i < n && i < 4; i++)
        freed[i] = ptrs[i];
    pthread_mutex_unlock(&free_lock);
    for (cl_uint i = 0; i < n; i++)
        clSVMFree(context, ptrs[i]);
}

static void check_enqueue_free(void)
{
    void *a = clSVMAlloc(context, 0, 64, 0), *b = clSVMAlloc(context, 0, 64, 0);
    void *list[] = {a, b};
    cl_event event;
    CHECK_EQ(clEnqueueSVMFree(queue, 2, list, free_func, &freed_calls, 0, NULL,
                              &event),
             CL_SUCCESS);
    /* "The memory associated with svm_pointers can be reused". */
    list[0] = list[1] = NULL;
    done(event, CL_COMMAND_SVM_FREE);
    pthread_mutex_lock(&free_lock);
    CHECK_EQ(freed_calls, 1);
    CHECK(freed_queue == queue);
    CHECK_EQ(freed_count, 2);
    CHECK(freed[0] == a && freed[1] == b);
    pthread_mutex_unlock(&free_lock);
    /* Without a callback refcl frees them itself. */
    void *c = clSVMAlloc(context, 0, 64, 0);
    CHECK_EQ(clEnqueueSVMFree(queue, 1, &c, NULL, NULL, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 0, NULL, NULL),
             CL_SUCCESS);
    /* CL_INVALID_VALUE "if num_svm_pointers is 0 and svm_pointers is
     * non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0". */
    CHECK_EQ(clEnqueueSVMFree(queue, 0, list, NULL, NULL, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueSVMFree(queue, 1, NULL, NULL, NULL, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

static void check_bad_handles(void)
{
    char *svm = clSVMAlloc(context, 0, 64, 0);
    unsigned char pattern = 0;
    const void *ptrs[] = {svm};
    cl_int err;
    cl_context gone_context = clCreateContext(NULL, 1, &device, NULL, NULL,
                                              &err);
    cl_command_queue gone = clCreateCommandQueueWithProperties(
        gone_context, device, NULL, &err);
    CHECK_EQ(clReleaseCommandQueue(gone), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, gone, context, device);
    for (int i = 0; i < count; i++) {
        CHECK_EQ(clEnqueueSVMFree(bad[i], 0, NULL, NULL, NULL, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueSVMMemcpy(bad[i], CL_TRUE, svm, svm + 8, 8, 0, NULL,
                                    NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueSVMMemFill(bad[i], svm, &pattern, 1, 8, 0, NULL,
                                     NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueSVMMap(bad[i], CL_TRUE, CL_MAP_READ, svm, 8, 0, NULL,
                                 NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueSVMUnmap(bad[i], svm, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueSVMMigrateMem(bad[i], 1, ptrs, NULL, 0, 0, NULL,
                                        NULL),
                 CL_INVALID_COMMAND_QUEUE);
    }
    /* Wait lists: bad events, events of another context. */
    cl_event alien = clCreateUserEvent(gone_context, &err);
    cl_event *lists[] = {NULL, &alien};
    const cl_int expected[] = {CL_INVALID_EVENT_WAIT_LIST,
                               CL_INVALID_CONTEXT};
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 1, lists[i],
                                  NULL),
                 expected[i]);
        CHECK_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, svm, svm + 8, 8, 1,
                                    lists[i], NULL),
                 expected[i]);
        CHECK_EQ(clEnqueueSVMMemFill(queue, svm, &pattern, 1, 8, 1, lists[i],
                                     NULL),
                 expected[i]);
        CHECK_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, 8, 1,
                                 lists[i], NULL),
                 expected[i]);
        CHECK_EQ(clEnqueueSVMUnmap(queue, svm, 1, lists[i], NULL),
                 expected[i]);
        CHECK_EQ(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, 0, 1, lists[i],
                                        NULL),
                 expected[i]);
    }
    CHECK_EQ(clReleaseEvent(alien), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(gone_context), CL_SUCCESS);
    clSVMFree(context, svm);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                             sizeof(max_alloc), &max_alloc, NULL),
             CL_SUCCESS);
    check_capabilities();
    check_alloc();
    check_buffers_over_svm();
    check_memcpy_fill();
    check_map_migrate();
    check_enqueue_free();
    check_bad_handles();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
