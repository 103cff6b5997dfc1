/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/generic and program/il-generic: OpenCL C's generic address space
 * (__opencl_c_generic_address_space) in kernels run by the runtime, the
 * kernels of tests/compiler/kernels/generic.cl (REFCL_TEST_KERNEL) built
 * from source as OpenCL C 3.0, or, with REFCL_TEST_SPIRV, from the SPIR-V
 * made of them. "spaces": generic pointers to __global, __local (a
 * kernel-scope array and a __local argument) and private memory (on the
 * stack, and living across a barrier), to_global/to_local/to_private
 * exactly NULL or not, get_fence's values; "leaf": a private scalar and
 * a program-scope variable in a kernel that calls nothing; "builtins": the library's
 * generic overloads (math, vload/vstore, halves, atomics), each result
 * against the host's. From source, with and without -cl-opt-disable.
 */
#include <math.h>

#include "exec.h"

_Atomic int test_failures;

#define GROUP 8
#define GROUPS 4
#define ITEMS (GROUP * GROUPS)
#define RESULTS 6

/* What classify() in generic.cl answers for each space: the query's bits
 * (to_global 1, to_local 2, to_private 4), get_fence << 3, and 32 when the
 * named pointer reads the generic one's value. */
enum {
    GLOBAL = 1 | (1 << 3) | 32, /* CLK_GLOBAL_MEM_FENCE */
    LOCAL = 2 | (2 << 3) | 32,  /* CLK_LOCAL_MEM_FENCE */
    PRIVATE = 4 | (1 << 3) | 32 /* a valid fence: the global one */
};

static char *read_text(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    char *text = calloc(1, 1 << 16);
    if (f && text)
        CHECK(fread(text, 1, (1 << 16) - 1, f) > 0);
    if (f)
        fclose(f);
    return text;
}

static void check_spaces(cl_program program)
{
    cl_kernel k = exec_kernel(program, "spaces");
    cl_mem g = exec_buffer(ITEMS * sizeof(cl_int), NULL);
    cl_mem out = exec_buffer(ITEMS * RESULTS * sizeof(cl_int), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(g), &g), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(out), &out), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, GROUP * sizeof(cl_int), NULL), CL_SUCCESS);
    size_t global = ITEMS, local = GROUP;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL), CL_SUCCESS);
    cl_int got[ITEMS][RESULTS];
    exec_read(out, sizeof(got), got);
    const int expected[RESULTS] = {GLOBAL, LOCAL, PRIVATE, LOCAL, PRIVATE, 0};
    for (int i = 0; i < ITEMS; i++)
        for (int r = 0; r < RESULTS; r++)
            CHECK_EQ(got[i][r], r < 5 ? expected[r] : (i & 1) ? GLOBAL : LOCAL);
    CHECK_EQ(clReleaseMemObject(g), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static void check_leaf(cl_program program)
{
    cl_kernel k = exec_kernel(program, "leaf");
    cl_mem out = exec_buffer(ITEMS * 2 * sizeof(cl_int), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
    size_t global = ITEMS, local = GROUP;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL), CL_SUCCESS);
    cl_int got[ITEMS][2];
    exec_read(out, sizeof(got), got);
    for (int i = 0; i < ITEMS; i++) {
        CHECK_EQ(got[i][0], PRIVATE);
        CHECK_EQ(got[i][1], GLOBAL);
    }
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static void check_math(const cl_float *f, const cl_int *n)
{
    int quo = 0;
    float rem = remquof(7.0f, 2.0f, &quo);
    CHECK(f[0] == 0.75f && f[1] == 1.0f); /* fract(1.75) */
    CHECK(f[2] == 0.75f);                 /* frexp(12) = 0.75 * 2^4 */
    CHECK_EQ(n[0], 4);
    CHECK(f[3] == -0.5f && f[4] == -2.0f); /* modf(-2.5) */
    CHECK(f[5] == rem);
    CHECK_EQ(n[1] & 7, quo & 7); /* at least the 3 low bits, and the sign */
    CHECK_EQ(n[1] < 0, quo < 0);
    CHECK(f[6] == 0.0f && f[7] == 1.0f); /* sincos(0) */
    /* lgamma_r(3) = log 2: within the spec's bound, the sign 1. */
    CHECK(fabsf(f[8] - lgammaf(3.0f)) <= 4e-7f);
    CHECK_EQ(n[2], 1);
}

static void check_builtins(cl_program program)
{
    cl_kernel k = exec_kernel(program, "builtins");
    cl_float f0[24] = {0};
    for (int i = 16; i < 20; i++)
        f0[i] = (float)i * 0.5f;
    cl_int n0[12] = {0}, a0[2] = {5, 0};
    cl_mem b[4] = {exec_buffer(sizeof(f0), f0), exec_buffer(sizeof(n0), n0),
                   exec_buffer(sizeof(cl_ushort), NULL),
                   exec_buffer(sizeof(a0), a0)};
    for (cl_uint i = 0; i < 4; i++)
        CHECK_EQ(clSetKernelArg(k, i, sizeof(b[i]), &b[i]), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL,
                                    NULL), CL_SUCCESS);
    cl_float f[24];
    cl_int n[12], a[2];
    cl_ushort h = 0;
    exec_read(b[0], sizeof(f), f);
    exec_read(b[1], sizeof(n), n);
    exec_read(b[2], sizeof(h), &h);
    exec_read(b[3], sizeof(a), a);
    check_math(f, n);
    for (int i = 0; i < 4; i++) /* vstore4(vload4(0, p) * 2, 1, p) */
        CHECK(f[20 + i] == 2.0f * f0[16 + i]);
    CHECK_EQ(h, 0x4300); /* 3.5 as a half */
    CHECK(f[9] == 3.5f);
    const cl_int atomics[9] = {5, 1, 0, 20, 7, 11, 0, 1, 0};
    for (int i = 0; i < 9; i++)
        CHECK_EQ(n[3 + i], atomics[i]);
    CHECK_EQ(a[0], 20);
    CHECK_EQ(a[1], 0);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(clReleaseMemObject(b[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* The program from SPIR-V, or NULL with the test skipped (77) where the
 * device reads none. */
static cl_program program_from_il(void)
{
    if (!test_device_reads_il(device))
        exit(TEST_SKIP);
    size_t size = 0;
    unsigned char *spirv = test_read_spirv(&size);
    CHECK(size > 20);
    cl_int err = 1;
    cl_program program = clCreateProgramWithIL(context, spirv, size, &err);
    CHECK_EQ(err, CL_SUCCESS);
    free(spirv);
    err = clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    CHECK_EQ(err, CL_SUCCESS);
    return err == CL_SUCCESS ? program : NULL;
}

static void check_program(cl_program program)
{
    if (!program)
        return;
    check_spaces(program);
    check_leaf(program);
    check_builtins(program);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* From source, optimized and not (the queries are lowered either way). */
int main(void)
{
    exec_setup();
    if (getenv("REFCL_TEST_SPIRV")) {
        check_program(program_from_il());
    } else {
        char *source = read_text(getenv("REFCL_TEST_KERNEL"));
        check_program(exec_build(source, "-cl-std=CL3.0"));
        check_program(exec_build(source, "-cl-std=CL3.0 -cl-opt-disable"));
        free(source);
    }
    exec_teardown();
    return TEST_RESULT();
}
