/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/async: async_work_group_copy, async_work_group_strided_copy,
 * wait_group_events and prefetch of refcl-builtins.bc in kernels run by the
 * runtime (the copies are collective: every work-item of a group calls
 * them and waits). For scalar and vector types, including a 3-vector
 * (stored as 4 elements): a strided read of global memory into __local, a
 * rewrite of the tile by other work-items than those that copied it, a
 * contiguous copy out; then a contiguous read and a strided write. Counts
 * smaller than the group, equal to it, twice it and not a multiple of it
 * (the library shares a copy of at least the group's size between the
 * work-items and gives the rest to the first), in 2-D and 3-D groups and
 * in a range whose last groups are smaller (OpenCL C 3.0), checked
 * against host C.
 */
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define GROUPS 8
#define STRIDE 3
#define MAX_COUNT 37

/* Each kernel: out1[g][i] = 2 * in[g][i * STRIDE] (strided in, contiguous
 * out), out2[g][i * STRIDE] = in[g][i] + 1 (contiguous in, strided out),
 * where g is the group and i < count; a tile is reversed by the
 * work-items between copies so that a copy not waited for shows. */
static const char source[] =
    "#define STRIDE 3\n"
    "#define ASYNC(T) \\\n"
    "kernel void async_##T(global const T *in, global T *out1, global T *out2, \\\n"
    "                      local T *tile, uint count) \\\n"
    "{ \\\n"
    "    size_t g = get_group_id(0) + get_num_groups(0) * \\\n"
    "        (get_group_id(1) + get_num_groups(1) * get_group_id(2)); \\\n"
    "    size_t l = get_local_id(0) + get_local_size(0) * \\\n"
    "        (get_local_id(1) + get_local_size(1) * get_local_id(2)); \\\n"
    "    size_t items = get_local_size(0) * get_local_size(1) * get_local_size(2); \\\n"
    "    global const T *from = in + g * count * STRIDE; \\\n"
    "    prefetch(from, count * STRIDE); \\\n"
    "    event_t e = async_work_group_strided_copy(tile, from, count, STRIDE, 0); \\\n"
    "    wait_group_events(1, &e); \\\n"
    "    T mine[4]; \\\n"
    "    for (size_t k = 0; k < 4; k++) \\\n"
    "        if (l + k * items < count) mine[k] = tile[count - 1 - l - k * items]; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    for (size_t k = 0; k < 4; k++) \\\n"
    "        if (l + k * items < count) tile[l + k * items] = mine[k] * (T)(2); \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    e = async_work_group_copy(out1 + g * count, tile, count, 0); \\\n"
    "    wait_group_events(1, &e); \\\n"
    "    e = async_work_group_copy(tile, from, count, 0); \\\n"
    "    event_t events[2] = {e, e}; \\\n"
    "    wait_group_events(2, events); \\\n"
    "    for (size_t k = 0; k < 4; k++) \\\n"
    "        if (l + k * items < count) mine[k] = tile[l + k * items] + (T)(1); \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    for (size_t k = 0; k < 4; k++) \\\n"
    "        if (l + k * items < count) tile[l + k * items] = mine[k]; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    e = async_work_group_strided_copy(out2 + g * count * STRIDE, tile, count, STRIDE, 0); \\\n"
    "    wait_group_events(1, &e); \\\n"
    "}\n"
    "ASYNC(uchar) ASYNC(short3) ASYNC(int4) ASYNC(long2) ASYNC(float16) ASYNC(double8)\n";

struct type {
    const char *name;
    size_t scalar;     /* bytes */
    int components;    /* as stored: a 3-vector takes 4 */
    bool floating;
};

/* Scalar @i of an array of @t's scalars, and back. */
static double load(const struct type *t, const void *p, size_t i)
{
    const char *at = (const char *)p + i * t->scalar;
    if (t->floating)
        return t->scalar == 4 ? *(const float *)at : *(const double *)at;
    int64_t v = 0;
    memcpy(&v, at, t->scalar);
    return (double)v;
}

/* The integer results wrap to the scalar's width. */
static double wrapped(const struct type *t, double v)
{
    if (t->floating || t->scalar == 8)
        return v;
    uint64_t mask = (1ull << (8 * t->scalar)) - 1;
    return (double)((uint64_t)(int64_t)v & mask);
}

/* A range of GROUPS groups. */
struct launch {
    const char *name;
    cl_uint dims;
    size_t global[3], local[3];
};

