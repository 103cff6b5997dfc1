/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/map: clEnqueueMapBuffer and clEnqueueUnmapMemObject, zero-copy:
 * every map of a buffer points into the buffer itself (host_ptr + offset
 * for CL_MEM_USE_HOST_PTR), writes through the pointer are the buffer's
 * contents, sub-buffers map into their buffer. The map count, blocking and
 * non-blocking maps (a non-blocking map's pointer can be unmapped at once),
 * a failed wait list, the host-access flags, overlapping mappings for
 * writing, unmaps of pointers that are not mapped, and bad handles.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

#define ALIGN 128
#define RW (CL_MAP_READ | CL_MAP_WRITE)

static void *map(cl_mem mem, cl_map_flags flags, size_t offset, size_t size)
{
    cl_int err = 1;
    void *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, offset, size, 0,
                                 NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(p != NULL);
    return p;
}

/* clEnqueueMapBuffer must fail with @p expected. */
static void map_fails(cl_mem mem, cl_map_flags flags, size_t offset,
                      size_t size, cl_int expected)
{
    cl_int err = 1;
    cl_event event = (cl_event)1;
    CHECK(clEnqueueMapBuffer(queue, mem, CL_FALSE, flags, offset, size, 0,
                             NULL, &event, &err) == NULL);
    CHECK_EQ(err, expected);
    CHECK(event == (cl_event)1);
}

static void unmap(cl_mem mem, void *p)
{
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL),
             CL_SUCCESS);
}

static cl_uint map_count(cl_mem mem)
{
    cl_uint count = 99;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_MAP_COUNT, sizeof(count), &count,
                                NULL),
             CL_SUCCESS);
    return count;
}

static void check_zero_copy(void)
{
    cl_mem mem = test_buffer(context, CL_MEM_ALLOC_HOST_PTR, 4096, NULL);
    unsigned char *whole = map(mem, RW, 0, 4096);
    unsigned char *part = map(mem, CL_MAP_READ, 100, 50);
    /* One storage: every map points into it. */
    CHECK(part == whole + 100);
    CHECK_EQ(map_count(mem), 2);
    whole[120] = 0x42;
    CHECK_EQ(part[20], 0x42);
    unmap(mem, part);
    unmap(mem, whole);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(map_count(mem), 0);
    unsigned char b = 0;
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 120, 1, &b, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(b, 0x42);
    /* Mapped again: the same address, the same bytes. */
    unsigned char *again = map(mem, CL_MAP_READ, 0, 4096);
    CHECK(again == whole);
    unmap(mem, again);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);

    /* CL_MEM_USE_HOST_PTR: "derived from the host_ptr": host_ptr + offset,
     * at any alignment. */
    unsigned char host[300];
    cl_mem use = test_buffer(context, CL_MEM_USE_HOST_PTR, 290, host + 5);
    unsigned char *p = map(use, CL_MAP_WRITE_INVALIDATE_REGION, 17, 100);
    CHECK(p == host + 5 + 17);
    p[0] = 0x99;
    unmap(use, p);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(host[22], 0x99);

    /* Sub-buffers map into their buffer. */
    cl_buffer_region region = {2 * ALIGN, 30};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(use, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    unsigned char *s = map(sub, CL_MAP_READ, 4, 8);
    CHECK(s == host + 5 + 2 * ALIGN + 4);
    CHECK_EQ(map_count(sub), 1);
    CHECK_EQ(map_count(use), 0);
    /* An unmap names the object the pointer was mapped from. */
    CHECK_EQ(clEnqueueUnmapMemObject(queue, use, s, 0, NULL, NULL),
             CL_INVALID_VALUE);
    unmap(sub, s);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(use), CL_SUCCESS);
}

