/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-globals: program-scope variables through SPIR-V (OpVariable
 * in the CrossWorkgroup storage class) that clang-15 and llvm-spirv-15
 * made from tests/program/il/globals.cl when the tests were built
 * (REFCL_TEST_SPIRV names it): the initializer read back, bump()'s writes
 * seen by read() and by later enqueues, built and compiled then linked,
 * each program with its own copy; CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
 * exact. Skipped (77) where the device reports no IL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

static cl_kernel kernel_of(cl_program program, const char *name)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return kernel;
}

static void bump(cl_program program, cl_int step)
{
    cl_kernel kernel = kernel_of(program, "bump");
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(step), &step), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(kernel);
}

/* read(): counter, then history[0..3]. */
static void check_read(cl_program program, const cl_int want[5])
{
    cl_int err = 1, got[5] = {0};
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(got),
                                NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_kernel kernel = kernel_of(program, "read");
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(out), &out), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(got), got, 0,
                                 NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(got[i], want[i]);
    clReleaseKernel(kernel);
    clReleaseMemObject(out);
}

/* counter (4 bytes) and history (16). */
static void check_size(cl_program program)
{
    size_t bytes = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, device,
                                   CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof(bytes), &bytes, NULL), CL_SUCCESS);
    CHECK_EQ(bytes, 4 + 16);
}

static void check_program(cl_program program)
{
    check_size(program);
    const cl_int initial[5] = {7, 0, 0, 0, 0};
    check_read(program, initial);
    bump(program, 2);
    bump(program, 2);
    bump(program, 2);
    const cl_int bumped[5] = {13, 7, 9, 11, 0};
    check_read(program, bumped);
}

int main(void)
{
    unsigned char *spirv = NULL;
    size_t size = 0;
    int start = test_il_start(&device, &context, &queue, &spirv, &size);
    if (start)
        return start;
    cl_int err = 1;
    const cl_int initial[5] = {7, 0, 0, 0, 0};
    cl_program built = test_il_program(context, spirv, size);
    CHECK_EQ(clBuildProgram(built, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    check_program(built);
    cl_program object = test_il_program(context, spirv, size);
    cl_program linked = test_il_compile_link(context, object);
    check_program(linked);
    /* The built program's copy kept its own values. */
    const cl_int bumped[5] = {13, 7, 9, 11, 0};
    check_read(built, bumped);
    bump(built, 2);
    const cl_int again[5] = {15, 7, 9, 11, 13};
    check_read(built, again);
    cl_program fresh = clCreateProgramWithIL(context, spirv, size, &err);
    CHECK_EQ(clBuildProgram(fresh, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    check_read(fresh, initial);
    clReleaseProgram(fresh);
    clReleaseProgram(linked);
    clReleaseProgram(object);
    clReleaseProgram(built);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(spirv);
    return TEST_RESULT();
}
