/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-spec: clSetProgramSpecializationConstant on SPIR-V that
 * clang-15 and llvm-spirv-15 made from tests/program/il/spec.cl
 * (REFCL_TEST_SPIRV names it), whose SpecIds 3, 4, 5 and 6 are an int, a
 * long, a float and a bool: each error the spec lists, the defaults
 * without a value, then the values given (the last one given for an id),
 * through a build and through a compile and link. Skipped (77) where the
 * device reports no IL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

struct values {
    cl_int i;
    cl_long l;
    cl_float f;
    cl_uchar b;
};

static struct values run(cl_program program)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, "spec", &err);
    CHECK_EQ(err, CL_SUCCESS);
    struct values v = {0};
    size_t sizes[4] = {sizeof(v.i), sizeof(v.l), sizeof(v.f), sizeof(v.b)};
    void *at[4] = {&v.i, &v.l, &v.f, &v.b};
    cl_mem out[4];
    for (cl_uint a = 0; a < 4; a++) {
        out[a] = test_buffer(context, CL_MEM_WRITE_ONLY, sizes[a], NULL);
        CHECK_EQ(clSetKernelArg(kernel, a, sizeof(cl_mem), &out[a]),
                 CL_SUCCESS);
    }
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    for (int a = 0; a < 4; a++) {
        CHECK_EQ(clEnqueueReadBuffer(queue, out[a], CL_TRUE, 0, sizes[a],
                                     at[a], 0, NULL, NULL), CL_SUCCESS);
        clReleaseMemObject(out[a]);
    }
    clReleaseKernel(kernel);
    return v;
}

/* CL_INVALID_SPEC_ID "if spec_id is not a valid specialization constant
 * identifier"; CL_INVALID_VALUE "if spec_size does not match the size of
 * the specialization constant in the module, or if spec_value is NULL"
 * (a bool's is 1: "This should be 1 for boolean constants"). */
static void check_errors(cl_program program)
{
    cl_int i = 1;
    cl_uchar b = 0;
    CHECK_EQ(clSetProgramSpecializationConstant(program, 0, 4, &i),
             CL_INVALID_SPEC_ID);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 7, 4, &i),
             CL_INVALID_SPEC_ID);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 3, 8, &i),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 3, 4, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 4, 4, &i),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 6, 4, &i),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 6, 1, &b),
             CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant((cl_program)context, 3, 4,
                                                &i), CL_INVALID_PROGRAM);
    const char *source = "kernel void k(void) {}";
    cl_int err = 1;
    cl_program from_source =
        clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    /* "CL_INVALID_PROGRAM if program is not a valid program object
     * created from an intermediate language (e.g. SPIR-V)". */
    CHECK_EQ(clSetProgramSpecializationConstant(from_source, 3, 4, &i),
             CL_INVALID_PROGRAM);
    clReleaseProgram(from_source);
}

/* The values the test gives: 41 then 42 for SpecId 3 ("the last provided
 * value [overrides] any previously specified value"), the most negative
 * long, a float that is exact in hexadecimal only, and 2 for the bool
 * ("any other value will set it to true"). */
static void set_values(cl_program program)
{
    cl_int first = 41, i = 42;
    cl_long l = INT64_MIN;
    cl_float f = -0x1.234566p-100f;
    cl_uchar b = 2;
    CHECK_EQ(clSetProgramSpecializationConstant(program, 3, 4, &first),
             CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 3, 4, &i),
             CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 4, 8, &l),
             CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 5, 4, &f),
             CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 6, 1, &b),
             CL_SUCCESS);
}

static void check_given(struct values v)
{
    CHECK_EQ(v.i, 42);
    CHECK(v.l == INT64_MIN);
    CHECK(v.f == -0x1.234566p-100f);
    CHECK_EQ(v.b, 1);
}

int main(void)
{
    size_t size = 0;
    unsigned char *spirv = NULL;
    int start = test_il_start(&device, &context, &queue, &spirv, &size);
    if (start)
        return start;
    cl_program program = test_il_program(context, spirv, size);
    /* The defaults: 7, -5, 1.5 and false (the bool given false above, its
     * default). */
    check_errors(program);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    struct values v = run(program);
    CHECK_EQ(v.i, 7);
    CHECK(v.l == -5);
    CHECK(v.f == 1.5f);
    CHECK_EQ(v.b, 0);
    /* Given, then built again. */
    set_values(program);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    check_given(run(program));
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    /* Given, then compiled and linked. */
    program = test_il_program(context, spirv, size);
    set_values(program);
    cl_program linked = test_il_compile_link(context, program);
    if (linked) {
        check_given(run(linked));
        CHECK_EQ(clReleaseProgram(linked), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    clReleaseCommandQueue(queue);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
