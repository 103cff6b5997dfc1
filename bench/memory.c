/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench's memory figures (bench/README.md): buffer creation, and
 * 64 MiB moved by clEnqueueCopyBuffer, by blocking writes and reads
 * between host memory and a buffer, and by a map and unmap, next to a
 * plain memcpy of the same bytes; a blocking 4-byte write. Each figure
 * makes its buffers before its samples and frees them after.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Bytes the copy and map figures move. */
#define BIG ((size_t)64 << 20)
/* Bytes of each buffer buffer.create-release makes. */
#define CREATED ((size_t)1 << 20)

static struct {
    cl_command_queue queue;             /* in order */
    cl_mem src, dst;                    /* BIG bytes each, written once */
    cl_mem mapped;                      /* BIG, CL_MEM_ALLOC_HOST_PTR */
    cl_mem small;                       /* the 4-byte write's target */
    unsigned char *host_src, *host_dst; /* BIG bytes each, touched */
} m;

/* A buffer written once, so that no figure pays for first-touch page
 * faults. */
static cl_int buffer_make(const struct bench *b, cl_mem_flags flags,
                          size_t size, cl_mem *mem)
{
    cl_int err;
    *mem = clCreateBuffer(b->context, flags, size, NULL, &err);
    const unsigned char zero = 0;
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(m.queue, *mem, &zero, 1, 0, size, 0, NULL,
                                  NULL);
    return err;
}

static cl_int memory_setup(const struct bench *b, int units)
{
    (void)units;
    cl_int err;
    m.queue = clCreateCommandQueueWithProperties(b->context, b->device, NULL,
                                                 &err);
    if (err == CL_SUCCESS)
        err = buffer_make(b, 0, BIG, &m.src);
    if (err == CL_SUCCESS)
        err = buffer_make(b, 0, BIG, &m.dst);
    if (err == CL_SUCCESS)
        err = buffer_make(b, CL_MEM_ALLOC_HOST_PTR, BIG, &m.mapped);
    if (err == CL_SUCCESS)
        err = buffer_make(b, 0, 4096, &m.small);
    if (err == CL_SUCCESS)
        err = clFinish(m.queue);
    m.host_src = malloc(BIG);
    m.host_dst = malloc(BIG);
    if (!m.host_src || !m.host_dst)
        return CL_OUT_OF_HOST_MEMORY;
    memset(m.host_src, 1, BIG);
    memset(m.host_dst, 2, BIG);
    return err;
}

static void memory_teardown(void)
{
    cl_mem mems[] = {m.src, m.dst, m.mapped, m.small};
    for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (m.queue)
        clReleaseCommandQueue(m.queue);
    free(m.host_src);
    free(m.host_dst);
    memset(&m, 0, sizeof(m));
}

/* What a single-threaded copy of the same bytes costs on this machine:
 * the bound copy-buffer.64m, write-buffer.64m and read-buffer.64m are held
 * to. */
static cl_int loop_memcpy(const struct bench *b, long n)
{
    (void)b;
    for (long i = 0; i < n; i++) {
        memcpy(m.host_dst, m.host_src, BIG);
        /* Keep the compiler from dropping the copy. */
        __asm__ volatile("" : : "r"(m.host_dst) : "memory");
    }
    return CL_SUCCESS;
}

static cl_int loop_copy_buffer(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++) {
        err = clEnqueueCopyBuffer(m.queue, m.src, m.dst, 0, 0, BIG, 0, NULL,
                                  NULL);
        if (err == CL_SUCCESS)
            err = clFinish(m.queue);
    }
    return err;
}

/* A blocking map of the whole buffer and its unmap, done. */
static cl_int loop_map_unmap(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++) {
        void *p = clEnqueueMapBuffer(m.queue, m.mapped, CL_TRUE,
                                     CL_MAP_READ | CL_MAP_WRITE, 0, BIG, 0,
                                     NULL, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueUnmapMemObject(m.queue, m.mapped, p, 0, NULL,
                                          NULL);
        if (err == CL_SUCCESS)
            err = clFinish(m.queue);
    }
    return err;
}

/* A blocking write of the whole CL_MEM_ALLOC_HOST_PTR buffer from host
 * memory, or a blocking read of it back: what clpeak's transfer figures
 * time, held to the same bound as a copy between buffers. */
static cl_int loop_write_big(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = clEnqueueWriteBuffer(m.queue, m.mapped, CL_TRUE, 0, BIG,
                                   m.host_src, 0, NULL, NULL);
    return err;
}

static cl_int loop_read_big(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = clEnqueueReadBuffer(m.queue, m.mapped, CL_TRUE, 0, BIG,
                                  m.host_dst, 0, NULL, NULL);
    return err;
}

/* Enqueue to return of a blocking 4-byte write. */
static cl_int loop_write_4(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    const cl_uint value = 42;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = clEnqueueWriteBuffer(m.queue, m.small, CL_TRUE, 0,
                                   sizeof(value), &value, 0, NULL, NULL);
    return err;
}

static cl_int nothing_setup(const struct bench *b, int units)
{
    (void)b;
    (void)units;
    return CL_SUCCESS;
}

static void nothing_teardown(void)
{
}

static cl_int loop_buffer(const struct bench *b, long n)
{
    for (long i = 0; i < n; i++) {
        cl_int err;
        cl_mem mem = clCreateBuffer(b->context, CL_MEM_READ_WRITE, CREATED,
                                    NULL, &err);
        if (err != CL_SUCCESS)
            return err;
        err = clReleaseMemObject(mem);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

const struct work bench_buffer_create = {nothing_setup, loop_buffer,
                                         nothing_teardown, 0, 0};
#define MEMORY_WORK(loop) {memory_setup, loop, memory_teardown, 0, 0}
const struct work bench_memcpy_64m = MEMORY_WORK(loop_memcpy);
const struct work bench_copy_buffer_64m = MEMORY_WORK(loop_copy_buffer);
const struct work bench_write_buffer_64m = MEMORY_WORK(loop_write_big);
const struct work bench_read_buffer_64m = MEMORY_WORK(loop_read_big);
const struct work bench_map_unmap_64m = MEMORY_WORK(loop_map_unmap);
const struct work bench_write_buffer_4b = MEMORY_WORK(loop_write_4);
