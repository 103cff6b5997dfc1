/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/globals: OpenCL C 3.0 program-scope variables
 * (__opencl_c_program_scope_global_variables). Initializers read back; a
 * kernel's writes seen by another kernel and by later enqueues; a
 * function-scope static counting its calls; __global variables read across
 * a barrier; two programs of one source (the second one a hit of the build
 * cache) with a copy each; CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
 * exact; an extern variable defined in another unit of clCompileProgram
 * and clLinkProgram; a binary that carries the initial values; a variable
 * of CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes. Every value is checked
 * against the host's. Skipped (77) where the device reports no compiler.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CL3 "-cl-std=CL3.0"
#define GROUPS 8
#define LOCAL 64

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* Every variable is written by set() and read by get(), the record at an
 * index the compiler does not know, so the optimizer keeps them all whole:
 * 4 + 16 + 2 * 16 + 8 + 4 * GROUPS + 4 (calls) bytes of __global
 * variables; the __constant table does not count. */
static const char source[] =
    "typedef struct { char c; long l; } record;\n"
    "global int counter = 3;\n"
    "float4 vec = (float4)(1.5f, -2.0f, 0.25f, 8.0f);\n" /* global */
    "global record rec[2] = {{'x', 1234567890123L}};\n"
    "global int *global ptr = &counter;\n"
    "global int slots[8];\n"
    "constant int table[4] = {10, 20, 30, 40};\n"
    "kernel void get(global long *out)\n"
    "{\n"
    "    out[0] = counter; out[1] = vec.x * 4; out[2] = vec.y * 4;\n"
    "    size_t i = get_global_id(0);\n" /* 0, unknown to the compiler */
    "    out[3] = vec.z * 4; out[4] = vec.w * 4; out[5] = rec[i].c;\n"
    "    out[6] = rec[i].l; out[7] = *ptr; out[8] = ptr == &counter;\n"
    "    for (int i = 0; i < 8; i++) out[9 + i] = slots[i];\n"
    "    out[17] = table[counter & 3];\n"
    "}\n"
    "kernel void set(int c, float f, long l)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    counter = c; vec = (float4)(f); rec[i].c = 'y'; rec[i].l = l;\n"
    "    ptr = &slots[1];\n"
    "}\n"
    /* Every work-item adds its id to its group's slot: atomics, as any
     * other work-group may run at once. */
    "kernel void add(void)\n"
    "{\n"
    "    atomic_add(&slots[get_group_id(0)], (int)get_local_id(0));\n"
    "}\n"
    "kernel void calls(global int *out)\n"
    "{\n"
    "    static int calls = 100;\n"
    "    out[0] = calls++;\n"
    "}\n"
    /* Work-item 0 of each group writes the group's slot, the others read
     * it after the barrier: a load of __global memory is never one value
     * for the group before the barrier has been passed. */
    "kernel void relay(global int *out)\n"
    "{\n"
    "    size_t g = get_group_id(0), l = get_local_id(0);\n"
    "    int before = slots[g];\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    if (l == 0) slots[g] = before + 1000 * (int)g + 7;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = slots[g] - before;\n"
    "}\n";
#define SOURCE_GLOBAL_BYTES (4 + 16 + 2 * 16 + 8 + 4 * GROUPS + 4)

static cl_program build(const char *text, const char *options)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    CHECK_EQ(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                              sizeof(log), log, NULL);
        fprintf(stderr, "build log:\n%s\n", log);
    }
    return program;
}

/* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, both halves. */
static size_t global_bytes(cl_program program)
{
    size_t bytes = 0, size = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, device,
                                   CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   0, NULL, &size), CL_SUCCESS);
    CHECK_EQ(size, sizeof(size_t));
    CHECK_EQ(clGetProgramBuildInfo(program, device,
                                   CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof(bytes), &bytes, NULL), CL_SUCCESS);
    return bytes;
}

static cl_mem buffer(size_t size)
{
    cl_int err = 1;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return mem;
}

/* Runs kernel @p name of @p program over @p global work-items (groups of
 * @p local, 0 to let refcl choose), its argument 0 @p out when not NULL. */
static void run(cl_program program, const char *name, cl_mem out,
                size_t global, size_t local)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (out)
        CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(out), &out), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                    local ? &local : NULL, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(kernel);
}

/* get()'s 18 values. */
static void get(cl_program program, cl_long values[18])
{
    cl_mem out = buffer(18 * sizeof(cl_long));
    run(program, "get", out, 1, 0);
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                 18 * sizeof(cl_long), values, 0, NULL,
                                 NULL), CL_SUCCESS);
    clReleaseMemObject(out);
}

