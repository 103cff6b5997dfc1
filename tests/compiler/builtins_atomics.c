/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/atomics: the 64-bit atom_* of refcl-builtins.bc
 * (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics) in kernels run
 * by the runtime: each function once, on global and local long/ulong, with
 * the old values and results checked; then every work-item of 256 groups,
 * spread over all the device's threads, adding to one global counter and
 * to a local one, with exact totals (a lost update shows).
 */
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define GROUPS 256
#define ITEMS 64
#define ROUNDS 50

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "kernel void once(global long *g, global long *r)\n"
    "{\n"
    "    local ulong l;\n"
    "    l = 0xfffffffffffffff0ul;\n"
    "    r[0] = atom_add(g, 0x100000000l); r[1] = atom_sub(g, 2);\n"
    "    r[2] = atom_xchg(g, -10); r[3] = atom_inc(g); r[4] = atom_dec(g);\n"
    "    r[5] = atom_cmpxchg(g, -10, 1l << 40); r[6] = atom_cmpxchg(g, -10, 7);\n"
    "    r[7] = atom_min(g, -(1l << 50)); r[8] = atom_max(g, 1l << 41);\n"
    "    r[9] = atom_and(g, 0x30000000000l); r[10] = atom_or(g, 5);\n"
    "    r[11] = atom_xor(g, 0x10000000001l); r[12] = *g;\n"
    "    r[13] = (long)atom_max(&l, 0xfffffffffffffff1ul);\n"
    "    r[14] = (long)atom_min(&l, 3ul); r[15] = (long)atom_add(&l, 0xfffffffffffffffful);\n"
    "    r[16] = (long)atom_inc(&l); r[17] = (long)l;\n"
    "}\n"
    "kernel void contend(global ulong *counter, global ulong *sums, uint rounds)\n"
    "{\n"
    "    local ulong sum;\n"
    "    if (get_local_id(0) == 0) sum = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    ulong big = 1ul << 33;\n"
    "    for (uint i = 0; i < rounds; i++) {\n"
    "        atom_add(counter, big + 1);\n"
    "        atom_inc(counter + 1);\n"
    "        atom_max((global long *)counter + 2, (long)get_global_id(0));\n"
    "        atom_add(&sum, big);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) sums[get_group_id(0)] = sum;\n"
    "}\n";

static void check_once(cl_program program)
{
    cl_kernel kernel = exec_kernel(program, "once");
    int64_t g = 3, r[18];
    cl_mem b_g = exec_buffer(sizeof(g), &g), b_r = exec_buffer(sizeof(r), NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &b_g), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), &b_r), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b_r, sizeof(r), r);
    /* 3 +2^32 -2 xchg-10 inc dec cmpxchg(-10 -> 2^40) cmpxchg(-10: no)
     * min-2^50 max2^41 and(0x300_0000_0000) or5 xor(0x100_0000_0001). */
    const int64_t expected[13] = {
        3, 0x100000003ll, 0x100000001ll, -10, -9, -10, 1ll << 40,
        1ll << 40, -(1ll << 50), 1ll << 41, 0x20000000000ll,
        0x20000000005ll, 0x30000000004ll};
    for (int i = 0; i < 13; i++)
        CHECK_EQ(r[i], expected[i]);
    /* Local ulong: max and min unsigned, then a wrapping add and inc. */
    CHECK_EQ((uint64_t)r[13], 0xfffffffffffffff0ull);
    CHECK_EQ((uint64_t)r[14], 0xfffffffffffffff1ull);
    CHECK_EQ((uint64_t)r[15], 3ull);
    CHECK_EQ((uint64_t)r[16], 2ull);
    CHECK_EQ((uint64_t)r[17], 3ull);
    CHECK_EQ(clReleaseMemObject(b_g), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_r), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

static void check_contention(cl_program program)
{
    cl_kernel kernel = exec_kernel(program, "contend");
    uint64_t counter[3] = {0, 0, 0}, sums[GROUPS];
    cl_uint rounds = ROUNDS;
    cl_mem b_counter = exec_buffer(sizeof(counter), counter),
           b_sums = exec_buffer(sizeof(sums), NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &b_counter), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), &b_sums), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(rounds), &rounds), CL_SUCCESS);
    size_t global = GROUPS * ITEMS, local = ITEMS;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL),
             CL_SUCCESS);
    exec_read(b_counter, sizeof(counter), counter);
    exec_read(b_sums, sizeof(sums), sums);
    uint64_t adds = (uint64_t)GROUPS * ITEMS * ROUNDS;
    CHECK_EQ(counter[0], adds * ((1ull << 33) + 1));
    CHECK_EQ(counter[1], adds);
    CHECK_EQ(counter[2], (uint64_t)(GROUPS * ITEMS - 1));
    for (int g = 0; g < GROUPS; g++)
        CHECK_EQ(sums[g], (uint64_t)ITEMS * ROUNDS << 33);
    CHECK_EQ(clReleaseMemObject(b_counter), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b_sums), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

int main(void)
{
    return exec_atomics_test(source, "", check_once, check_contention);
}
