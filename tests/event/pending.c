/*
 * event/pending: queues released with work still pending. The work still
 * runs (its events complete), and once the last reference goes, on
 * whichever thread, everything is freed: the context's destructor callback
 * proves the context went, valgrind and LeakSanitizer that nothing leaked,
 * /proc/self/task that no worker thread stayed behind.
 */
#include <pthread.h>
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
 * application thread next creates or destroys a queue. */
static void reap(void)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

/* The ordinary way: released after clFinish, the worker is joined at
 * once. */
static void check_finished_first(int threads)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(clEnqueueBarrier(queue), CL_SUCCESS);
    CHECK_EQ(test_thread_count(), threads + 1);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(test_thread_count(), threads);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    int threads = test_thread_baseline();
    int expected_gone = 0;
    check_finished_first(threads);
    check_released_first(&expected_gone);
    check_failed_work(&expected_gone);
    check_released_in_callback(&expected_gone);
    check_cross_queue(&expected_gone);
    /* The last worker to stop itself may still be on its way out (it
     * released the context, so called context_gone, just before). */
    reap();
    for (int i = 0; i < 500 && test_thread_count() != threads; i++) {
        usleep(10 * 1000);
        reap();
    }
    CHECK_EQ(test_thread_count(), threads);
    return TEST_RESULT();
}