static void check_initial(cl_program program)
{
    cl_long v[18];
    get(program, v);
    const cl_long want[18] = {3, 6, -8, 1, 32, 'x', 1234567890123LL, 3, 1,
                              0, 0, 0, 0, 0, 0, 0, 0, 40};
    for (int i = 0; i < 18; i++)
        CHECK_EQ(v[i], want[i]);
}

static void set(cl_program program, cl_int c, cl_float f, cl_long l)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, "set", &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(c), &c), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(f), &f), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(l), &l), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(kernel);
}

/* set() writes, get() (another kernel, a later enqueue) reads; add()
 * sums each group's local ids into its slot, twice. */
static void check_written(cl_program program)
{
    set(program, 41, 0.5f, -77);
    run(program, "add", NULL, GROUPS * LOCAL, LOCAL);
    run(program, "add", NULL, GROUPS * LOCAL, LOCAL);
    cl_long v[18];
    get(program, v);
    const cl_long sum = 2 * (LOCAL * (LOCAL - 1) / 2);
    const cl_long want[9] = {41, 2, 2, 2, 2, 'y', -77, sum, 0};
    for (int i = 0; i < 9; i++)
        CHECK_EQ(v[i], want[i]);
    for (int i = 0; i < GROUPS; i++)
        CHECK_EQ(v[9 + i], sum);
    CHECK_EQ(v[17], 20); /* table[41 & 3] */
}

/* The static's value goes on from enqueue to enqueue. */
static void check_static(cl_program program)
{
    cl_mem out = buffer(sizeof(cl_int));
    for (cl_int i = 0; i < 3; i++) {
        cl_int value = 0;
        run(program, "calls", out, 1, 0);
        CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(value),
                                     &value, 0, NULL, NULL), CL_SUCCESS);
        CHECK_EQ(value, 100 + i);
    }
    clReleaseMemObject(out);
}

/* relay(): every work-item sees its group's new slot after the barrier,
 * whatever the slot held. */
static void check_barrier(cl_program program)
{
    cl_mem out = buffer(GROUPS * LOCAL * sizeof(cl_int));
    for (int round = 0; round < 2; round++) {
        run(program, "relay", out, GROUPS * LOCAL, LOCAL);
        cl_int got[GROUPS * LOCAL];
        CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(got),
                                     got, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < GROUPS * LOCAL; i++)
            CHECK_EQ(got[i], 1000 * (i / LOCAL) + 7);
    }
    clReleaseMemObject(out);
}

/* Storage is the program's: two programs of one source (the second a hit
 * of the build cache, identical bytes) keep a copy each. */
static void check_two_programs(void)
{
    cl_program first = build(source, CL3);
    cl_program second = build(source, CL3);
    CHECK_EQ(global_bytes(first), SOURCE_GLOBAL_BYTES);
    check_initial(first);
    check_written(first);
    check_static(first);
    check_barrier(first);
    check_initial(second);
    check_static(second);
    clReleaseProgram(second);
    /* A rebuild starts again from the initializers. */
    CHECK_EQ(clBuildProgram(first, 1, &device, CL3, NULL, NULL), CL_SUCCESS);
    check_initial(first);
    clReleaseProgram(first);
}

/* The binary holds the initializers, not what kernels wrote since; the
 * program made from it has its own copy and the same size. */