static void check_map_rules(void)
{
    cl_mem mem = test_buffer(context, 0, 1024, NULL);
    cl_event event;
    cl_int err;
    /* A non-blocking map's pointer is valid at once, and unmapped at once. */
    void *p = clEnqueueMapBuffer(queue, mem, CL_FALSE, CL_MAP_READ, 0, 16, 0,
                                 NULL, &event, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event unmapped;
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 1, &event, &unmapped),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &unmapped), CL_SUCCESS);
    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_MAP_BUFFER);
    CHECK_EQ(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof(type),
                            &type, NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_UNMAP_MEM_OBJECT);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(unmapped), CL_SUCCESS);

    /* CL_INVALID_VALUE "if the region being mapped specified by offset and
     * size is out of bounds", "if size is zero", "if values specified in
     * map_flags are not valid". */
    map_fails(mem, CL_MAP_READ, 1000, 25, CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_READ, 1024, 1, CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_READ, SIZE_MAX, 2, CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_READ, 2, SIZE_MAX, CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_READ, 0, 0, CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8,
              CL_INVALID_VALUE);
    map_fails(mem, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8,
              CL_INVALID_VALUE);
    map_fails(mem, 8, 0, 8, CL_INVALID_VALUE);
    CHECK_EQ(map_count(mem), 0);

    /* CL_INVALID_OPERATION "if mapping would lead to overlapping regions
     * being mapped for writing": two for writing; reads may overlap
     * anything. */
    void *r1 = map(mem, CL_MAP_READ, 0, 100);
    void *r2 = map(mem, CL_MAP_READ, 50, 100);
    void *r3 = map(mem, CL_MAP_READ, 0, 100);
    CHECK(r3 == r1);
    void *w = map(mem, CL_MAP_WRITE, 99, 101);
    map_fails(mem, CL_MAP_WRITE, 199, 2, CL_INVALID_OPERATION);
    map_fails(mem, CL_MAP_WRITE_INVALIDATE_REGION, 0, 100,
              CL_INVALID_OPERATION);
    map_fails(mem, RW, 150, 1, CL_INVALID_OPERATION);
    void *after = map(mem, CL_MAP_WRITE_INVALIDATE_REGION, 200, 10);
    void *r4 = map(mem, CL_MAP_READ, 195, 10);
    CHECK_EQ(map_count(mem), 6);
    unmap(mem, r4);
    unmap(mem, after);
    /* The same pointer mapped twice is unmapped twice. */
    unmap(mem, r1);
    unmap(mem, r3);
    /* CL_INVALID_VALUE "if mapped_ptr is not a valid pointer returned by
     * clEnqueueMapBuffer ... for memobj": never mapped, or unmapped. */
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, r1, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, (char *)r2 + 1, 0, NULL,
                                     NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, NULL, 0, NULL, NULL),
             CL_INVALID_VALUE);
    unsigned char stack;
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, &stack, 0, NULL, NULL),
             CL_INVALID_VALUE);
    /* The pointer of another buffer. */
    cl_mem other = test_buffer(context, 0, 64, NULL);
    void *o = map(other, CL_MAP_READ, 0, 64);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, o, 0, NULL, NULL),
             CL_INVALID_VALUE);
    unmap(other, o);
    unmap(mem, r2);
    unmap(mem, w);
    CHECK_EQ(map_count(mem), 0);
    /* Once unmapped, the region may be mapped for writing. */
    w = map(mem, CL_MAP_WRITE, 0, 1024);
    unmap(mem, w);

    /* Sub-buffers and their buffer share the rule. */
    cl_buffer_region region = {ALIGN, ALIGN};
    cl_mem sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    void *sw = map(sub, CL_MAP_WRITE, 0, 10);
    map_fails(mem, CL_MAP_WRITE, ALIGN + 9, 1, CL_INVALID_OPERATION);
    void *before = map(mem, CL_MAP_WRITE, 0, ALIGN);
    unmap(mem, before);
    unmap(sub, sw);
    /* A buffer released while mapped: the mapping goes with it. */
    (void)map(sub, CL_MAP_WRITE, 0, 8);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    w = map(mem, CL_MAP_WRITE, 0, 1024);
    unmap(mem, w);
    (void)map(other, CL_MAP_WRITE, 0, 8);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(other), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

