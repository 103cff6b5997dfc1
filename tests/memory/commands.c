/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/commands: clEnqueueReadBuffer, clEnqueueWriteBuffer,
 * clEnqueueCopyBuffer, clEnqueueFillBuffer and clEnqueueMigrateMemObjects:
 * the bytes they move (copies and fills large enough to be cut over the
 * compute units too), blocking and not, in-order and out-of-order queues,
 * wait lists (a failed one fails the command and leaves the buffer
 * untouched), command types, profiling, the host-access flags, bounds and
 * size_t overflows, copy overlap (a buffer with itself, with its
 * sub-buffers, sub-buffers with each other), other contexts and bad
 * handles.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;  /* in order */
static cl_command_queue ooo;    /* out of order, profiling */

#define ALIGN 128

static void release(cl_mem mem)
{
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

static cl_event user_event(void)
{
    cl_int err = 1;
    cl_event event = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return event;
}

static cl_int status_of(cl_event event)
{
    cl_int status = 99;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    return status;
}

static cl_command_type type_of(cl_event event)
{
    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    return type;
}

/* Fills @p n bytes at @p p with a pattern keyed by @p seed. */
static void pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31 + seed + (i >> 12));
}

static int matches(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 31 + seed + (i >> 12)))
            return 0;
    return 1;
}

static void read_all(cl_mem mem, void *dst, size_t n)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n, dst, 0, NULL,
                                 NULL),
             CL_SUCCESS);
}

static void write_all(cl_mem mem, const void *src, size_t n)
{
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, n, src, 0, NULL,
                                  NULL),
             CL_SUCCESS);
}

/* ---- read and write --------------------------------------------------- */

static void check_read_write(void)
{
    unsigned char in[1000], out[1000];
    cl_mem mem = test_buffer(context, 0, sizeof(in), NULL);
    pattern(in, sizeof(in), 1);
    write_all(mem, in, sizeof(in));
    memset(out, 0, sizeof(out));
    read_all(mem, out, sizeof(out));
    CHECK(matches(out, sizeof(out), 1));

    /* Offsets, non-blocking with an event. */
    cl_event w = NULL, r = NULL;
    unsigned char piece[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 990, 10, piece, 0,
                                  NULL, &w),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_FALSE, 985, 15, out, 1, &w,
                                 &r),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &r), CL_SUCCESS);
    CHECK_EQ(status_of(w), CL_COMPLETE);
    CHECK_EQ(type_of(w), CL_COMMAND_WRITE_BUFFER);
    CHECK_EQ(type_of(r), CL_COMMAND_READ_BUFFER);
    CHECK_EQ(out[4], in[989]);
    CHECK_EQ(out[5], 1);
    CHECK_EQ(out[14], 10);
    CHECK_EQ(clReleaseEvent(w), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(r), CL_SUCCESS);

    /* Size 0 is an empty command: the 3.0 spec names no error for it. */
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 1000, 0, out, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 0, in, 0, NULL,
                                  NULL),
             CL_SUCCESS);

    /* CL_INVALID_VALUE "if the region being read or written specified by
     * offset and size is out of bounds", "if ptr is NULL". */
    const struct {
        size_t offset, size;
    } out_of_bounds[] = {{0, 1001}, {1000, 1}, {1001, 0}, {999, 2},
                         {SIZE_MAX, 2}, {2, SIZE_MAX}, {SIZE_MAX, SIZE_MAX}};
    for (size_t i = 0; i < sizeof(out_of_bounds) / sizeof(out_of_bounds[0]);
         i++) {
        CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE,
                                     out_of_bounds[i].offset,
                                     out_of_bounds[i].size, out, 0, NULL,
                                     NULL),
                 CL_INVALID_VALUE);
        CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE,
                                      out_of_bounds[i].offset,
                                      out_of_bounds[i].size, in, 0, NULL,
                                      NULL),
                 CL_INVALID_VALUE);
    }
    cl_event event = (cl_event)1;
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_FALSE, 0, 4, NULL, 0, NULL,
                                 &event),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 4, NULL, 0, NULL,
                                  &event),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 0, NULL, 0, NULL,
                                  &event),
             CL_INVALID_VALUE);
    /* "If ... the enqueue is unsuccessful, no event will be created". */
    CHECK(event == (cl_event)1);
    release(mem);
}