static void check_binary(void)
{
    cl_program program = build(source, CL3);
    set(program, 9, 1.0f, 9);
    size_t size = 0;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size),
                              &size, NULL), CL_SUCCESS);
    unsigned char *bytes = malloc(size);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(bytes),
                              &bytes, NULL), CL_SUCCESS);
    cl_int status = 1, err = 1;
    const unsigned char *in = bytes;
    cl_program copy = clCreateProgramWithBinary(context, 1, &device, &size,
                                                &in, &status, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(status, CL_SUCCESS);
    CHECK_EQ(clBuildProgram(copy, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(global_bytes(copy), SOURCE_GLOBAL_BYTES);
    check_initial(copy);
    check_written(copy);
    cl_long v[18];
    get(program, v);
    CHECK_EQ(v[0], 9);
    free(bytes);
    clReleaseProgram(copy);
    clReleaseProgram(program);
}

/* The size counts what the executable holds: a variable no kernel uses
 * is gone and one never written is folded into its readers, unless
 * optimization is off (-cl-opt-disable). (And one accessed only at
 * offsets known at compile time may be split into the parts used: the
 * other tests index at run time.) */
static void check_sizes(void)
{
    static const char text[] =
        "global int unused[100];\n"
        "global int never_written = 5;\n"
        "global short used[10];\n"
        "constant int ignored[1000] = {1};\n"
        "kernel void k(global int *o)\n"
        "{ used[o[2]] = o[0] + never_written + ignored[o[3]]; o[1] = used[3]; }\n";
    cl_program program = build(text, CL3);
    CHECK_EQ(global_bytes(program), 20);
    clReleaseProgram(program);
    program = build(text, CL3 " -cl-opt-disable");
    CHECK_EQ(global_bytes(program), 400 + 4 + 20);
    clReleaseProgram(program);
    /* No __global variables, and OpenCL C 1.2, which has none. */
    program = build("kernel void k(global int *o) { *o = 1; }", NULL);
    CHECK_EQ(global_bytes(program), 0);
    clReleaseProgram(program);
}

/* An extern variable and function defined in another unit: clLinkProgram
 * makes one variable of them. */
static void check_link(void)
{
    static const char *units[2] = {
        "global int shared_value = 42;\n"
        "global long other[3] = {1, 2, 3};\n"
        "int shared(int i) { return shared_value + (int)other[i]++; }\n",
        "extern global int shared_value;\n"
        "int shared(int i);\n"
        "kernel void k(global int *out)\n"
        "{ out[0] = shared(out[0]); shared_value += 10;"
        " out[1] = shared_value; }\n"};
    cl_program objects[2];
    for (int i = 0; i < 2; i++) {
        cl_int err = 1;
        objects[i] = clCreateProgramWithSource(context, 1, &units[i], NULL,
                                               &err);
        CHECK_EQ(err, CL_SUCCESS);
        CHECK_EQ(clCompileProgram(objects[i], 1, &device, CL3, 0, NULL, NULL,
                                  NULL, NULL), CL_SUCCESS);
    }
    cl_int err = 1;
    cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, objects,
                                      NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(global_bytes(linked), 4 + 24);
    cl_mem out = buffer(2 * sizeof(cl_int));
    for (int i = 0; i < 2; i++) {
        cl_int got[2] = {2, 0};
        CHECK_EQ(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof(got),
                                      got, 0, NULL, NULL), CL_SUCCESS);
        run(linked, "k", out, 1, 0);
        CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(got),
                                     got, 0, NULL, NULL), CL_SUCCESS);
        CHECK_EQ(got[0], 45 + 11 * i); /* other[2]++ too */
        CHECK_EQ(got[1], 52 + 10 * i);
    }
    clReleaseMemObject(out);
    clReleaseProgram(linked);
    for (int i = 0; i < 2; i++)
        clReleaseProgram(objects[i]);
}

/* One variable of CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes builds, and its
 * first and last bytes keep what a kernel wrote (the rest, never touched,
 * takes no memory). */
static void check_largest(void)
{
    size_t max = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
                             sizeof(max), &max, NULL), CL_SUCCESS);
    char text[512];
    snprintf(text, sizeof(text),
             "global uchar big[%zu];\n"
             "kernel void ends(global uchar *out)\n"
             "{ size_t i = get_global_id(0); big[i] = 1; big[i + %zu] = 2;"
             " out[0] = big[i]; out[1] = big[i + %zu];"
             " out[2] = big[i + %zu / 2]; }\n",
             max, max - 1, max - 1, max);
    cl_program program = build(text, CL3);
    CHECK_EQ(global_bytes(program), max);
    cl_mem out = buffer(3);
    run(program, "ends", out, 1, 0);
    unsigned char got[3] = {9, 9, 9};
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 3, got, 0, NULL,
                                 NULL), CL_SUCCESS);
    CHECK_EQ(got[0], 1);
    CHECK_EQ(got[1], 2);
    CHECK_EQ(got[2], 0);
    clReleaseMemObject(out);
    clReleaseProgram(program);
}

/* OpenCL C 1.2 has program-scope variables only in __constant. */
static void check_cl12(void)
{
    const char *text = "global int x; kernel void k(void) { x = 1; }";
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL,
                                                   &err);
    CHECK_EQ(clBuildProgram(program, 1, &device, NULL, NULL, NULL),
             CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(program);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_bool compiler = CL_FALSE;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE,
                             sizeof(compiler), &compiler, NULL), CL_SUCCESS);
    if (!compiler) {
        fprintf(stderr, "the device reports no compiler\n");
        return TEST_SKIP;
    }
    if (!test_context_queue(device, 0, &context, &queue))
        return 1;
    check_two_programs();
    check_binary();
    check_sizes();
    check_link();
    check_largest();
    check_cl12();
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return TEST_RESULT();
}
