/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/atomic_combine: the work-group pass makes a work-item loop's
 * relaxed atomic additions whose old value nobody reads one per address
 * (compiler/pass/atomics.cpp). Totals checked against the host's sums:
 * addresses the same in every work-item, in 1D and 2D ranges; varying ones
 * through the pass's table: a histogram of 256 bins, eight bins of another
 * buffer whose slots those hold (buffers are page-aligned), 64-bit sums,
 * bins in a loop of the kernel, beside bins too many for the table;
 * __local counters across barriers; OpenCL C 3.0's relaxed
 * atomic_fetch_add and _sub. And where it must not combine: a work-item
 * that reads its own counter back, and atomic_inc whose old values are
 * used (each of 0 to N-1 exactly once).
 */
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define GROUPS 64
#define ITEMS 512
#define N (GROUPS * ITEMS)
#define BINS 580 /* 256 + 8 + 300 + 16 */
#define WIDE 70

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "size_t item(void)\n"
    "{ return get_global_id(1) * get_global_size(0) + get_global_id(0); }\n"
    "kernel void uniform(global int *c, global const int *x)\n"
    "{\n"
    "    int v = x[item()];\n"
    "    atomic_inc(c);\n"
    "    atomic_sub(c + 1, v);\n"
    "    if (v & 1) atomic_add(c + 2, v);\n"
    "    atomic_dec(c + 3);\n"
    "}\n"
    "kernel void varying(global uint *bins, global const uint *x,\n"
    "                    global ulong *wide, global uint *eight)\n"
    "{\n"
    "    uint v = x[item()];\n"
    "    atomic_inc(&bins[v & 255]);\n"
    "    atomic_add(&eight[v & 7], v);\n"
    "    atom_add(&wide[v % 70], (ulong)v << 20);\n"
    "    atomic_inc(&bins[264 + v % 300]);\n"
    "    for (uint k = 0; k < (v & 3); k++)\n"
    "        atomic_sub(&bins[564 + ((v + k) & 15)], 1u);\n"
    "}\n"
    "kernel void in_local(global int *out)\n"
    "{\n"
    "    local int n;\n"
    "    if (get_local_id(0) == 0) n = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_inc(&n);\n"
    "    atomic_add(&n, (int)get_local_id(0));\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) out[get_group_id(0)] = n;\n"
    "}\n"
    "kernel void read_back(global int *c, global int *seen)\n"
    "{ size_t i = item(); atomic_add(&c[i], 5); seen[i] = c[i]; }\n"
    "kernel void old_values(global int *c, global int *seen)\n"
    "{ seen[item()] = atomic_inc(c); }\n";

/* OpenCL C 3.0's relaxed atomic_fetch_add and _sub, built as 3.0. */
static const char c11_source[] =
    "kernel void relaxed(global atomic_int *c, global const int *x)\n"
    "{\n"
    "    int v = x[get_global_id(0)];\n"
    "    atomic_fetch_add_explicit(c, v, memory_order_relaxed);\n"
    "    atomic_fetch_sub_explicit(&c[1 + (v & 7)], 1, memory_order_relaxed,\n"
    "                              memory_scope_device);\n"
    "}\n";

/* Runs @p name over N work-items: 1D in groups of ITEMS (or refcl's
 * choice with @p local 0), or 2D as 64 x (N / 64) in groups of 16 x 8. */
static void run(cl_program program, const char *name, const cl_mem *args,
                size_t local, int two_d)
{
    cl_kernel kernel = exec_kernel(program, name);
    for (cl_uint i = 0; i < 4 && args[i]; i++)
        CHECK_EQ(clSetKernelArg(kernel, i, sizeof(cl_mem), &args[i]), CL_SUCCESS);
    size_t global[2] = {two_d ? 64 : N, two_d ? N / 64 : 1};
    size_t groups[2] = {two_d ? 16 : local, 8};
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, two_d ? 2 : 1, NULL, global,
                                    two_d || local ? groups : NULL, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

static uint32_t input(size_t i)
{
    return (uint32_t)(i * 2654435761u >> 7) % 100000;
}

static void check_uniform(cl_program program, cl_mem x, size_t local, int two_d)
{
    int32_t c[4] = {7, 7, 7, 7}, want[4] = {7 + N, 7, 7, 7 - N};
    for (size_t i = 0; i < N; i++) {
        int32_t v = (int32_t)input(i);
        want[1] -= v;
        want[2] += v & 1 ? v : 0;
    }
    cl_mem b_c = exec_buffer(sizeof(c), c);
    run(program, "uniform", (cl_mem[4]){b_c, x}, local, two_d);
    exec_read(b_c, sizeof(c), c);
    for (int k = 0; k < 4; k++)
        CHECK_EQ(c[k], want[k]);
    CHECK_EQ(clReleaseMemObject(b_c), CL_SUCCESS);
}

static void check_varying(cl_program program, cl_mem x, size_t local, int two_d)
{
    static uint32_t bins[BINS], want[BINS], eight[8], want_eight[8];
    static uint64_t wide[WIDE], want_wide[WIDE];
    memset(bins, 0, sizeof(bins));
    memset(want, 0, sizeof(want));
    memset(eight, 0, sizeof(eight));
    memset(want_eight, 0, sizeof(want_eight));
    memset(wide, 0, sizeof(wide));
    memset(want_wide, 0, sizeof(want_wide));
    for (size_t i = 0; i < N; i++) {
        uint32_t v = input(i);
        want[v & 255]++;
        want_eight[v & 7] += v;
        want_wide[v % WIDE] += (uint64_t)v << 20;
        want[264 + v % 300]++;
        for (uint32_t k = 0; k < (v & 3); k++)
            want[564 + ((v + k) & 15)]--;
    }
    cl_mem b_bins = exec_buffer(sizeof(bins), bins),
           b_wide = exec_buffer(sizeof(wide), wide),
           b_eight = exec_buffer(sizeof(eight), eight);
    run(program, "varying", (cl_mem[4]){b_bins, x, b_wide, b_eight}, local, two_d);
    exec_read(b_bins, sizeof(bins), bins);
    exec_read(b_wide, sizeof(wide), wide);
    exec_read(b_eight, sizeof(eight), eight);
    for (int k = 0; k < BINS; k++)
        CHECK_EQ(bins[k], want[k]);
    for (int k = 0; k < WIDE; k++)
        CHECK_EQ(wide[k], want_wide[k]);
    for (int k = 0; k < 8; k++)
        CHECK_EQ(eight[k], want_eight[k]);
    CHECK_EQ(clReleaseMemObject(b_bins), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_wide), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_eight), CL_SUCCESS);
}