/* CL_INVALID_OPERATION for reads of CL_MEM_HOST_WRITE_ONLY and
 * CL_MEM_HOST_NO_ACCESS buffers and writes to CL_MEM_HOST_READ_ONLY and
 * CL_MEM_HOST_NO_ACCESS ones; copies and fills ignore the flags. */
static void check_host_access(void)
{
    unsigned char b[16] = {0};
    const struct {
        cl_mem_flags flags;
        cl_int read, write;
    } cases[] = {
        {0, CL_SUCCESS, CL_SUCCESS},
        {CL_MEM_HOST_WRITE_ONLY, CL_INVALID_OPERATION, CL_SUCCESS},
        {CL_MEM_HOST_READ_ONLY, CL_SUCCESS, CL_INVALID_OPERATION},
        {CL_MEM_HOST_NO_ACCESS, CL_INVALID_OPERATION, CL_INVALID_OPERATION},
    };
    cl_mem plain = test_buffer(context, 0, 16, NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cl_mem mem = test_buffer(context, cases[i].flags, 16, NULL);
        CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 16, b, 0, NULL,
                                     NULL),
                 cases[i].read);
        CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 16, b, 0, NULL,
                                      NULL),
                 cases[i].write);
        /* Bounds come first: CL_INVALID_VALUE is listed before. */
        CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 17, b, 0, NULL,
                                     NULL),
                 CL_INVALID_VALUE);
        CHECK_EQ(clEnqueueCopyBuffer(queue, plain, mem, 0, 0, 16, 0, NULL,
                                     NULL),
                 CL_SUCCESS);
        CHECK_EQ(clEnqueueCopyBuffer(queue, mem, plain, 0, 0, 16, 0, NULL,
                                     NULL),
                 CL_SUCCESS);
        CHECK_EQ(clEnqueueFillBuffer(queue, mem, b, 4, 0, 16, 0, NULL, NULL),
                 CL_SUCCESS);
        release(mem);
    }
    release(plain);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

/* Small writes from two threads into one in-order queue while a third
 * keeps calling clFinish: a write run on its caller's thread must still
 * wake a clFinish waiting for it, and the worker for a write enqueued
 * behind it meanwhile (a missed wake-up hangs here). */
#define RACE_WRITES 2000

struct racer {
    cl_mem mem;
    cl_uint slot;
    /* What each write sends: a non-blocking write reads its bytes when it
     * runs, so they must outlive the loop. */
    cl_uint values[RACE_WRITES];
};

static void *race_writes(void *arg)
{
    struct racer *r = arg;
    for (cl_uint i = 0; i < RACE_WRITES; i++) {
        r->values[i] = i + 1;
        CHECK_EQ(clEnqueueWriteBuffer(queue, r->mem, CL_FALSE,
                                      r->slot * sizeof(cl_uint),
                                      sizeof(cl_uint), &r->values[i], 0, NULL,
                                      NULL),
                 CL_SUCCESS);
    }
    return NULL;
}

static void *race_finish(void *arg)
{
    (void)arg;
    for (int i = 0; i < RACE_WRITES; i++)
        CHECK_EQ(clFinish(queue), CL_SUCCESS);
    return NULL;
}

static void check_small_from_threads(void)
{
    cl_uint host[2] = {0, 0};
    cl_mem mem = test_buffer(context, CL_MEM_USE_HOST_PTR, sizeof(host), host);
    static struct racer racers[2];
    racers[0].mem = racers[1].mem = mem;
    racers[1].slot = 1;
    pthread_t threads[3];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, race_writes, &racers[i]),
                 0);
    CHECK_EQ(pthread_create(&threads[2], NULL, race_finish, NULL), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(host[0], RACE_WRITES);
    CHECK_EQ(host[1], RACE_WRITES);
    release(mem);
}

/* ---- wait lists ------------------------------------------------------- */

/* A small write on an idle in-order queue is done when the enqueue returns
 * (refcl does it on the calling thread); behind a pending command it waits
 * its turn like any other. */
