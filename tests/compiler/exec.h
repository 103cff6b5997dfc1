/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of compiled kernels share (tests/compiler/exec*.c): the
 * device, its context and queue, a program built from source, a kernel of
 * it, buffers read back.
 */
#ifndef REFCL_TEST_EXEC_H
#define REFCL_TEST_EXEC_H

#include <pthread.h>
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

/** Runs kernel @p name of @p program as one work-item on a buffer of one
 *  int (its argument 0): the int it wrote. */
static inline cl_int exec_one_int(cl_program program, const char *name)
{
    cl_kernel kernel = exec_kernel(program, name);
    cl_mem out = exec_buffer(sizeof(cl_int), NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(out), &out), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    cl_int got = -1;
    exec_read(out, sizeof(got), &got);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    return got;
}

/** True under valgrind, which reports the bad access of a faulting
 *  kernel as an error of its own. */
static inline int exec_under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") != NULL;
}

/** What the context's pfn_notify heard (exec_setup_faults): how often,
 *  and the last errinfo. Read once the command is complete. */
struct exec_notes {
    pthread_mutex_t lock;
    int heard;
    char last[1024];
};

static inline struct exec_notes *exec_notes(void)
{
    static struct exec_notes notes = {PTHREAD_MUTEX_INITIALIZER, 0, ""};
    return &notes;
}

/* Called on the thread that ran the kernel. */
static inline void CL_CALLBACK exec_on_notify(const char *errinfo,
                                              const void *private_info,
                                              size_t cb, void *user_data)
{
    (void)private_info;
    (void)cb;
    (void)user_data;
    struct exec_notes *n = exec_notes();
    pthread_mutex_lock(&n->lock);
    n->heard++;
    snprintf(n->last, sizeof(n->last), "%s", errinfo);
    pthread_mutex_unlock(&n->lock);
}

/** exec_setup for kernels that fault: the context's pfn_notify is
 *  exec_on_notify. Exits 77 under valgrind too. */
static inline void exec_setup_faults(void)
{
    if (exec_under_valgrind()) {
        fprintf(stderr, "under valgrind, which reports the fault itself\n");
        exit(77);
    }
    if (!test_first_device(&platform, &device))
        exit(1);
    if (!test_compiler_available(device))
        exit(77);
    cl_int err = 1;
    context = clCreateContext(NULL, 1, &device, exec_on_notify, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (!context || !queue)
        exit(1);
}

/** Runs @p k, its argument 0 @p p, over @p global in @p dims dimensions,
 *  in groups of @p local (NULL: refcl's choice); the event's status. */
static inline cl_int exec_status(cl_kernel k, cl_mem p, cl_uint dims,
                                 const size_t *global, const size_t *local)
{
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(p), &p), CL_SUCCESS);
    cl_event event = NULL;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0,
                                    NULL, &event),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_int status = 1;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    return status;
}

#endif /* REFCL_TEST_EXEC_H */
