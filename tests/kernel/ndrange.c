/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/ndrange: every check of clEnqueueNDRangeKernel and clEnqueueTask
 * (OpenCL 3.0), in refcl's order: the queue, the kernel, the program's
 * executable for the queue's device, the contexts, unset arguments, the
 * work dimension, offsets that overflow, local sizes against the device
 * and the kernel, the wait list, then what the arguments can hold; and
 * empty ranges, which "trivially succeed" once their wait list is done,
 * with no marker's ordering.
 *
 * Runs on a synthetic machine of 4 units split in two halves, so that a
 * program can be built for one device of a context and not another.
 */
#include <stdint.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device, halves[2];
static cl_context context;      /* device, halves[0], halves[1] */
static cl_command_queue queue;  /* on device */

#define SAXPY "refcl_saxpy_float"

static cl_program program_for(cl_context c, cl_device_id d, const char *names)
{
    cl_int err = 1;
    cl_program p = clCreateProgramWithBuiltInKernels(c, 1, &d, names, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return p;
}

static cl_kernel kernel_of(cl_program p, const char *name)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return k;
}

static cl_command_queue queue_on(cl_device_id d)
{
    cl_int err;
    const cl_queue_properties none[] = {0};
    cl_command_queue q =
        clCreateCommandQueueWithProperties(context, d, none, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return q;
}

/* saxpy with every argument set, its buffers NULL. */
static void set_null_args(cl_kernel k)
{
    float a = 2.0f;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), NULL), CL_SUCCESS);
}

static cl_int enqueue(cl_command_queue q, cl_kernel k, cl_uint dims,
                      const size_t *offset, const size_t *global,
                      const size_t *local)
{
    cl_event sentinel = (cl_event)&sentinel, event = sentinel;
    cl_int err = clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0,
                                        NULL, &event);
    /* "If ... the enqueue is unsuccessful, no event will be created". */
    if (err != CL_SUCCESS)
        CHECK(event == sentinel);
    else
        CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    return err;
}