static const struct launch launches[] = {
    {"2-D 4x3", 2, {16, 6, 1}, {4, 3, 1}},
    {"3-D 2x3x2", 3, {8, 3, 4}, {2, 3, 2}},
    /* Groups of 4x3, 2x3, 4x2 and 2x2: each work-item rewrites at most 4
     * elements of the tile, so count <= 16 here. */
    {"non-uniform 2-D", 2, {14, 5, 1}, {4, 3, 1}},
};

static void run(const struct type *t, cl_program program, unsigned count,
                const struct launch *launch)
{
    char name[32];
    snprintf(name, sizeof(name), "async_%s", t->name);
    cl_kernel kernel = exec_kernel(program, name);
    size_t element = t->scalar * (size_t)t->components;
    size_t in_size = GROUPS * MAX_COUNT * STRIDE * element;
    unsigned char *in = malloc(in_size), *out1 = calloc(1, in_size),
                  *out2 = calloc(1, in_size);
    for (size_t i = 0; i < in_size / t->scalar; i++) {
        /* Small integers, exact in every type. */
        int64_t v = (int64_t)(i * 7 % 101);
        if (t->floating && t->scalar == 4)
            *(float *)(in + i * 4) = (float)v;
        else if (t->floating)
            *(double *)(in + i * 8) = (double)v;
        else
            memcpy(in + i * t->scalar, &v, t->scalar);
    }
    cl_mem b_in = exec_buffer(in_size, in), b_out1 = exec_buffer(in_size, out1),
           b_out2 = exec_buffer(in_size, out2);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &b_in), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), &b_out1), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), &b_out2), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 3, MAX_COUNT * element, NULL), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 4, sizeof(count), &count), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, launch->dims, NULL,
                                    launch->global, launch->local, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    exec_read(b_out1, in_size, out1);
    exec_read(b_out2, in_size, out2);
    int failures = 0;
    size_t c = (size_t)t->components;
    for (size_t g = 0; g < GROUPS; g++)
        for (size_t i = 0; i < count && failures < 3; i++)
            for (size_t k = 0; k < c && failures < 3; k++) {
                size_t strided = (g * count * STRIDE + i * STRIDE) * c + k;
                size_t reversed = (g * count * STRIDE + (count - 1 - i) * STRIDE) * c + k;
                size_t plain = (g * count + i) * c + k;
                /* The 3-vector's fourth scalar is padding: not compared. */
                if (c == 4 && !strcmp(t->name, "short3") && k == 3)
                    continue;
                double want1 = wrapped(t, 2 * load(t, in, reversed));
                double want2 = wrapped(t, load(t, in, g * count * STRIDE * c + i * c + k) + 1);
                double got1 = wrapped(t, load(t, out1, plain));
                double got2 = wrapped(t, load(t, out2, strided));
                if (got1 != want1 || got2 != want2) {
                    fprintf(stderr, "%s, %s, count %u: group %zu element "
                            "%zu.%zu: %g %g, expected %g %g\n", t->name,
                            launch->name, count, g, i, k, got1, got2, want1,
                            want2);
                    test_failures++;
                    failures++;
                }
            }
    CHECK_EQ(clReleaseMemObject(b_in), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_out1), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_out2), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    free(in);
    free(out1);
    free(out2);
}

int main(void)
{
    static const struct type types[] = {
        {"uchar", 1, 1, false}, {"short3", 2, 4, false},
        {"int4", 4, 4, false},  {"long2", 8, 2, false},
        {"float16", 4, 16, true}, {"double8", 8, 8, true}};
    exec_setup();
    /* Counts smaller than the 12 work-items, equal, not a multiple (3 or
     * 4 each) in 2-D; twice in 3-D; in the non-uniform range, groups of 4
     * to 12 with 5 (smaller than most) and 12 (1 to 3 each). */
    static const struct {
        unsigned count;
        size_t launch;
    } runs[] = {{5, 0}, {12, 0}, {MAX_COUNT, 0}, {24, 1}, {5, 2}, {12, 2}};
    /* OpenCL C 3.0: a range need not be a multiple of the group. */
    cl_program program = exec_build(source, "-cl-std=CL3.0");
    if (program) {
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
            for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
                run(&types[t], program, runs[r].count,
                    &launches[runs[r].launch]);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    return TEST_RESULT();
}
