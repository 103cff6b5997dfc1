/* SPDX-License-Identifier: Apache-2.0 */
/*
 * event/pending: queues released with work still pending. The work still
 * runs (its events complete), and once the last reference goes, on
 * whichever thread, everything is freed: the context's destructor callback
 * proves the context went, valgrind and LeakSanitizer that nothing leaked,
 * /proc/self/task that no worker thread stayed behind (test_thread_count).
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 20

static cl_device_id device;

/* Contexts destroyed so far, counted by their destructor callbacks. */
static pthread_mutex_t gone_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gone_cond = PTHREAD_COND_INITIALIZER;
static int gone;

static void CL_CALLBACK context_gone(cl_context context, void *data)
{
    (void)context;
    (void)data;
    pthread_mutex_lock(&gone_lock);
    gone++;
    pthread_cond_broadcast(&gone_cond);
    pthread_mutex_unlock(&gone_lock);
}

/* Waits (10 s at most) until @p count contexts are gone. */
static void wait_gone(int count)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&gone_lock);
    while (gone < count &&
           pthread_cond_timedwait(&gone_cond, &gone_lock, &deadline) == 0)
        ;
    CHECK_EQ(gone, count);
    pthread_mutex_unlock(&gone_lock);
}

static cl_context context_new(void)
{
    cl_int err = 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetContextDestructorCallback(context, context_gone, NULL),
             CL_SUCCESS);
    return context;
}

/* A queue in @p context with @p n markers behind a user event, released
 * (queue and markers) before the user event is set. */
static cl_event pending_work(cl_context context,
                             cl_command_queue_properties properties, int n)
{
    cl_int err = 1;
    cl_command_queue queue =
        clCreateCommandQueue(context, device, properties, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event u = clCreateUserEvent(context, &err);
    for (int i = 0; i < n; i++) {
        cl_event marker = NULL;
        CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 1, &u, &marker),
                 CL_SUCCESS);
        CHECK_EQ(clReleaseEvent(marker), CL_SUCCESS);
    }
    CHECK_EQ(clEnqueueBarrier(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    return u;
}

/* Everything released by the application first: the last reference goes
 * on the queue's own worker, when the work completes. */
static void check_released_first(int *expected_gone)
{
    for (int round = 0; round < ROUNDS; round++) {
        cl_context context = context_new();
        cl_command_queue_properties mode =
            round % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
        cl_event u = pending_work(context, mode, 3);
        CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
        CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
        CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
        wait_gone(++*expected_gone);
    }
}

/* A failed user event ends the pending work just as well. */
static void check_failed_work(int *expected_gone)
{
    cl_context context = context_new();
    cl_event u = pending_work(context, 0, 2);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, -3), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
    wait_gone(++*expected_gone);
}

/* The application's last references to queue and event dropped inside the
 * event's own callback, on the worker. */
struct refs {
    cl_command_queue queue;
};

static void CL_CALLBACK release_queue(cl_event event, cl_int status,
                                      void *data)
{
    (void)status;
    struct refs *refs = data;
    CHECK_EQ(clReleaseCommandQueue(refs->queue), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
}

static void check_released_in_callback(int *expected_gone)
{
    static struct refs refs;
    cl_context context = context_new();
    cl_int err;
    refs.queue = clCreateCommandQueue(context, device, 0, &err);
    cl_event u = clCreateUserEvent(context, &err);
    cl_event marker = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(refs.queue, 1, &u, &marker),
             CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(marker, CL_COMPLETE, release_queue, &refs),
             CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
    wait_gone(++*expected_gone);
}

/* Queues of one context waiting on each other's events, all released while
 * pending: whichever worker drops a queue's last reference, no worker
 * joins another. */
static void check_cross_queue(int *expected_gone)
{
    cl_context context = context_new();
    cl_int err;
    cl_command_queue a = clCreateCommandQueue(context, device, 0, &err);
    cl_command_queue b = clCreateCommandQueue(context, device, 0, &err);
    cl_event u = clCreateUserEvent(context, &err);
    cl_event in_a = NULL, in_b = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(a, 1, &u, &in_a), CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(b, 1, &in_a, &in_b), CL_SUCCESS);
    CHECK_EQ(clEnqueueBarrierWithWaitList(a, 1, &in_b, NULL), CL_SUCCESS);
    cl_event handles[] = {in_a, in_b};
    for (int i = 0; i < 2; i++)
        CHECK_EQ(clReleaseEvent(handles[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(a), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(b), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
    wait_gone(++*expected_gone);
}

/* The workers that stopped themselves and exited are joined when an
 * application thread next creates or destroys a queue. (The kernel lets go
 * of an exited thread whether or not it is joined: the thread counts below
 * show that the workers stopped, not that they were joined; the reaping is
 * exercised here under valgrind and the sanitizers.) */
static void reap(void)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

/* The ordinary way: released after clFinish, the worker is joined at once,
 * on this thread, before clReleaseCommandQueue returns: no waiting here. */
static void check_finished_first(int threads)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(clEnqueueBarrier(queue), CL_SUCCESS);
    CHECK_EQ(test_thread_count(), threads + 1);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    /* qemu-user wakes a joiner when the guest thread exits, before its
     * host thread (the task counted) has: allow it 1 s to leave. */
    for (int i = 0; i < 100 && test_emulator() && test_thread_count() != threads;
         i++)
        usleep(10 * 1000);
    CHECK_EQ(test_thread_count(), threads);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

/* Work still running when the process exits, which unload lets complete
 * (refcl_executors_teardown): on queue a, a marker whose callback lingers,
 * then a marker waiting for an event of queue b, whose worker started after
 * a's. Unload stops both and joins b's idle worker first; a's worker, once
 * the callback returns, runs its second marker and drops b's last
 * reference, so destroys b. Nothing to check here: valgrind and
 * AddressSanitizer see b's executor used after unload freed it, if it
 * does, and leaks if anything stays. */
static void CL_CALLBACK linger(cl_event event, cl_int status, void *data)
{
    (void)event;
    (void)status;
    (void)data;
    usleep(100 * 1000);
}

static void leave_work_for_unload(void)
{
    cl_int err = 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue a = clCreateCommandQueue(context, device, 0, &err);
    cl_command_queue b = clCreateCommandQueue(context, device, 0, &err);
    cl_event u = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event first = NULL, in_b = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(a, 1, &u, &first), CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(first, CL_COMPLETE, linger, NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(b, 0, NULL, &in_b), CL_SUCCESS);
    CHECK_EQ(clFinish(b), CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(a, 1, &in_b, NULL), CL_SUCCESS);
    cl_event handles[] = {first, in_b};
    for (int i = 0; i < 2; i++)
        CHECK_EQ(clReleaseEvent(handles[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(b), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(a), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    /* For its side effect (ThreadSanitizer's own thread): its count may
     * still include the thread it just joined. */
    test_thread_baseline();
    int threads = test_thread_count();
    int expected_gone = 0;
    check_finished_first(threads);
    check_released_first(&expected_gone);
    check_failed_work(&expected_gone);
    check_released_in_callback(&expected_gone);
    check_cross_queue(&expected_gone);
    /* Workers that stopped themselves leave on their own time: the last
     * may still be on its way out (it released the context, so called
     * context_gone, just before). 5 s at most. */
    reap();
    for (int i = 0; i < 500 && test_thread_count() != threads; i++) {
        usleep(10 * 1000);
        reap();
    }
    CHECK_EQ(test_thread_count(), threads);
    leave_work_for_unload();
    return TEST_RESULT();
}
