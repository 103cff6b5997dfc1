/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il: clCreateProgramWithIL of SPIR-V that clang-15 and
 * llvm-spirv-15 made from tests/program/il/reverse.cl when the tests were
 * built (REFCL_TEST_SPIRV names it): the device's IL versions,
 * CL_PROGRAM_IL, a build and a run checked against the host's own
 * computation, IL that is not SPIR-V refused, a UserSemantic
 * OpDecorateString dropped, and an instruction the translator cannot read
 * named in the build log. Skipped (77) where the
 * device reports no IL (no compiler or no translator).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 1024
#define LOCAL 64

static cl_context context;
static cl_device_id device;

/* Garbage, a bad length and SPIR-V of a version the device does not
 * list: "CL_INVALID_VALUE if il is NULL or if length is zero" and "if the
 * length-byte memory pointed to by il does not contain well-formed
 * intermediate language input". */
static void check_refused(const unsigned char *spirv, size_t size)
{
    cl_int err = 1;
    CHECK(clCreateProgramWithIL(context, NULL, 20, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithIL(context, spirv, 0, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithIL(context, "kernel void k(void) {}", 23,
                                &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithIL(context, spirv, size - 1, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    unsigned char *copy = malloc(size);
    memcpy(copy, spirv, size);
    copy[6] = 5; /* SPIR-V 1.5 (little-endian version word: 0 minor major 0) */
    CHECK(clCreateProgramWithIL(context, copy, size, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    free(copy);
    CHECK(clCreateProgramWithIL((cl_context)device, spirv, size, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
}

static void check_run(cl_program program)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, "reverse", &err);
    CHECK_EQ(err, CL_SUCCESS);
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 97) - 48.0f;
    cl_mem bx = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof(x), x,
                               &err);
    cl_mem by = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof(y), NULL,
                               &err);
    float a = 3.0f;
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(bx), &bx), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(by), &by), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 3, LOCAL * sizeof(float), NULL),
             CL_SUCCESS);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    size_t global = N, local = LOCAL;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, by, CL_TRUE, 0, sizeof(y), y, 0,
                                 NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        int mirror = i / LOCAL * LOCAL + LOCAL - 1 - i % LOCAL;
        float want = a * x[mirror];
        want = want < -100.0f ? -100.0f : want > 100.0f ? 100.0f : want;
        wrong += y[i] != want;
    }
    CHECK_EQ(wrong, 0);
    clReleaseCommandQueue(queue);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseKernel(kernel);
}

/* @p spirv with one more instruction, @p words, at its end: a program. */
static cl_program program_with(const unsigned char *spirv, size_t size,
                               const uint32_t *words, size_t count)
{
    unsigned char *longer = malloc(size + 4 * count);
    memcpy(longer, spirv, size);
    memcpy(longer + size, words, 4 * count);
    cl_program program = test_il_program(context, longer, size + 4 * count);
    free(longer);
    return program;
}

/* SPIR-V 1.4's OpDecorateString (5632) of UserSemantic (5635), which
 * llvm-spirv-15 cannot read and refcl drops (an annotation): the module
 * builds and runs as without it. */
static void check_annotation_dropped(const unsigned char *spirv, size_t size)
{
    const uint32_t user_semantic[] = {4u << 16 | 5632, 1, 5635, 'x'};
    cl_program program = program_with(spirv, size, user_semantic, 4);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    check_run(program);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* OpDecorateString of a decoration refcl does not drop (MemoryINTEL,
 * 5826): the build fails, its log naming the instruction rather than the
 * translator's assertion. */
static void check_unreadable(const unsigned char *spirv, size_t size)
{
    const uint32_t memory_intel[] = {4u << 16 | 5632, 1, 5826, 'x'};
    cl_program program = program_with(spirv, size, memory_intel, 4);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL),
             CL_BUILD_PROGRAM_FAILURE);
    char log[1024] = "";
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                   sizeof(log), log, NULL), CL_SUCCESS);
    CHECK(strstr(log, "OpDecorateString") != NULL);
    CHECK(strstr(log, "Assertion") == NULL);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    char versions[128] = "?";
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(versions),
                             versions, NULL), CL_SUCCESS);
    if (!versions[0]) {
        fprintf(stderr, "the device reports no IL\n");
        return TEST_SKIP;
    }
    CHECK_STR(versions, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 "
                        "SPIR-V_1.4");
    cl_name_version ils[8];
    size_t size = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, sizeof(ils),
                             ils, &size), CL_SUCCESS);
    CHECK_EQ(size, 5 * sizeof(cl_name_version));
    CHECK_EQ(ils[4].version, CL_MAKE_VERSION(1, 4, 0));
    CHECK_STR(ils[4].name, "SPIR-V");

    unsigned char *spirv = test_read_spirv(&size);
    CHECK(size > 20 && size < (1 << 16));
    cl_int err = 1;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_refused(spirv, size);
    cl_program program = test_il_program(context, spirv, size);
    unsigned char back[1 << 16];
    size_t back_size = 0;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, sizeof(back), back,
                              &back_size), CL_SUCCESS);
    CHECK_EQ(back_size, size);
    CHECK(!memcmp(back, spirv, size));
    /* The module has no specialization constant: CL_INVALID_SPEC_ID "if
     * spec_id is not a valid specialization constant identifier". */
    cl_uint spec = 1;
    CHECK_EQ(clSetProgramSpecializationConstant(program, 0, sizeof(spec),
                                                &spec), CL_INVALID_SPEC_ID);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    char names[32] = "";
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
                              names, NULL), CL_SUCCESS);
    CHECK_STR(names, "reverse");
    check_run(program);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    check_annotation_dropped(spirv, size);
    check_unreadable(spirv, size);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
