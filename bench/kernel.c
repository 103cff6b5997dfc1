/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a figure with a kernel from OpenCL C makes first and releases last
 * (bench.h): a context and a queue on the device, the program built, its
 * kernel (or only the context and queue, for a figure without a kernel).
 */
#include <string.h>

#include "bench.h"

cl_int bench_kernel_build(const struct bench *b, const char *source,
                          const char *options, const char *name,
                          struct bench_kernel *k)
{
    cl_int err;
    k->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        k->queue = clCreateCommandQueueWithProperties(k->context, b->device,
                                                      NULL, &err);
    if (!source)
        return err;
    if (err == CL_SUCCESS)
        k->program = clCreateProgramWithSource(k->context, 1, &source, NULL,
                                               &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(k->program, 1, &b->device, options, NULL, NULL);
    if (err == CL_SUCCESS)
        k->kernel = clCreateKernel(k->program, name, &err);
    return err;
}

void bench_kernel_release(struct bench_kernel *k)
{
    if (k->kernel)
        clReleaseKernel(k->kernel);
    if (k->program)
        clReleaseProgram(k->program);
    if (k->queue)
        clReleaseCommandQueue(k->queue);
    if (k->context)
        clReleaseContext(k->context);
    memset(k, 0, sizeof(*k));
}
