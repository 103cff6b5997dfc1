/* SPDX-License-Identifier: Apache-2.0 */
/*
 * queue/threads: THREADS threads enqueueing into shared in-order and
 * out-of-order queues and queues of their own, across queues through wait
 * lists, completing and failing user events, waiting, finishing, counting
 * callbacks and releasing, all at once (scripts/test.sh runs it under
 * ThreadSanitizer).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "check.h"

#define THREADS 8
#define ROUNDS 200

static cl_device_id device;
static cl_context context;
static cl_command_queue shared_in_order, shared_out_of_order;
static atomic_int completions;

static void CL_CALLBACK count_completion(cl_event event, cl_int status,
                                         void *data)
{
    (void)event;
    (void)status;
    (void)data;
    atomic_fetch_add(&completions, 1);
}

static cl_int status_of(cl_event event)
{
    cl_int status = 99;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    return status;
}

/* One round: a chain u -> shared in-order -> shared out-of-order -> own
 * queue, completed or (every fifth round) failed through the user event. */
static void round_trip(cl_command_queue own, int round)
{
    cl_int err;
    bool fail = round % 5 == 0;
    cl_event u = clCreateUserEvent(context, &err);
    cl_event e[3];
    CHECK_EQ(clEnqueueMarkerWithWaitList(shared_in_order, 1, &u, &e[0]),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueBarrierWithWaitList(shared_out_of_order, 1, &e[0],
                                          &e[1]),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(own, 1, &e[1], &e[2]), CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(e[2], CL_COMPLETE, count_completion, NULL),
             CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, fail ? -1 : CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(3, e),
             fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(status_of(e[i]),
                 fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                      : CL_COMPLETE);
        CHECK_EQ(clReleaseEvent(e[i]), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
    if (round % 16 == 0)
        CHECK_EQ(clFinish(round % 32 ? shared_in_order : shared_out_of_order),
                 CL_SUCCESS);
}

static void *worker(void *arg)
{
    cl_command_queue_properties mode =
        (intptr_t)arg % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
    cl_int err;
    cl_command_queue own = clCreateCommandQueue(context, device, mode, &err);
    CHECK_EQ(err, CL_SUCCESS);
    for (int round = 0; round < ROUNDS; round++)
        round_trip(own, round);
    /* Callbacks run before their command retires: all of this queue's. */
    CHECK_EQ(clFinish(own), CL_SUCCESS);
    /* Released with work of its own still pending, behind a barrier on the
     * shared queue. */
    cl_event last = NULL;
    CHECK_EQ(clEnqueueBarrierWithWaitList(shared_out_of_order, 0, NULL, &last),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(own, 1, &last, NULL), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(last), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(own), CL_SUCCESS);
    return NULL;
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    shared_in_order =
        clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    shared_out_of_order = clCreateCommandQueue(
        context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK_EQ(err, CL_SUCCESS);
    pthread_t threads[THREADS];
    for (intptr_t i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, worker, (void *)i), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    CHECK_EQ(clFinish(shared_in_order), CL_SUCCESS);
    CHECK_EQ(clFinish(shared_out_of_order), CL_SUCCESS);
    /* Every COMPLETE callback, once: failed commands' too. */
    CHECK_EQ(atomic_load(&completions), THREADS * ROUNDS);
    CHECK_EQ(clReleaseCommandQueue(shared_in_order), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(shared_out_of_order), CL_SUCCESS);
    cl_uint refs = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                              sizeof(refs), &refs, NULL),
             CL_SUCCESS);
    CHECK(refs >= 1);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