static void check_small_on_caller(void)
{
    unsigned char host[64];
    memset(host, 0, sizeof(host));
    cl_mem mem = test_buffer(context, CL_MEM_USE_HOST_PTR, sizeof(host), host);
    unsigned char src[64];
    memset(src, 0x5a, sizeof(src));
    cl_event write;
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 64, src, 0, NULL,
                                  &write),
             CL_SUCCESS);
    CHECK_EQ(status_of(write), CL_COMPLETE);
    CHECK_EQ(host[63], 0x5a);
    CHECK_EQ(clReleaseEvent(write), CL_SUCCESS);

    cl_event gate = user_event();
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 1, &gate, NULL), CL_SUCCESS);
    memset(src, 0x6b, sizeof(src));
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 64, src, 0, NULL,
                                  &write),
             CL_SUCCESS);
    usleep(20 * 1000);
    CHECK_EQ(status_of(write), CL_QUEUED);
    CHECK_EQ(host[0], 0x5a);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &write), CL_SUCCESS);
    CHECK_EQ(host[0], 0x6b);
    CHECK_EQ(clReleaseEvent(write), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
    release(mem);
}

static void check_wait_lists(void)
{
    unsigned char host[64];
    memset(host, 0, sizeof(host));
    cl_mem mem = test_buffer(context, CL_MEM_USE_HOST_PTR, sizeof(host), host);
    unsigned char src[64];
    memset(src, 0xab, sizeof(src));

    /* A command waits for its list. */
    cl_event gate = user_event(), write;
    CHECK_EQ(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, 64, src, 1, &gate,
                                  &write),
             CL_SUCCESS);
    usleep(20 * 1000);
    CHECK_EQ(host[0], 0);
    CHECK_EQ(status_of(write), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &write), CL_SUCCESS);
    CHECK_EQ(host[63], 0xab);
    CHECK_EQ(clReleaseEvent(write), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);

    /* A failed wait list: the blocking command returns the error, the
     * non-blocking one's event carries it; neither touches the buffer. */
    memset(src, 0x11, sizeof(src));
    cl_event failed = user_event();
    CHECK_EQ(clSetUserEventStatus(failed, -7), CL_SUCCESS);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 64, src, 1, &failed,
                                  NULL),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    unsigned char out[64];
    memset(out, 0x33, sizeof(out));
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 64, out, 1, &failed,
                                 NULL),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(out[0], 0x33);
    cl_event copy, fill, w;
    cl_mem other = test_buffer(context, CL_MEM_COPY_HOST_PTR, 64, src);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 64, src, 1,
                                  &failed, &w),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueCopyBuffer(queue, other, mem, 0, 0, 64, 1, &failed,
                                 &copy),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, src, 1, 0, 64, 1, &failed,
                                 &fill),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(status_of(w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(status_of(copy), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(status_of(fill), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    for (int i = 0; i < 64; i++)
        CHECK_EQ(host[i], 0xab);
    cl_event events[] = {w, copy, fill, failed};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(clReleaseEvent(events[i]), CL_SUCCESS);

    /* Wait-list errors: after the handles, before the values. */
    cl_int err;
    cl_context foreign = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event alien = clCreateUserEvent(foreign, &err);
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 64, out, 1, &alien,
                                 NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 64, out, 1, NULL,
                                 NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 65, src, 0, &alien,
                                  NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, src, 3, 0, 64, 1,
                                 (cl_event *)&mem, NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clReleaseEvent(alien), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(foreign), CL_SUCCESS);
    release(other);
    release(mem);
}

/* ---- copy ------------------------------------------------------------- */

static cl_int copy(cl_mem src, cl_mem dst, size_t src_offset,
                   size_t dst_offset, size_t size)
{
    return clEnqueueCopyBuffer(queue, src, dst, src_offset, dst_offset, size,
                               0, NULL, NULL);
}

static void check_copy(void)
{
    unsigned char in[4096], out[4096];
    pattern(in, sizeof(in), 5);
    cl_mem a = test_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem b = test_buffer(context, 0, sizeof(in), NULL);
    cl_event event;
    CHECK_EQ(clEnqueueCopyBuffer(queue, a, b, 0, 0, sizeof(in), 0, NULL,
                                 &event),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    CHECK_EQ(type_of(event), CL_COMMAND_COPY_BUFFER);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    read_all(b, out, sizeof(out));
    CHECK(matches(out, sizeof(out), 5));
    CHECK_EQ(copy(a, b, 100, 3000, 50), CL_SUCCESS);
    CHECK_EQ(copy(a, b, 0, 0, 0), CL_SUCCESS);
    CHECK_EQ(copy(a, b, 4096, 4096, 0), CL_SUCCESS);
    read_all(b, out, sizeof(out));
    CHECK_EQ(out[3000], in[100]);
    CHECK_EQ(out[3049], in[149]);
    CHECK_EQ(out[3050], in[3050]);

    /* CL_INVALID_VALUE out of bounds of either buffer, overflows too. */
    CHECK_EQ(copy(a, b, 4000, 0, 97), CL_INVALID_VALUE);
    CHECK_EQ(copy(a, b, 0, 4000, 97), CL_INVALID_VALUE);
    CHECK_EQ(copy(a, b, SIZE_MAX, 0, 2), CL_INVALID_VALUE);
    CHECK_EQ(copy(a, b, 0, 2, SIZE_MAX), CL_INVALID_VALUE);

    /* CL_MEM_COPY_OVERLAP within one buffer; adjacent is fine. */
    CHECK_EQ(copy(a, a, 0, 100, 101), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(a, a, 100, 0, 101), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(a, a, 10, 10, 1), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(a, a, 0, 100, 100), CL_SUCCESS);
    CHECK_EQ(copy(a, a, 10, 10, 0), CL_SUCCESS);
    read_all(a, out, sizeof(out));
    CHECK(memcmp(out + 100, in, 100) == 0);

    /* Sub-buffers: with their buffer when the bytes overlap, with each
     * other when the sub-buffers overlap. */
    cl_mem s1 = test_sub_buffer(a, 0, ALIGN, 2 * ALIGN);     /* [128, 384) */
    cl_mem s2 = test_sub_buffer(a, 0, 2 * ALIGN, 2 * ALIGN); /* [256, 512) */
    cl_mem s3 = test_sub_buffer(a, 0, 8 * ALIGN, ALIGN);     /* [1024, 1152) */
    CHECK_EQ(copy(s1, a, 0, 100, 29), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(s1, a, 0, 100, 28), CL_SUCCESS);
    CHECK_EQ(copy(a, s1, 300, 0, 10), CL_SUCCESS);
    CHECK_EQ(copy(a, s1, 128, 0, 10), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(s1, s2, 0, 200, 10), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(s1, s3, 0, 0, 10), CL_SUCCESS);
    CHECK_EQ(copy(s1, s1, 0, 5, 10), CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy(s1, s1, 0, 10, 10), CL_SUCCESS);
    CHECK_EQ(copy(s3, b, 0, 0, ALIGN), CL_SUCCESS);
    CHECK_EQ(copy(s3, b, 0, 0, ALIGN + 1), CL_INVALID_VALUE);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    release(s1);
    release(s2);
    release(s3);
    release(a);
    release(b);
}

/* Copies large enough to be cut into pieces over the compute units: every
 * byte arrives, none past the end. */
static void check_large_copy(void)
{
    const size_t size = (size_t)9 << 20; /* not a multiple of a piece */
    const size_t n = size - 4093;
    unsigned char *in = malloc(size), *out = malloc(size);
    pattern(in, size, 9);
    cl_mem a = test_buffer(context, CL_MEM_COPY_HOST_PTR, size, in);
    cl_mem b = test_buffer(context, 0, size, NULL);
    CHECK_EQ(copy(a, b, 3, 1, n), CL_SUCCESS);
    read_all(b, out, size);
    CHECK_EQ(out[0], 0);
    CHECK(memcmp(out + 1, in + 3, n) == 0);
    CHECK_EQ(out[n + 1], 0);
    /* A large fill with a 16-byte pattern. */
    unsigned char p16[16];
    for (int i = 0; i < 16; i++)
        p16[i] = (unsigned char)(0xc0 + i);
    CHECK_EQ(clEnqueueFillBuffer(queue, b, p16, 16, 16, size - 32, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    read_all(b, out, size);
    CHECK_EQ(out[15], in[17]);
    int ok = 1;
    for (size_t i = 16; i < size - 16; i++)
        ok &= out[i] == 0xc0 + (i % 16);
    CHECK(ok);
    CHECK_EQ(out[size - 16], 0);
    free(in);
    free(out);
    release(a);
    release(b);
}

/* ---- fill ------------------------------------------------------------- */

static void check_fill(void)
{
    unsigned char out[1024];
    cl_mem mem = test_buffer(context, 0, sizeof(out), NULL);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char p[128];
        for (size_t i = 0; i < ps; i++)
            p[i] = (unsigned char)(ps + i + 1);
        unsigned char zero = 0;
        CHECK_EQ(clEnqueueFillBuffer(queue, mem, &zero, 1, 0, sizeof(out), 0,
                                     NULL, NULL),
                 CL_SUCCESS);
        cl_event event;
        CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, ps, 2 * ps, 4 * ps, 0,
                                     NULL, &event),
                 CL_SUCCESS);
        /* "The memory associated with pattern can be reused or freed after
         * the function returns." */
        memset(p, 0xee, sizeof(p));
        CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        CHECK_EQ(type_of(event), CL_COMMAND_FILL_BUFFER);
        CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
        read_all(mem, out, sizeof(out));
        int ok = 1;
        for (size_t i = 0; i < sizeof(out); i++) {
            bool in = i >= 2 * ps && i < 6 * ps;
            ok &= out[i] == (in ? (unsigned char)(ps + i % ps + 1) : 0);
        }
        if (!ok)
            fprintf(stderr, "fill with a %zu-byte pattern\n", ps);
        CHECK(ok);
        /* CL_INVALID_VALUE "if offset is not a multiple of pattern_size",
         * "if size is not a multiple of pattern_size". */
        if (ps > 1) {
            CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, ps, ps / 2, ps, 0,
                                         NULL, NULL),
                     CL_INVALID_VALUE);
            CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, ps, 0, ps + ps / 2, 0,
                                         NULL, NULL),
                     CL_INVALID_VALUE);
        }
    }
    unsigned char p[256] = {0};
    /* The pattern's rules: not NULL, a power of two from 1 to 128. */
    const size_t bad_sizes[] = {0, 3, 6, 12, 256, SIZE_MAX};
    for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++)
        CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, bad_sizes[i], 0, 0, 0,
                                     NULL, NULL),
                 CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, NULL, 4, 0, 4, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, 4, 1024, 4, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, 4, SIZE_MAX - 3, 8, 0, NULL,
                                 NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, p, 4, 1024, 0, 0, NULL, NULL),
             CL_SUCCESS);
    release(mem);
}

