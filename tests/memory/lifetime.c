/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/lifetime: a memory object dies when the application lets go and
 * its commands are done. Once the application has seen the last command
 * using a buffer complete (clWaitForEvents, clFinish, a blocking command,
 * an event callback) and releases the buffer, its destructor callback has
 * run, on the releasing thread, before clReleaseMemObject returns; many
 * rounds of each way, in-order and out of order, for the races to show.
 * A buffer released while a command still waits to use it lives until
 * that command is done; a sub-buffer keeps its buffer alive, and they go
 * sub-buffer first.
 */
#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS_MAX 1000
#define ROUNDS_MIN 50
#define SECONDS_MAX 2.0

enum observe { WAIT, FINISH, BLOCKING, CALLBACK, OBSERVE_COUNT };
static const char *const observe_names[] = {"clWaitForEvents", "clFinish",
                                            "blocking read",
                                            "event callback"};

static cl_device_id device;
static cl_context context;

/* Destructor calls: how many, on which thread, in which order. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int destroyed;
static bool on_releasing_thread;
static pthread_t releasing;
static char order[8];

static void CL_CALLBACK on_destroy(cl_mem mem, void *tag)
{
    (void)mem;
    pthread_mutex_lock(&log_lock);
    if (destroyed < (int)sizeof(order) - 1)
        order[destroyed] = *(const char *)tag;
    destroyed++;
    on_releasing_thread = pthread_equal(pthread_self(), releasing);
    pthread_mutex_unlock(&log_lock);
}

static int destroyed_count(void)
{
    pthread_mutex_lock(&log_lock);
    int n = destroyed;
    pthread_mutex_unlock(&log_lock);
    return n;
}

static void log_reset(void)
{
    pthread_mutex_lock(&log_lock);
    destroyed = 0;
    memset(order, 0, sizeof(order));
    releasing = pthread_self();
    pthread_mutex_unlock(&log_lock);
}

/* Copies into a fresh buffer, sees the copy complete the @p how way,
 * releases the buffer. @return true when the destructor had run on this
 * thread by then. */
static bool round_trip(cl_command_queue queue, cl_mem src, enum observe how)
{
    cl_int err;
    cl_mem mem = clCreateBuffer(context, 0, 64, NULL, &err);
    static const char tag = 'b';
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)&tag),
             CL_SUCCESS);
    log_reset();
    cl_event event = NULL;
    CHECK_EQ(clEnqueueCopyBuffer(queue, src, mem, 0, 0, 64, 0, NULL,
                                 how == FINISH ? NULL : &event),
             CL_SUCCESS);
    unsigned char b;
    switch (how) {
    case WAIT:
        CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        break;
    case FINISH:
        CHECK_EQ(clFinish(queue), CL_SUCCESS);
        break;
    case BLOCKING:
        /* Waits for the copy (its wait list), holds the buffer itself. */
        CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, 1, &b, 1, &event,
                                     NULL),
                 CL_SUCCESS);
        break;
    case CALLBACK:
        CHECK_EQ(clSetEventCallback(event, CL_COMPLETE, test_signal_complete,
                                    NULL),
                 CL_SUCCESS);
        test_signal_wait();
        break;
    default:
        break;
    }
    if (event)
        CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    pthread_mutex_lock(&log_lock);
    bool ok = destroyed == 1 && on_releasing_thread;
    pthread_mutex_unlock(&log_lock);
    return ok;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check_way(enum observe how, cl_command_queue_properties props)
{
    cl_int err;
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, list, &err);
    cl_mem src = clCreateBuffer(context, 0, 64, NULL, &err);
    int rounds = 0, late = 0;
    double start = seconds();
    while (rounds < ROUNDS_MAX &&
           (rounds < ROUNDS_MIN || seconds() - start < SECONDS_MAX)) {
        late += !round_trip(queue, src, how);
        rounds++;
    }
    if (late)
        fprintf(stderr,
                "%s, %s queue: destructor not run by the last release in %d "
                "of %d rounds\n",
                observe_names[how], props ? "out-of-order" : "in-order", late,
                rounds);
    CHECK_EQ(late, 0);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

static cl_uint refcount(cl_mem mem)
{
    cl_uint count = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof(count),
                                &count, NULL),
             CL_SUCCESS);
    return count;
}

/* Released with a command still waiting: the command holds the buffer,
 * does its work, and the buffer goes when it is done. */
static void check_pending(void)
{
    cl_int err;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    unsigned char host[64];
    memset(host, 0, sizeof(host));
    cl_mem mem = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 64, host, &err);
    static const char tag = 'p';
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)&tag),
             CL_SUCCESS);
    log_reset();
    cl_event gate = clCreateUserEvent(context, &err);
    const unsigned char pattern = 0x3c;
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, &pattern, 1, 0, 64, 1, &gate,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(refcount(mem), 2);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    usleep(10 * 1000);
    CHECK_EQ(destroyed_count(), 0);
    CHECK_EQ(host[0], 0);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(destroyed_count(), 1);
    CHECK_EQ(host[63], 0x3c);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);

    /* A failed wait list: the command never runs, and still lets go. */
    mem = clCreateBuffer(context, 0, 64, NULL, &err);
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)&tag),
             CL_SUCCESS);
    log_reset();
    gate = clCreateUserEvent(context, &err);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, &pattern, 1, 0, 64, 1, &gate,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(gate, -1), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(destroyed_count(), 1);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* A sub-buffer holds its buffer: released first, the buffer lives on, and
 * goes right after its last sub-buffer. */
static void check_sub_buffer(void)
{
    cl_int err;
    cl_mem parent = clCreateBuffer(context, 0, 512, NULL, &err);
    cl_buffer_region region = {256, 64};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    static const char p = 'P', s = 'S';
    CHECK_EQ(clSetMemObjectDestructorCallback(parent, on_destroy, (void *)&p),
             CL_SUCCESS);
    CHECK_EQ(clSetMemObjectDestructorCallback(sub, on_destroy, (void *)&s),
             CL_SUCCESS);
    log_reset();
    CHECK_EQ(clReleaseMemObject(parent), CL_SUCCESS);
    CHECK_EQ(destroyed_count(), 0);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(destroyed_count(), 2);
    CHECK_STR(order, "SP");
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_pending();
    check_sub_buffer();
    for (int how = 0; how < OBSERVE_COUNT; how++)
        for (int ooo = 0; ooo < 2; ooo++)
            check_way((enum observe)how,
                      ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
