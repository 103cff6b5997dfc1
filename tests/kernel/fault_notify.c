/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compiled kernel's fault reaches the application twice: its event ends
 * with an error status (CL_OUT_OF_RESOURCES, an abnormally terminated
 * command) and the context's pfn_notify hears which kernel, which signal,
 * at which address, in which work-group (docs/kernels.md). Needs the
 * compiler (77 without it) and no valgrind (77 under it: valgrind reports
 * the bad access itself).
 */
#include <pthread.h>

#include "../compiler/exec.h"

/* Only work-group (3, 1) writes, through p + 4: address 0x10 when p is
 * NULL. */
static const char *const source =
    "kernel void oob(global int *p)\n"
    "{\n"
    "    if (get_group_id(0) == 3 && get_group_id(1) == 1)\n"
    "        p[4] = 1;\n"
    "}\n";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int heard;
static char last[1024];

/* Called on the thread that ran the kernel. */
static void CL_CALLBACK on_error(const char *errinfo, const void *private_info,
                                 size_t cb, void *user_data)
{
    (void)private_info;
    (void)cb;
    (void)user_data;
    pthread_mutex_lock(&lock);
    heard++;
    snprintf(last, sizeof(last), "%s", errinfo);
    pthread_mutex_unlock(&lock);
}

/* Runs oob over (64, 4) in groups of (16, 2) with @p p; returns the
 * event's status. */
static cl_int run(cl_kernel k, cl_mem p)
{
    static const size_t global[2] = {64, 4}, local[2] = {16, 2};
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(p), &p), CL_SUCCESS);
    cl_event event = NULL;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL,
                                    &event),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_int status = 1;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    return status;
}

int main(void)
{
    if (exec_under_valgrind()) {
        fprintf(stderr, "under valgrind, which reports the fault itself\n");
        return TEST_SKIP;
    }
    if (!test_first_device(&platform, &device))
        return 1;
    if (!test_compiler_available(device))
        return TEST_SKIP;
    cl_int err = 1;
    context = clCreateContext(NULL, 1, &device, on_error, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_program program = exec_build(source, "");
    if (!program)
        return 1;
    cl_kernel k = exec_kernel(program, "oob");

    CHECK_EQ(run(k, NULL), CL_OUT_OF_RESOURCES);
    CHECK_EQ(heard, 1);
    CHECK_STR(last, "kernel 'oob': SIGSEGV at address 0x10 in work-group "
                    "(3, 1, 0)");

    /* The queue goes on; a run that does not fault says nothing. */
    cl_mem b = exec_buffer(64, NULL);
    CHECK_EQ(run(k, b), CL_COMPLETE);
    cl_int out[16];
    exec_read(b, sizeof(out), out);
    CHECK_EQ(out[4], 1);
    CHECK_EQ(heard, 1);

    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}