static void check_host_access_and_failures(void)
{
    const struct {
        cl_mem_flags flags;
        cl_int read, write;
    } cases[] = {
        {CL_MEM_HOST_WRITE_ONLY, CL_INVALID_OPERATION, CL_SUCCESS},
        {CL_MEM_HOST_READ_ONLY, CL_SUCCESS, CL_INVALID_OPERATION},
        {CL_MEM_HOST_NO_ACCESS, CL_INVALID_OPERATION, CL_INVALID_OPERATION},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cl_mem mem = test_buffer(context, cases[i].flags, 64, NULL);
        const cl_map_flags reads[] = {CL_MAP_READ, RW};
        const cl_map_flags writes[] = {CL_MAP_WRITE,
                                       CL_MAP_WRITE_INVALIDATE_REGION};
        for (int k = 0; k < 2; k++) {
            cl_int err = 1;
            void *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, reads[k], 0, 8,
                                         0, NULL, NULL, &err);
            cl_int expected = cases[i].read;
            if (reads[k] & CL_MAP_WRITE && cases[i].write)
                expected = cases[i].write;
            CHECK_EQ(err, expected);
            if (p)
                unmap(mem, p);
            err = 1;
            p = clEnqueueMapBuffer(queue, mem, CL_TRUE, writes[k], 0, 8, 0,
                                   NULL, NULL, &err);
            CHECK_EQ(err, cases[i].write);
            if (p)
                unmap(mem, p);
        }
        CHECK_EQ(clFinish(queue), CL_SUCCESS);
        CHECK_EQ(map_count(mem), 0);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }

    /* A blocking map whose wait list failed: the error, no pointer, and
     * nothing left mapped. */
    cl_mem mem = test_buffer(context, 0, 64, NULL);
    cl_int err;
    cl_event failed = clCreateUserEvent(context, &err);
    CHECK_EQ(clSetUserEventStatus(failed, -3), CL_SUCCESS);
    err = 1;
    CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE, 0, 64, 1,
                             &failed, NULL, &err) == NULL);
    CHECK_EQ(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(map_count(mem), 0);
    void *w = map(mem, CL_MAP_WRITE, 0, 64);
    unmap(mem, w);
    /* An unmap waits for its list like any command. */
    w = map(mem, CL_MAP_WRITE, 0, 64);
    cl_event event;
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, w, 1, &failed, &event),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(failed), CL_SUCCESS);
    CHECK_EQ(map_count(mem), 0);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

static void check_bad_handles(void)
{
    cl_mem mem = test_buffer(context, 0, 64, NULL);
    cl_mem released = test_buffer(context, 0, 64, NULL);
    CHECK_EQ(clReleaseMemObject(released), CL_SUCCESS);
    void *p = map(mem, CL_MAP_READ, 0, 8);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, context);
    for (int i = 0; i < count; i++) {
        map_fails(bad[i], CL_MAP_READ, 0, 8, CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clEnqueueUnmapMemObject(queue, bad[i], p, 0, NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
    }
    count = test_bad_handles(bad, released, context, mem);
    for (int i = 0; i < count; i++) {
        cl_int err = 1;
        CHECK(clEnqueueMapBuffer(bad[i], mem, CL_TRUE, CL_MAP_READ, 0, 8, 0,
                                 NULL, NULL, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueUnmapMemObject(bad[i], mem, p, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    }
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem alien = clCreateBuffer(other, 0, 64, NULL, &err);
    map_fails(alien, CL_MAP_READ, 0, 8, CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, alien, p, 0, NULL, NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 1, NULL, NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(map_count(mem), 1);
    /* errcode_ret may be NULL. */
    CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL,
                             NULL, NULL) == NULL);
    unmap(mem, p);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(alien), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    check_zero_copy();
    check_map_rules();
    check_host_access_and_failures();
    check_bad_handles();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