/* ---- migrate ---------------------------------------------------------- */

static void check_migrate(void)
{
    cl_mem a = test_buffer(context, 0, 64, NULL),
           b = test_buffer(context, 0, 64, NULL);
    cl_mem both[] = {a, b};
    const cl_mem_migration_flags flags[] = {
        0, CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
    for (int i = 0; i < 4; i++) {
        cl_event event;
        CHECK_EQ(clEnqueueMigrateMemObjects(queue, 2, both, flags[i], 0, NULL,
                                            &event),
                 CL_SUCCESS);
        CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        CHECK_EQ(type_of(event), CL_COMMAND_MIGRATE_MEM_OBJECTS);
        CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    }
    /* Moves nothing: the contents stay. */
    const unsigned char answer = 42;
    unsigned char v = 0;
    CHECK_EQ(clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, 1, &answer, 0, NULL,
                                  NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 1, &a,
                                        CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL,
                                        NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, 1, &v, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(v, 42);
    /* CL_INVALID_VALUE "if num_mem_objects is zero or if mem_objects is
     * NULL", "if flags is not 0 or is not any of the values". */
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 1, NULL, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 2, both, 4, 0, NULL, NULL),
             CL_INVALID_VALUE);
    cl_mem released = test_buffer(context, 0, 8, NULL);
    release(released);
    cl_mem with_bad[] = {a, released};
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 2, with_bad, 0, 0, NULL, NULL),
             CL_INVALID_MEM_OBJECT);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem alien = clCreateBuffer(other, 0, 8, NULL, &err);
    cl_mem with_alien[] = {alien, a};
    CHECK_EQ(clEnqueueMigrateMemObjects(queue, 2, with_alien, 0, 0, NULL,
                                        NULL),
             CL_INVALID_CONTEXT);
    release(alien);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    release(a);
    release(b);
}

