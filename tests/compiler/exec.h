/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of compiled kernels share (tests/compiler/exec*.c): the
 * device, its context and queue, a program built from source, a kernel of
 * it, buffers read back.
 */
#ifndef REFCL_TEST_EXEC_H
#define REFCL_TEST_EXEC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/** The device, context and queue; exits 77 where the device has no
 *  compiler (REFCL_COMPILER=0, or the compiler is not installed). */
static inline void exec_setup(void)
{
    if (!test_first_device(&platform, &device))
        exit(1);
    if (!test_compiler_available(device))
        exit(77);
    if (!test_context_queue(device, 0, &context, &queue))
        exit(1);
}

static inline void exec_teardown(void)
{
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

/** @p source built with @p options in @p ctx, or NULL after printing the
 *  build log. */
static inline cl_program exec_build_in(cl_context ctx, const char *source,
                                       const char *options)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    err = clBuildProgram(program, 0, NULL, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        cl_device_id dev;
        clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(dev), &dev, NULL);
        char log[8192] = "";
        clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG,
                              sizeof(log), log, NULL);
        fprintf(stderr, "clBuildProgram(%s): %d\n%s\n", options, err, log);
        CHECK_EQ(err, CL_SUCCESS);
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

static inline cl_program exec_build(const char *source, const char *options)
{
    return exec_build_in(context, source, options);
}

/* A test's whole run: @p source built with @p options, then @p once and
 * @p contention on it (the atomics tests' two checks). */
static inline int exec_atomics_test(const char *source, const char *options,
                                    void (*once)(cl_program),
                                    void (*contention)(cl_program))
{
    exec_setup();
    cl_program program = exec_build(source, options);
    if (program) {
        once(program);
        contention(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    return TEST_RESULT();
}

/** Kernel @p name of @p program, which must be made. */
static inline cl_kernel exec_kernel(cl_program program, const char *name)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return kernel;
}

/** Reads @p size bytes of @p buffer into @p out, blocking. */
static inline void exec_read(cl_mem buffer, size_t size, void *out)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, out, 0,
                                 NULL, NULL),
             CL_SUCCESS);
}

/** A buffer of @p size bytes holding @p data (or uninitialised). */
static inline cl_mem exec_buffer(size_t size, const void *data)
{
    return test_buffer(context,
                       data ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, size,
                       (void *)data);
}

/** True under valgrind, which reports the bad access of a faulting
 *  kernel as an error of its own. */
static inline int exec_under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") != NULL;
}

#endif /* REFCL_TEST_EXEC_H */