static void check_local(cl_program program)
{
    static int32_t out[GROUPS];
    cl_mem b_out = exec_buffer(sizeof(out), NULL);
    run(program, "in_local", (cl_mem[4]){b_out}, ITEMS, 0);
    exec_read(b_out, sizeof(out), out);
    for (int g = 0; g < GROUPS; g++)
        CHECK_EQ(out[g], ITEMS + ITEMS * (ITEMS - 1) / 2);
    CHECK_EQ(clReleaseMemObject(b_out), CL_SUCCESS);
}

/* A work-item reading back its own counter sees its own addition. */
static void check_read_back(cl_program program)
{
    static int32_t c[N], seen[N];
    for (int i = 0; i < N; i++)
        c[i] = i;
    cl_mem b_c = exec_buffer(sizeof(c), c), b_seen = exec_buffer(sizeof(seen), NULL);
    run(program, "read_back", (cl_mem[4]){b_c, b_seen}, ITEMS, 0);
    exec_read(b_seen, sizeof(seen), seen);
    for (int i = 0; i < N; i++)
        CHECK_EQ(seen[i], i + 5);
    CHECK_EQ(clReleaseMemObject(b_c), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_seen), CL_SUCCESS);
}

/* Every work-item gets an old value of its own. */
static void check_old_values(cl_program program)
{
    static int32_t seen[N];
    static unsigned char hit[N];
    int32_t c = 0;
    cl_mem b_c = exec_buffer(sizeof(c), &c), b_seen = exec_buffer(sizeof(seen), NULL);
    run(program, "old_values", (cl_mem[4]){b_c, b_seen}, ITEMS, 0);
    exec_read(b_seen, sizeof(seen), seen);
    exec_read(b_c, sizeof(c), &c);
    CHECK_EQ(c, N);
    memset(hit, 0, sizeof(hit));
    int distinct = 0;
    for (int i = 0; i < N; i++)
        if (seen[i] >= 0 && seen[i] < N && !hit[seen[i]]++)
            distinct++;
    CHECK_EQ(distinct, N);
    CHECK_EQ(clReleaseMemObject(b_c), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_seen), CL_SUCCESS);
}

static void check_c11(cl_mem x)
{
    cl_program program = exec_build(c11_source, "-cl-std=CL3.0");
    if (!program)
        return;
    int32_t c[9], want[9];
    for (int k = 0; k < 9; k++)
        c[k] = want[k] = 7;
    for (size_t i = 0; i < N; i++) {
        int32_t v = (int32_t)input(i);
        want[0] = (int32_t)((uint32_t)want[0] + (uint32_t)v);
        want[1 + (v & 7)]--;
    }
    cl_mem b_c = exec_buffer(sizeof(c), c);
    run(program, "relaxed", (cl_mem[4]){b_c, x}, ITEMS, 0);
    exec_read(b_c, sizeof(c), c);
    for (int k = 0; k < 9; k++)
        CHECK_EQ(c[k], want[k]);
    CHECK_EQ(clReleaseMemObject(b_c), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "");
    static uint32_t x[N];
    for (size_t i = 0; i < N; i++)
        x[i] = input(i);
    cl_mem b_x = exec_buffer(sizeof(x), x);
    if (program) {
        for (int shape = 0; shape < 3; shape++) {
            size_t local = shape == 0 ? ITEMS : 0;
            check_uniform(program, b_x, local, shape == 2);
            check_varying(program, b_x, local, shape == 2);
        }
        check_local(program);
        check_read_back(program);
        check_old_values(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    check_c11(b_x);
    CHECK_EQ(clReleaseMemObject(b_x), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}
