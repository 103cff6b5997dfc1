/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-subgroup: SPIR-V that clang-15 and llvm-spirv-15 made from
 * tests/program/il/subgroup.cl, OpenCL C 2.0 with cl_khr_subgroups (the
 * translator's sub-group built-ins and OpGroup* instructions, read back as
 * the OpenCL C functions): built and run over 200 work-items in groups of
 * 100, not a multiple of the sub-group size S (the kernel's
 * CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE), each result checked against
 * the host's: sub-groups are runs of S local ids, the group's last one
 * shorter. Skipped (77) where the device reports no IL.
 */
#include "check.h"

#define N 200
#define L 100

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
    cl_kernel kernel = clCreateKernel(program, "subgroups", &err);
    CHECK_EQ(err, CL_SUCCESS);
    size_t global = N, local = L, s = 0;
    CHECK_EQ(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof(local), &local, sizeof(s), &s, NULL),
             CL_SUCCESS);
    CHECK(s == 4 || s == 8 || s == 16);

    static cl_int in[N], out[6 * N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101;
    cl_mem a = buffer(context, sizeof(in), in);
    cl_mem b = buffer(context, sizeof(out), NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof(out), out,
                                 0, NULL, NULL), CL_SUCCESS);

    for (size_t i = 0; i < N; i++) {
        size_t id = i % L, first = i - id % s;
        size_t n = L - id / s * s < s ? L - id / s * s : s;
        cl_int sum = 0, low = 1000, any = 0;
        for (size_t k = 0; k < n; k++) {
            sum += in[first + k];
            any |= in[first + k] > 90;
            if (first + k <= i)
                low = in[first + k] < low ? in[first + k] : low;
        }
        cl_int want[6] = {sum, low, in[first], any, (cl_int)(id / s),
                          (cl_int)(id % s + 100 * n + 10000 * ((L + s - 1) / s))};
        for (int f = 0; f < 6; f++)
            CHECK_EQ(out[6 * i + f], want[f]);
    }
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
