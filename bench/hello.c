/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_hello: the README's first proof that a kernel written in OpenCL C
 * runs: saxpy built from source with clBuildProgram on the first device of
 * whichever ICD the loader finds, run over 1 Mi floats and checked
 * against the same computation on the host. Exit status 0 if every value
 * is right.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1u << 20)

static const char *source =
    "kernel void saxpy(float a, global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n";

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "refcl_hello: %s failed: %d\n", what, err);
    return 1;
}

/* Builds the source for @p device; its log on stderr if it fails. */
static cl_kernel build(cl_context context, cl_device_id device)
{
    cl_int err;
    cl_program program =
        clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err == CL_SUCCESS &&
        clBuildProgram(program, 1, &device, NULL, NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                              sizeof(log), log, NULL);
        fprintf(stderr, "refcl_hello: the build failed:\n%s\n", log);
    }
    cl_kernel kernel = clCreateKernel(program, "saxpy", &err);
    clReleaseProgram(program);
    return err == CL_SUCCESS ? kernel : NULL;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS)
        return fail("finding a device", err);
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_kernel kernel = err == CL_SUCCESS ? build(context, device) : NULL;
    if (!kernel)
        return 1;
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    for (unsigned i = 0; i < N; i++) {
        x[i] = (float)(i % 1000);
        y[i] = 1.0f;
    }
    cl_mem bx = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,
                               N * sizeof(float), x, &err);
    cl_mem by = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,
                               N * sizeof(float), y, &err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    const float a = 2.0f;
    const size_t global = N;
    clSetKernelArg(kernel, 0, sizeof(a), &a);
    clSetKernelArg(kernel, 1, sizeof(bx), &bx);
    clSetKernelArg(kernel, 2, sizeof(by), &by);
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                 NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, by, CL_TRUE, 0, N * sizeof(float),
                                  y, 0, NULL, NULL);
    unsigned wrong = 0;
    for (unsigned i = 0; err == CL_SUCCESS && i < N; i++)
        wrong += y[i] != a * x[i] + 1.0f;
    char name[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (err == CL_SUCCESS)
        printf("%s: saxpy built from OpenCL C source, %u floats, %s\n", name,
               N, wrong ? "WRONG" : "all correct");
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseCommandQueue(queue);
    clReleaseKernel(kernel);
    clReleaseContext(context);
    free(x);
    free(y);
    return err != CL_SUCCESS ? fail("running saxpy", err) : wrong != 0;
}
