/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-workgroup: SPIR-V that clang-15 and llvm-spirv-15 made from
 * tests/program/il/workgroup.cl, OpenCL C 2.0 calling work-group collective
 * functions (the translator's OpGroup* instructions, read back as the
 * OpenCL C functions): built and run over 256 work-items in groups of 64,
 * each result checked against the host's. Skipped (77) where the device
 * reports no IL.
 */
#include <math.h>

#include "check.h"

#define N 256
#define L 64


static cl_mem buffer(cl_context context, size_t size, void *host)
{
    return test_buffer(context, host ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                       size, host);
}

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    size_t size = 0;
    unsigned char *spirv = NULL;
    int start = test_il_start(&device, &context, &queue, &spirv, &size);
    if (start)
        return start;
    cl_int err = 1;
    cl_program program = test_il_program(context, spirv, size);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, "collectives", &err);
    CHECK_EQ(err, CL_SUCCESS);

    static float in[N], sums[N];
    static cl_int ints[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)((i * 37) % 101);
    cl_mem a = buffer(context, sizeof(in), in);
    cl_mem b = buffer(context, sizeof(sums), NULL);
    cl_mem c = buffer(context, sizeof(ints), NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(c), &c), CL_SUCCESS);
    size_t global = N, local = L;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof(sums), sums,
                                 0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, c, CL_TRUE, 0, sizeof(ints), ints,
                                 0, NULL, NULL), CL_SUCCESS);

    /* Integer-valued floats: every order of the sum is exact. The
     * exclusive max of work-item 0 is max's identity, -INF, which makes
     * its sum -INF. */
    for (int g = 0; g < N; g += L) {
        float total = 0, most = -INFINITY;
        for (int j = 0; j < L; j++)
            total += in[g + j];
        for (int j = 0; j < L; j++) {
            CHECK(sums[g + j] == total + most);
            most = fmaxf(most, in[g + j]);
            CHECK_EQ(ints[g + j], g + 3 + (g + L - 1 < 100) + j + 1);
        }
    }
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(c), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
