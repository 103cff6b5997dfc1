/* SPDX-License-Identifier: Apache-2.0 */
/*
 * event/event: markers and barriers with wait lists in in-order and
 * out-of-order queues (and the OpenCL 1.1 marker, barrier and wait calls),
 * the event status life cycle, callbacks (once each, in status order, also
 * for statuses already reached), user events completing and failing the
 * commands that wait on them, clWaitForEvents, clGetEventInfo, profiling
 * timestamps on the device clock, reference counts and every error code.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;

/* ---- a log of callback calls ----------------------------------------- */

#define LOG_MAX 64
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_tags[LOG_MAX];
static cl_int log_args[LOG_MAX];
static int log_count;

/* Tag: 10 * an event number + the status the callback was set for. */
static void CL_CALLBACK log_call(cl_event event, cl_int status, void *tag)
{
    (void)event;
    pthread_mutex_lock(&log_lock);
    if (log_count < LOG_MAX) {
        log_tags[log_count] = (int)(intptr_t)tag;
        log_args[log_count] = status;
    }
    log_count++;
    pthread_mutex_unlock(&log_lock);
}

static void log_reset(void)
{
    pthread_mutex_lock(&log_lock);
    log_count = 0;
    pthread_mutex_unlock(&log_lock);
}

static int log_size(void)
{
    pthread_mutex_lock(&log_lock);
    int n = log_count;
    pthread_mutex_unlock(&log_lock);
    return n;
}

/* Entry @p i of the log is tag @p tag, called with @p arg. */
static void check_log(int i, int tag, cl_int arg)
{
    pthread_mutex_lock(&log_lock);
    int n = log_count, got_tag = i < n ? log_tags[i] : -1;
    cl_int got_arg = i < n ? log_args[i] : 99;
    pthread_mutex_unlock(&log_lock);
    CHECK(i < n);
    CHECK_EQ(got_tag, tag);
    CHECK_EQ(got_arg, arg);
}

static void set_callbacks(cl_event event, int number)
{
    const cl_int types[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clSetEventCallback(event, types[i], log_call,
                                    (void *)(intptr_t)(10 * number + types[i])),
                 CL_SUCCESS);
}

/* ---- helpers ---------------------------------------------------------- */

static cl_int status_of(cl_event event)
{
    cl_int status = 99;
    size_t size = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(status));
    return status;
}

static cl_uint refcount_of(cl_event event)
{
    cl_uint count = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT, sizeof(count),
                            &count, NULL),
             CL_SUCCESS);
    return count;
}

static cl_command_queue queue_new(cl_command_queue_properties properties)
{
    cl_int err = 1;
    cl_command_queue queue =
        clCreateCommandQueue(context, device, properties, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return queue;
}

static cl_event user_event(void)
{
    cl_int err = 1;
    cl_event event = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return event;
}

static cl_event marker(cl_command_queue queue, cl_uint n, const cl_event *list)
{
    cl_event event = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, n, list, &event), CL_SUCCESS);
    return event;
}

static cl_event barrier(cl_command_queue queue, cl_uint n, const cl_event *list)
{
    cl_event event = NULL;
    CHECK_EQ(clEnqueueBarrierWithWaitList(queue, n, list, &event),
             CL_SUCCESS);
    return event;
}

static void release_all(cl_event *events, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_EQ(clReleaseEvent(events[i]), CL_SUCCESS);
}

/* Gives the worker a chance to (wrongly) run what must stay blocked. */
static void settle(void)
{
    usleep(20 * 1000);
}

/* ---- ordering --------------------------------------------------------- */

/* In order: a marker waits for its list and everything before it. */
static void check_in_order(void)
{
    cl_command_queue queue = queue_new(0);
    cl_event u = user_event();
    cl_event e[3];
    e[0] = marker(queue, 1, &u);
    e[1] = marker(queue, 0, NULL);
    e[2] = barrier(queue, 0, NULL);
    log_reset();
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clSetEventCallback(e[i], CL_COMPLETE, log_call,
                                    (void *)(intptr_t)i),
                 CL_SUCCESS);
    settle();
    /* Blocked commands stay CL_QUEUED, as the CTS's user-event test asks. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(status_of(e[i]), CL_QUEUED);
    CHECK_EQ(log_size(), 0);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    /* clFinish returns with the callbacks of the queue's commands done. */
    CHECK_EQ(log_size(), 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(status_of(e[i]), CL_COMPLETE);
        check_log(i, i, CL_COMPLETE);
    }
    release_all(e, 3);
    release_all(&u, 1);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* Out of order: commands pass each other unless a wait list, a barrier or
 * an empty-list marker orders them. */