/* ---- queues: out of order, profiling ---------------------------------- */

static cl_ulong profile(cl_event event, cl_profiling_info name)
{
    cl_ulong t = 0;
    CHECK_EQ(clGetEventProfilingInfo(event, name, sizeof(t), &t, NULL),
             CL_SUCCESS);
    return t;
}

static void check_out_of_order(void)
{
    unsigned char in[256], out[256];
    pattern(in, sizeof(in), 3);
    cl_mem a = test_buffer(context, 0, sizeof(in), NULL),
           b = test_buffer(context, 0, 256, NULL);
    cl_event gate = user_event(), w, c, r;
    /* A chain through wait lists on an out-of-order queue: write (gated),
     * copy after the write, read after the copy. */
    CHECK_EQ(clEnqueueWriteBuffer(ooo, a, CL_FALSE, 0, 256, in, 1, &gate, &w),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueCopyBuffer(ooo, a, b, 0, 0, 256, 1, &w, &c),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(ooo, b, CL_FALSE, 0, 256, out, 1, &c, &r),
             CL_SUCCESS);
    usleep(10 * 1000);
    CHECK_EQ(status_of(r), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &r), CL_SUCCESS);
    CHECK(matches(out, sizeof(out), 3));
    /* Profiling: four ordered timestamps on each command. */
    cl_event chain[] = {w, c, r};
    for (int i = 0; i < 3; i++) {
        cl_ulong q = profile(chain[i], CL_PROFILING_COMMAND_QUEUED);
        cl_ulong s = profile(chain[i], CL_PROFILING_COMMAND_SUBMIT);
        cl_ulong st = profile(chain[i], CL_PROFILING_COMMAND_START);
        cl_ulong e = profile(chain[i], CL_PROFILING_COMMAND_END);
        CHECK(q <= s && s <= st && st <= e);
        if (i)
            CHECK(profile(chain[i - 1], CL_PROFILING_COMMAND_END) <= st);
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clReleaseEvent(chain[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
    /* A blocking command on an out-of-order queue. */
    memset(out, 0, sizeof(out));
    CHECK_EQ(clEnqueueReadBuffer(ooo, b, CL_TRUE, 0, 256, out, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK(matches(out, sizeof(out), 3));
    release(a);
    release(b);
}

/* ---- other contexts and bad handles ------------------------------------ */

static void check_bad_handles(void)
{
    unsigned char b[16] = {0};
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem alien = clCreateBuffer(other, 0, 16, NULL, &err);
    cl_mem mem = test_buffer(context, 0, 16, NULL);
    /* CL_INVALID_CONTEXT "if the context associated with command_queue and
     * buffer are not the same". */
    CHECK_EQ(clEnqueueReadBuffer(queue, alien, CL_TRUE, 0, 16, b, 0, NULL,
                                 NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueWriteBuffer(queue, alien, CL_TRUE, 0, 16, b, 0, NULL,
                                  NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(copy(alien, mem, 0, 0, 16), CL_INVALID_CONTEXT);
    CHECK_EQ(copy(mem, alien, 0, 0, 16), CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueFillBuffer(queue, alien, b, 1, 0, 16, 0, NULL, NULL),
             CL_INVALID_CONTEXT);

    cl_mem released = test_buffer(context, 0, 16, NULL);
    release(released);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, context);
    for (int i = 0; i < count; i++) {
        CHECK_EQ(clEnqueueReadBuffer(queue, bad[i], CL_TRUE, 0, 16, b, 0,
                                     NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clEnqueueWriteBuffer(queue, bad[i], CL_TRUE, 0, 16, b, 0,
                                      NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(copy(bad[i], mem, 0, 0, 16), CL_INVALID_MEM_OBJECT);
        CHECK_EQ(copy(mem, bad[i], 0, 0, 16), CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clEnqueueFillBuffer(queue, bad[i], b, 1, 0, 16, 0, NULL,
                                     NULL),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clEnqueueMigrateMemObjects(queue, 1, (cl_mem *)&bad[i], 0, 0,
                                            NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
    }
    release(alien);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    cl_command_queue gone = clCreateCommandQueueWithProperties(
        context, device, NULL, &err);
    CHECK_EQ(clReleaseCommandQueue(gone), CL_SUCCESS);
    count = test_bad_handles(bad, gone, context, mem);
    for (int i = 0; i < count; i++) {
        CHECK_EQ(clEnqueueReadBuffer(bad[i], mem, CL_TRUE, 0, 16, b, 0, NULL,
                                     NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueWriteBuffer(bad[i], mem, CL_TRUE, 0, 16, b, 0, NULL,
                                      NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueCopyBuffer(bad[i], mem, mem, 0, 8, 8, 0, NULL,
                                     NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueFillBuffer(bad[i], mem, b, 1, 0, 16, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueMigrateMemObjects(bad[i], 1, &mem, 0, 0, NULL,
                                            NULL),
                 CL_INVALID_COMMAND_QUEUE);
    }
    release(mem);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    cl_int err;
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    ooo = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_read_write();
    check_host_access();
    check_small_on_caller();
    check_small_from_threads();
    check_wait_lists();
    check_copy();
    check_large_copy();
    check_fill();
    check_migrate();
    check_out_of_order();
    check_bad_handles();
    CHECK_EQ(clReleaseCommandQueue(ooo), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