static void check_handles(void)
{
    cl_program p = program_for(context, device, SAXPY);
    cl_kernel k = kernel_of(p, SAXPY);
    set_null_args(k);
    size_t global = 16;

    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
     * command-queue", before the kernel. */
    cl_command_queue released_queue = queue_on(device);
    CHECK_EQ(clReleaseCommandQueue(released_queue), CL_SUCCESS);
    void *bad[6];
    int n = test_bad_handles(bad, released_queue, context, k);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(enqueue(bad[i], k, 1, NULL, &global, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(enqueue(bad[i], NULL, 0, NULL, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueTask(bad[i], k, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    }
    /* CL_INVALID_KERNEL "if kernel is not a valid kernel". */
    cl_kernel released_kernel = kernel_of(p, SAXPY);
    CHECK_EQ(clReleaseKernel(released_kernel), CL_SUCCESS);
    n = test_bad_handles(bad, released_kernel, p, queue);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(enqueue(queue, bad[i], 1, NULL, &global, NULL),
                 CL_INVALID_KERNEL);
        CHECK_EQ(clEnqueueTask(queue, bad[i], 0, NULL, NULL),
                 CL_INVALID_KERNEL);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built program
 * executable available for the device associated with command_queue": a
 * program for one half, on a queue of the other. A sub-device uses its
 * parent's executable ("If a program binary has not been built for a
 * sub-device, the program binary associated with the parent device will
 * be used"). CL_INVALID_CONTEXT "if the context associated with
 * command_queue and kernel are not the same". */
static void check_program_and_context(void)
{
    size_t global = 0; /* empty: runs with NULL buffers */
    cl_program for_half = program_for(context, halves[0], SAXPY);
    cl_kernel k = kernel_of(for_half, SAXPY);
    set_null_args(k);
    cl_command_queue q0 = queue_on(halves[0]), q1 = queue_on(halves[1]);
    CHECK_EQ(enqueue(q1, k, 1, NULL, &global, NULL),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clEnqueueTask(q1, k, 0, NULL, NULL),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(enqueue(queue, k, 1, NULL, &global, NULL),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(enqueue(q0, k, 1, NULL, &global, NULL), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(for_half), CL_SUCCESS);

    cl_program for_root = program_for(context, device, SAXPY);
    k = kernel_of(for_root, SAXPY);
    set_null_args(k);
    CHECK_EQ(enqueue(q1, k, 1, NULL, &global, NULL), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(for_root), CL_SUCCESS);

    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_program foreign = program_for(other, device, SAXPY);
    k = kernel_of(foreign, SAXPY);
    set_null_args(k);
    CHECK_EQ(enqueue(queue, k, 1, NULL, &global, NULL), CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueTask(queue, k, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(foreign), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK_EQ(clFinish(q0), CL_SUCCESS);
    CHECK_EQ(clFinish(q1), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(q0), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(q1), CL_SUCCESS);
}

static void check_range(void)
{
    cl_program p = program_for(context, device, SAXPY ";refcl_cpu_id");
    cl_kernel k = kernel_of(p, SAXPY);
    size_t g1[1] = {16}, g2[2] = {16, 16}, g3[3] = {4, 4, 4};

    /* CL_INVALID_KERNEL_ARGS "if any kernel arguments for kernel have not
     * been set": none, then some; before the range is looked at. */
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, NULL), CL_INVALID_KERNEL_ARGS);
    float a = 1.0f;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), NULL), CL_SUCCESS);
    CHECK_EQ(enqueue(queue, k, 0, NULL, g1, NULL), CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clEnqueueTask(queue, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), NULL), CL_SUCCESS);

    /* CL_INVALID_WORK_DIMENSION: "work_dim must be greater than zero and
     * less than or equal to CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS" (3). */
    CHECK_EQ(enqueue(queue, k, 0, NULL, g1, NULL), CL_INVALID_WORK_DIMENSION);
    CHECK_EQ(enqueue(queue, k, 4, NULL, g3, NULL), CL_INVALID_WORK_DIMENSION);
    CHECK_EQ(enqueue(queue, k, CL_UINT_MAX, NULL, g3, NULL),
             CL_INVALID_WORK_DIMENSION);

    /* CL_INVALID_GLOBAL_OFFSET "if the value specified in global_work_size
     * plus the corresponding value in global_work_offset for any
     * dimensions is greater than the maximum value representable by
     * size_t". Exactly SIZE_MAX is fine (then the NULL buffers are). */
    size_t big[2] = {SIZE_MAX, 16}, one[2] = {1, 0}, edge[2] = {SIZE_MAX - 1,
                                                              16};
    size_t second[2] = {0, SIZE_MAX - 15};
    CHECK_EQ(enqueue(queue, k, 1, one, big, NULL), CL_INVALID_GLOBAL_OFFSET);
    CHECK_EQ(enqueue(queue, k, 2, second, g2, NULL),
             CL_INVALID_GLOBAL_OFFSET);
    CHECK_EQ(enqueue(queue, k, 1, one, edge, NULL), CL_INVALID_KERNEL_ARGS);
    /* Offsets past work_dim are not read. */
    CHECK_EQ(enqueue(queue, k, 1, second, g1, NULL), CL_INVALID_KERNEL_ARGS);

    /* CL_INVALID_WORK_ITEM_SIZE "if the number of work-items specified in
     * any dimension of local_work_size is not valid for the device" (more
     * than CL_DEVICE_MAX_WORK_ITEM_SIZES, 4096 each), each dimension
     * first; CL_INVALID_WORK_GROUP_SIZE "if the total number of
     * work-items in the work-group is zero" or "greater than ...
     * CL_KERNEL_WORK_GROUP_SIZE" (4096). */
    size_t wide[1] = {4097}, tall[2] = {1, 4097}, zero[1] = {0};
    size_t zero2[2] = {16, 0}, many[2] = {64, 65}, many3[3] = {16, 16, 17};
    size_t fits[1] = {4096}, fits3[3] = {16, 16, 16};
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, wide), CL_INVALID_WORK_ITEM_SIZE);
    CHECK_EQ(enqueue(queue, k, 2, NULL, g2, tall), CL_INVALID_WORK_ITEM_SIZE);
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, zero), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_EQ(enqueue(queue, k, 2, NULL, g2, zero2),
             CL_INVALID_WORK_GROUP_SIZE);
    CHECK_EQ(enqueue(queue, k, 2, NULL, g2, many), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_EQ(enqueue(queue, k, 3, NULL, g3, many3),
             CL_INVALID_WORK_GROUP_SIZE);
    /* Non-uniform work-groups are supported: a local size larger than the
     * global size, or not dividing it, is no error. */
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, fits), CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(enqueue(queue, k, 3, NULL, g3, fits3), CL_INVALID_KERNEL_ARGS);
    size_t odd[1] = {7};
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, odd), CL_INVALID_KERNEL_ARGS);

    /* The wait list: CL_INVALID_EVENT_WAIT_LIST, then CL_INVALID_CONTEXT
     * "if the context associated with command_queue and events in
     * event_wait_list are not the same". */
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    cl_event not_event = (cl_event)context;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, g1, NULL, 1, NULL,
                                    NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, g1, NULL, 0,
                                    &foreign, NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, g1, NULL, 1,
                                    &not_event, NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, g1, NULL, 1, &foreign,
                                    NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueTask(queue, k, 1, &not_event, NULL),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueTask(queue, k, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    CHECK_EQ(clReleaseEvent(foreign), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);

    /* refcl refuses what OpenCL leaves undefined: work-items that would
     * write through a NULL buffer. */
    CHECK_EQ(enqueue(queue, k, 1, NULL, g1, NULL), CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clEnqueueTask(queue, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* "If global_work_size is NULL or the value in any passed dimension is
 * zero then the kernel command will trivially succeed after its event
 * dependencies are satisfied", whatever the buffers. */
static void check_empty(void)
{
    cl_program p = program_for(context, device, SAXPY);
    cl_kernel k = kernel_of(p, SAXPY);
    set_null_args(k);
    size_t zero1[1] = {0}, zero2[2] = {5, 0}, zero3[3] = {1, 1, 0};
    CHECK_EQ(enqueue(queue, k, 1, NULL, zero1, NULL), CL_SUCCESS);
    CHECK_EQ(enqueue(queue, k, 2, NULL, zero2, NULL), CL_SUCCESS);
    CHECK_EQ(enqueue(queue, k, 3, NULL, zero3, NULL), CL_SUCCESS);
    CHECK_EQ(enqueue(queue, k, 1, NULL, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(enqueue(queue, k, 3, NULL, NULL, NULL), CL_SUCCESS);
    /* The range's other checks still apply. */
    size_t wide[1] = {5000};
    CHECK_EQ(enqueue(queue, k, 1, NULL, zero1, wide),
             CL_INVALID_WORK_ITEM_SIZE);
    CHECK_EQ(enqueue(queue, k, 0, NULL, NULL, NULL),
             CL_INVALID_WORK_DIMENSION);

    /* It waits for its wait list, and its event says what it is. */
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err), event = NULL;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, zero1, NULL, 1, &gate,
                                    &event),
             CL_SUCCESS);
    cl_int status = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_QUEUED);
    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_NDRANGE_KERNEL);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_COMPLETE);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);

    /* Not a marker: on an out-of-order queue, "an enqueued kernel with no
     * events passed to event_wait_list may run at any time", before a
     * command still waiting. */
    const cl_queue_properties ooo[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q =
        clCreateCommandQueueWithProperties(context, device, ooo, &err);
    gate = clCreateUserEvent(context, &err);
    cl_event blocked = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &gate, &blocked), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, zero1, NULL, 0, NULL,
                                    &event),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    CHECK_EQ(clGetEventInfo(blocked, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(q), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(blocked), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_device_halves(device, halves))
        return 1;
    cl_int err;
    cl_device_id all[3] = {device, halves[0], halves[1]};
    context = clCreateContext(NULL, 3, all, NULL, NULL, &err);
    queue = queue_on(device);

    check_handles();
    check_program_and_context();
    check_range();
    check_empty();

    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(halves[0]), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(halves[1]), CL_SUCCESS);
    return TEST_RESULT();
}