static void check_out_of_order(void)
{
    cl_command_queue queue = queue_new(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u[2] = {user_event(), user_event()};
    cl_event m0 = marker(queue, 1, &u[0]);
    cl_event m1 = marker(queue, 1, &u[1]);
    CHECK_EQ(clSetUserEventStatus(u[1], CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &m1), CL_SUCCESS);
    CHECK_EQ(status_of(m0), CL_QUEUED); /* passed by m1 */

    /* An empty-list marker waits for everything before it... */
    cl_event all = marker(queue, 0, NULL);
    /* ...a barrier too, and it holds back what comes after it, even a
     * marker whose own list is already complete. */
    cl_event wall = barrier(queue, 0, NULL);
    cl_event after = marker(queue, 1, &u[1]);
    settle();
    CHECK_EQ(status_of(all), CL_QUEUED);
    CHECK_EQ(status_of(wall), CL_QUEUED);
    CHECK_EQ(status_of(after), CL_QUEUED);

    log_reset();
    CHECK_EQ(clSetEventCallback(m0, CL_COMPLETE, log_call, (void *)0),
             CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(wall, CL_COMPLETE, log_call, (void *)1),
             CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(after, CL_COMPLETE, log_call, (void *)2),
             CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u[0], CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(log_size(), 3);
    for (int i = 0; i < 3; i++)
        check_log(i, i, CL_COMPLETE);
    cl_event done[] = {m0, m1, all, wall, after};
    CHECK_EQ(clWaitForEvents(5, done), CL_SUCCESS);

    /* A barrier with a wait list waits for that list only, then holds the
     * queue. */
    cl_event u2 = user_event();
    cl_event free_runner = marker(queue, 1, &u2);
    cl_event gate = barrier(queue, 1, &u[0]); /* complete already */
    cl_event later = marker(queue, 0, NULL);  /* waits for all: u2 too */
    CHECK_EQ(clWaitForEvents(1, &gate), CL_SUCCESS);
    settle();
    CHECK_EQ(status_of(free_runner), CL_QUEUED);
    CHECK_EQ(status_of(later), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(u2, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(status_of(later), CL_COMPLETE);

    cl_event events[] = {m0, m1, all, wall, after, u[0], u[1], u2,
                         free_runner, gate, later};
    release_all(events, 11);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* Wait lists across queues of one context. */
static void check_across_queues(void)
{
    cl_command_queue a = queue_new(0);
    cl_command_queue b = queue_new(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u = user_event();
    cl_event first = marker(a, 1, &u);
    cl_event second = barrier(b, 1, &first);
    cl_event third = marker(a, 1, &second);
    settle();
    CHECK_EQ(status_of(third), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &third), CL_SUCCESS);
    CHECK_EQ(status_of(first), CL_COMPLETE);
    CHECK_EQ(status_of(second), CL_COMPLETE);
    cl_event events[] = {u, first, second, third};
    release_all(events, 4);
    CHECK_EQ(clReleaseCommandQueue(a), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(b), CL_SUCCESS);
}

/* ---- wait-list errors ------------------------------------------------- */

static void check_wait_list_errors(cl_command_queue queue)
{
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    cl_event released = user_event();
    CHECK_EQ(clReleaseEvent(released), CL_SUCCESS);
    cl_event valid = user_event();
    CHECK_EQ(clSetUserEventStatus(valid, CL_COMPLETE), CL_SUCCESS);

    const struct {
        cl_uint n;
        const cl_event *list;
        cl_int expected;
    } cases[] = {
        {1, NULL, CL_INVALID_EVENT_WAIT_LIST},
        {0, &valid, CL_INVALID_EVENT_WAIT_LIST},
        {1, (cl_event *)&context, CL_INVALID_EVENT_WAIT_LIST},
        {1, &released, CL_INVALID_EVENT_WAIT_LIST},
        {1, &foreign, CL_INVALID_CONTEXT},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        /* "If ... the enqueue is unsuccessful, no event will be created." */
        cl_event event = NULL;
        CHECK_EQ(clEnqueueMarkerWithWaitList(queue, cases[i].n, cases[i].list,
                                             &event),
                 cases[i].expected);
        CHECK(event == NULL);
        CHECK_EQ(clEnqueueBarrierWithWaitList(queue, cases[i].n,
                                              cases[i].list, &event),
                 cases[i].expected);
        CHECK(event == NULL);
    }

    /* clEnqueueWaitForEvents takes an event list, not a wait list. */
    CHECK_EQ(clEnqueueWaitForEvents(queue, 0, &valid), CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueWaitForEvents(queue, 1, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueWaitForEvents(queue, 1, &released), CL_INVALID_EVENT);
    CHECK_EQ(clEnqueueWaitForEvents(queue, 1, &foreign), CL_INVALID_CONTEXT);
    cl_event mixed[] = {valid, foreign};
    CHECK_EQ(clEnqueueWaitForEvents(queue, 2, mixed), CL_INVALID_CONTEXT);
    CHECK_EQ(clEnqueueMarker(queue, NULL), CL_INVALID_VALUE);

    /* clWaitForEvents likewise. */
    CHECK_EQ(clWaitForEvents(0, &valid), CL_INVALID_VALUE);
    CHECK_EQ(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clWaitForEvents(1, &released), CL_INVALID_EVENT);
    cl_event invalid_second[] = {valid, released};
    CHECK_EQ(clWaitForEvents(2, invalid_second), CL_INVALID_EVENT);
    CHECK_EQ(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
    CHECK_EQ(clWaitForEvents(1, &valid), CL_SUCCESS);

    CHECK_EQ(clReleaseEvent(valid), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(foreign), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
}

/* ---- the OpenCL 1.1 calls -------------------------------------------- */

static void check_legacy_calls(void)
{
    cl_command_queue queue = queue_new(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u = user_event();
    cl_event blocked = marker(queue, 1, &u);
    /* clEnqueueMarker waits for everything enqueued before it. */
    cl_event all = NULL;
    CHECK_EQ(clEnqueueMarker(queue, &all), CL_SUCCESS);
    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(all, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_MARKER);
    /* clEnqueueBarrier holds back what comes after it. */
    CHECK_EQ(clEnqueueBarrier(queue), CL_SUCCESS);
    cl_event after = marker(queue, 0, NULL);
    settle();
    CHECK_EQ(status_of(all), CL_QUEUED);
    CHECK_EQ(status_of(after), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(status_of(after), CL_COMPLETE);

    /* clEnqueueWaitForEvents: later commands wait for the listed events,
     * earlier ones do not. */
    cl_event u2 = user_event();
    cl_event earlier = marker(queue, 0, NULL);
    CHECK_EQ(clEnqueueWaitForEvents(queue, 1, &u2), CL_SUCCESS);
    cl_event held = marker(queue, 0, NULL);
    CHECK_EQ(clWaitForEvents(1, &earlier), CL_SUCCESS);
    settle();
    CHECK_EQ(status_of(held), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(u2, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &held), CL_SUCCESS);

    cl_event events[] = {u, blocked, all, after, u2, earlier, held};
    release_all(events, 7);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* ---- status and callbacks --------------------------------------------- */

static void check_callback_errors(cl_event event)
{
    CHECK_EQ(clSetEventCallback(event, CL_COMPLETE, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetEventCallback(event, CL_QUEUED, log_call, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetEventCallback(event, 7, log_call, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clSetEventCallback(event, -1, log_call, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clSetEventCallback((cl_event)context, CL_COMPLETE, log_call,
                                NULL),
             CL_INVALID_EVENT);
}

/* A command's callbacks: once each, SUBMITTED, RUNNING, COMPLETE; set
 * after the fact, at once. */
static void check_command_callbacks(cl_command_queue queue)
{
    cl_event u = user_event();
    cl_event e = marker(queue, 1, &u);
    check_callback_errors(e);
    log_reset();
    set_callbacks(e, 1);
    settle();
    CHECK_EQ(log_size(), 0);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(log_size(), 3);
    check_log(0, 10 + CL_SUBMITTED, CL_SUBMITTED);
    check_log(1, 10 + CL_RUNNING, CL_RUNNING);
    check_log(2, 10 + CL_COMPLETE, CL_COMPLETE);

    /* Registered when the status is reached: called before returning, with
     * the status it was registered for. */
    set_callbacks(e, 2);
    CHECK_EQ(log_size(), 6);
    check_log(3, 20 + CL_SUBMITTED, CL_SUBMITTED);
    check_log(4, 20 + CL_RUNNING, CL_RUNNING);
    check_log(5, 20 + CL_COMPLETE, CL_COMPLETE);
    settle();
    CHECK_EQ(log_size(), 6); /* and never again */
    release_all(&u, 1);
    release_all(&e, 1);
}

/* A user event starts SUBMITTED: its SUBMITTED callback runs at once, the
 * others when its status is set. */
static void check_user_callbacks(void)
{
    cl_event u = user_event();
    log_reset();
    set_callbacks(u, 3);
    CHECK_EQ(log_size(), 1);
    check_log(0, 30 + CL_SUBMITTED, CL_SUBMITTED);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(log_size(), 3);
    check_log(1, 30 + CL_RUNNING, CL_RUNNING);
    check_log(2, 30 + CL_COMPLETE, CL_COMPLETE);
    release_all(&u, 1);

    /* A failed user event passes its error to the callbacks still due. */
    u = user_event();
    log_reset();
    set_callbacks(u, 4);
    CHECK_EQ(clSetUserEventStatus(u, -55), CL_SUCCESS);
    CHECK_EQ(log_size(), 3);
    check_log(0, 40 + CL_SUBMITTED, CL_SUBMITTED);
    check_log(1, 40 + CL_RUNNING, -55);
    check_log(2, 40 + CL_COMPLETE, -55);
    set_callbacks(u, 5); /* after the failure: the error for every one */
    CHECK_EQ(log_size(), 6);
    check_log(3, 50 + CL_SUBMITTED, -55);
    check_log(4, 50 + CL_RUNNING, -55);
    check_log(5, 50 + CL_COMPLETE, -55);
    release_all(&u, 1);
}

static void CL_CALLBACK release_in_callback(cl_event event, cl_int status,
                                            void *data)
{
    (void)status;
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    atomic_fetch_add((atomic_int *)data, 1);
}

/* A callback may release the event it is called for. */
static void check_release_in_callback(cl_command_queue queue)
{
    /* The user event's callback runs on this thread, the marker's on the
     * worker, maybe at the same time. */
    static atomic_int calls;
    cl_event u = user_event();
    cl_event e = marker(queue, 1, &u);
    CHECK_EQ(clSetEventCallback(e, CL_COMPLETE, release_in_callback, &calls),
             CL_SUCCESS);
    CHECK_EQ(clSetEventCallback(u, CL_COMPLETE, release_in_callback, &calls),
             CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(atomic_load(&calls), 2);
}

/* ---- user events ------------------------------------------------------ */

static void check_user_events(cl_command_queue queue)
{
    cl_int err = 1;
    CHECK(clCreateUserEvent((cl_context)device, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
    CHECK(clCreateUserEvent((cl_context)device, NULL) == NULL);

    cl_event u = user_event();
    cl_command_queue q = (cl_command_queue)1;
    cl_context c = NULL;
    cl_command_type type = 0;
    CHECK_EQ(status_of(u), CL_SUBMITTED);
    CHECK_EQ(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL),
             CL_SUCCESS);
    CHECK(q == NULL);
    CHECK_EQ(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof(c), &c, NULL),
             CL_SUCCESS);
    CHECK(c == context);
    CHECK_EQ(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_USER);
    cl_ulong t;
    CHECK_EQ(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED,
                                     sizeof(t), &t, NULL),
             CL_PROFILING_INFO_NOT_AVAILABLE);

    /* Only CL_COMPLETE or a negative value, and only once. */
    CHECK_EQ(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
    CHECK_EQ(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
    CHECK_EQ(clSetUserEventStatus(u, CL_QUEUED), CL_INVALID_VALUE);
    CHECK_EQ(clSetUserEventStatus(u, 12345), CL_INVALID_VALUE);
    CHECK_EQ(status_of(u), CL_SUBMITTED);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_EQ(clSetUserEventStatus(u, -1), CL_INVALID_OPERATION);
    CHECK_EQ(status_of(u), CL_COMPLETE);

    /* Not a user event: a command's event, or no event at all. */
    cl_event e = marker(queue, 0, NULL);
    CHECK_EQ(clSetUserEventStatus(e, CL_COMPLETE), CL_INVALID_EVENT);
    CHECK_EQ(clSetUserEventStatus((cl_event)context, CL_COMPLETE),
             CL_INVALID_EVENT);
    CHECK_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
    release_all(&e, 1);
    release_all(&u, 1);
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_EVENT);
}

/* "A negative integer value causes all enqueued commands that wait on this
 * user event to be terminated." */
static void check_user_event_failure(void)
{
    cl_command_queue queue = queue_new(0);
    cl_event u = user_event();
    cl_event e[4];
    for (int i = 0; i < 4; i++)
        e[i] = marker(queue, 1, &u);
    cl_event chained = marker(queue, 1, &e[3]); /* waits on a failure */
    cl_event plain = marker(queue, 0, NULL);    /* only queue order */
    log_reset();
    set_callbacks(e[0], 6);
    settle();
    for (int i = 0; i < 4; i++)
        CHECK_EQ(status_of(e[i]), CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(u, -1), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(4, e),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(status_of(e[i]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(clWaitForEvents(1, &chained),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* Queue order is order only: the queue goes on working. */
    CHECK_EQ(clWaitForEvents(1, &plain), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    /* The failed command never ran: every callback got the error. */
    const cl_int types[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
    CHECK_EQ(log_size(), 3);
    for (int i = 0; i < 3; i++)
        check_log(i, 60 + types[i],
                  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_ulong t;
    CHECK_EQ(clGetEventProfilingInfo(e[0], CL_PROFILING_COMMAND_END,
                                     sizeof(t), &t, NULL),
             CL_PROFILING_INFO_NOT_AVAILABLE);
    release_all(e, 4);
    cl_event rest[] = {u, chained, plain};
    release_all(rest, 3);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* clWaitForEvents sleeps until another thread completes the event. */
static void *complete_later(void *event)
{
    usleep(50 * 1000);
    CHECK_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
    return NULL;
}

static void check_wait_across_threads(cl_command_queue queue)
{
    cl_event u = user_event();
    cl_event e = marker(queue, 1, &u);
    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, NULL, complete_later, u), 0);
    CHECK_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK_EQ(status_of(u), CL_COMPLETE);
    pthread_join(thread, NULL);
    cl_event events[] = {u, e};
    release_all(events, 2);
}

/* ---- clGetEventInfo --------------------------------------------------- */

static void check_event_info(cl_command_queue queue)
{
    cl_event e = marker(queue, 0, NULL);
    /* clFinish, not clWaitForEvents: it returns once the queue has dropped
     * its own references to its commands, so the counts below are exact. */
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_command_queue q = NULL;
    cl_context c = NULL;
    cl_command_type type = 0;
    size_t size = 0;
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, &size),
             CL_SUCCESS);
    CHECK(q == queue);
    CHECK_EQ(size, sizeof(q));
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof(c), &c, &size),
             CL_SUCCESS);
    CHECK(c == context);
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_command_type));
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_MARKER);

    /* Reference counts; a completed command's event no longer holds its
     * queue, which counts the application's reference alone. */
    cl_uint queue_refs = 0;
    CHECK_EQ(refcount_of(e), 1);
    CHECK_EQ(clRetainEvent(e), CL_SUCCESS);
    CHECK_EQ(refcount_of(e), 2);
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT,
                                   sizeof(queue_refs), &queue_refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(queue_refs, 1);
    CHECK_EQ(clReleaseEvent(e), CL_SUCCESS);

    /* Sizes, unknown names, short buffers left untouched. */
    cl_int status = 77;
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status) - 1, &status, &size),
             CL_INVALID_VALUE);
    CHECK_EQ(status, 77);
    CHECK_EQ(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, 0, &status, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetEventInfo(e, 0x11D5 /* after CL_EVENT_CONTEXT */,
                            sizeof(status), &status, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetEventInfo(e, 0, sizeof(status), &status, NULL),
             CL_INVALID_VALUE);

    /* The event carries the loader's dispatch data, as its queue does. */
    CHECK(test_object_word(e, 0) == test_object_word(queue, 0));
    CHECK(test_object_word(e, 1) == test_object_word(queue, 1));
    cl_event u = user_event();
    CHECK(test_object_word(u, 1) == test_object_word(context, 1));
    release_all(&u, 1);
    release_all(&e, 1);
}

/* ---- profiling -------------------------------------------------------- */

static cl_ulong profile(cl_event event, cl_profiling_info name)
{
    cl_ulong value = 0;
    size_t size = 0;
    CHECK_EQ(clGetEventProfilingInfo(event, name, sizeof(value), &value,
                                     &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(value));
    return value;
}

static void check_profiling(void)
{
    cl_command_queue queue = queue_new(CL_QUEUE_PROFILING_ENABLE);
    cl_ulong before = 0, after = 0, host;
    CHECK_EQ(clGetDeviceAndHostTimer(device, &before, &host), CL_SUCCESS);
    cl_event u = user_event();
    cl_event e = marker(queue, 1, &u);
    cl_ulong t;
    /* Not complete yet. */
    CHECK_EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED,
                                     sizeof(t), &t, NULL),
             CL_PROFILING_INFO_NOT_AVAILABLE);
    settle();
    CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK_EQ(clGetDeviceAndHostTimer(device, &after, &host), CL_SUCCESS);

    /* Ordered, and on the device clock of clGetDeviceAndHostTimer. */
    cl_ulong queued = profile(e, CL_PROFILING_COMMAND_QUEUED);
    cl_ulong submit = profile(e, CL_PROFILING_COMMAND_SUBMIT);
    cl_ulong start = profile(e, CL_PROFILING_COMMAND_START);
    cl_ulong end = profile(e, CL_PROFILING_COMMAND_END);
    cl_ulong complete = profile(e, CL_PROFILING_COMMAND_COMPLETE);
    CHECK(before <= queued);
    CHECK(queued <= submit && submit <= start && start <= end);
    CHECK_EQ(complete, end);
    CHECK(end <= after);
    /* It waited for the user event: submitted only after settle(). */
    CHECK(submit - queued >= 20 * 1000 * 1000);

    cl_ulong untouched = 5;
    size_t size = 5;
    CHECK_EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END,
                                     sizeof(cl_ulong) - 1, &untouched, &size),
             CL_INVALID_VALUE);
    CHECK_EQ(untouched, 5);
    CHECK_EQ(size, 5);
    CHECK_EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 0, NULL,
                                     &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_ulong));
    CHECK_EQ(clGetEventProfilingInfo(e, 0x1285, sizeof(t), &t, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetEventProfilingInfo((cl_event)queue,
                                     CL_PROFILING_COMMAND_END, sizeof(t), &t,
                                     NULL),
             CL_INVALID_EVENT);
    cl_event events[] = {u, e};
    release_all(events, 2);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);

    /* Without CL_QUEUE_PROFILING_ENABLE. */
    queue = queue_new(0);
    e = marker(queue, 0, NULL);
    CHECK_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
    CHECK_EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof(t),
                                     &t, NULL),
             CL_PROFILING_INFO_NOT_AVAILABLE);
    release_all(&e, 1);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* ---- bad handles ------------------------------------------------------ */

static void check_bad_events(cl_command_queue queue)
{
    cl_event released = marker(queue, 0, NULL);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, context);
    for (int i = 0; i < count; i++) {
        cl_event list[1] = {bad[i]};
        cl_int status = 9;
        cl_ulong t = 9;
        CHECK_EQ(clGetEventInfo(bad[i], CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(status), &status, NULL),
                 CL_INVALID_EVENT);
        CHECK_EQ(status, 9);
        CHECK_EQ(clGetEventProfilingInfo(bad[i], CL_PROFILING_COMMAND_END,
                                         sizeof(t), &t, NULL),
                 CL_INVALID_EVENT);
        CHECK_EQ(clRetainEvent(bad[i]), CL_INVALID_EVENT);
        CHECK_EQ(clReleaseEvent(bad[i]), CL_INVALID_EVENT);
        CHECK_EQ(clSetUserEventStatus(bad[i], CL_COMPLETE), CL_INVALID_EVENT);
        CHECK_EQ(clSetEventCallback(bad[i], CL_COMPLETE, log_call, NULL),
                 CL_INVALID_EVENT);
        CHECK_EQ(clWaitForEvents(1, list), CL_INVALID_EVENT);
        CHECK_EQ(clEnqueueWaitForEvents(queue, 1, list), CL_INVALID_EVENT);
        CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 1, list, NULL),
                 CL_INVALID_EVENT_WAIT_LIST);
    }
}

int main(void)
{
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_command_queue queue = queue_new(0);

    check_in_order();
    check_out_of_order();
    check_across_queues();
    check_wait_list_errors(queue);
    check_legacy_calls();
    check_command_callbacks(queue);
    check_user_callbacks();
    check_release_in_callback(queue);
    check_user_events(queue);
    check_user_event_failure();
    check_wait_across_threads(queue);
    check_event_info(queue);
    check_profiling();
    check_bad_events(queue);

    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
