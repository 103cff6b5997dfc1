/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A kernel that writes past the end of its buffer: OpenCL leaves the result
 * undefined, but the application must survive it (memory/storage.c).
 * Like piglit's bswap and clz-optimizations, small buffers are written by
 * more work-items than they hold, 64 bytes past their end: the in-bounds
 * values are right, and releasing the buffers and using the host's heap
 * afterwards does not abort (with buffers in malloc's blocks, the overrun
 * overwrote the heap's metadata: "free(): invalid size"). A kernel that
 * writes past the last block of a chunk of storage meets a guard page: its
 * event ends with an error, and the queue goes on.
 */
#include "../compiler/exec.h"

static const char source[] =
    "kernel void bswap(global uint *data)\n"
    "{\n"
    "    uint i = (uint)get_global_id(0);\n"
    "    data[i] = as_uint(as_uchar4(i * 0x01020304u).wzyx);\n"
    "}\n"
    "kernel void fill(global uint *data, uint value)\n"
    "{\n"
    "    data[get_global_id(0)] = value;\n"
    "}\n";

#define SMALL_BUFFERS 16
#define SMALL_WORDS 16     /* 64 bytes */
#define OVERRUN_WORDS 32   /* 64 bytes past the end */

static cl_uint byte_swapped(cl_uint i)
{
    return __builtin_bswap32(i * 0x01020304u);
}

static void run(cl_kernel kernel, size_t items)
{
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
}

/* Small buffers overrun by 64 bytes each, side by side. */
static void small_overruns(cl_program program)
{
    cl_kernel kernel = exec_kernel(program, "bswap");
    cl_mem buffers[SMALL_BUFFERS];
    for (int b = 0; b < SMALL_BUFFERS; b++) {
        buffers[b] = exec_buffer(SMALL_WORDS * sizeof(cl_uint), NULL);
        CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffers[b]),
                 CL_SUCCESS);
        run(kernel, OVERRUN_WORDS);
    }
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    for (int b = 0; b < SMALL_BUFFERS; b++) {
        cl_uint got[SMALL_WORDS];
        exec_read(buffers[b], sizeof(got), got);
        for (cl_uint i = 0; i < SMALL_WORDS; i++)
            CHECK_EQ(got[i], byte_swapped(i));
        CHECK_EQ(clReleaseMemObject(buffers[b]), CL_SUCCESS);
    }
    /* The host's heap still works. */
    for (int round = 0; round < 1000; round++) {
        void *p = malloc((size_t)(round % 200) + 1);
        CHECK(p != NULL);
        free(p);
    }
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

/* The last block of a chunk of 32 KiB blocks, written 4 KiB past its end:
 * the guard page. Buffers made with COPY_HOST_PTR get their storage at
 * once, in order, each in the lowest free block of the chunk. */
static void guard_page(cl_program program)
{
    if (exec_under_valgrind()) {
        printf("the guard page: not under valgrind, which reports the "
               "fault itself\n");
        return;
    }
    enum { BLOCK = 32 * 1024, BLOCKS = 32 };
    static cl_uint host[BLOCK / sizeof(cl_uint)];
    cl_mem buffers[BLOCKS];
    for (int b = 0; b < BLOCKS; b++)
        buffers[b] = exec_buffer(BLOCK, host);
    cl_kernel kernel = exec_kernel(program, "fill");
    cl_uint value = 7;
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffers[BLOCKS - 1]),
             CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(value), &value), CL_SUCCESS);
    size_t items = (BLOCK + 4096) / sizeof(cl_uint);
    cl_event event;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &items, NULL, 0,
                                    NULL, &event),
             CL_SUCCESS);
    CHECK(clWaitForEvents(1, &event) != CL_SUCCESS);
    cl_int status = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_OUT_OF_RESOURCES);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    /* The queue goes on: the same kernel within the buffer. */
    items = BLOCK / sizeof(cl_uint);
    run(kernel, items);
    cl_uint last = 0;
    CHECK_EQ(clEnqueueReadBuffer(queue, buffers[BLOCKS - 1], CL_TRUE,
                                 BLOCK - sizeof(last), sizeof(last), &last, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(last, 7u);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    for (int b = 0; b < BLOCKS; b++)
        CHECK_EQ(clReleaseMemObject(buffers[b]), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "");
    if (program) {
        small_overruns(program);
        guard_page(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    return TEST_RESULT();
}
