/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Events: their life cycle and callbacks, user events, clWaitForEvents,
 * clGetEventInfo and clGetEventProfilingInfo, retain/release. The commands
 * behind command events run in their queue's executor (queue/executor.c),
 * which registers what this layer must know of queues at load.
 *
 * Status only moves forward (QUEUED 3 > SUBMITTED 2 > RUNNING 1 > COMPLETE
 * 0 > errors), so "a status reached" is status <= that status. Every
 * callback is called exactly once: it leaves the event's list, under the
 * event's lock, at the transition that reaches its status, or at
 * registration when the status is already reached.
 *
 * Completion is pushed: the final status, stored under the event's lock,
 * wakes the threads waiting for this event (each on a condition variable
 * of its own) and, once the lock is dropped, tells the queue of each
 * command waiting for it. Nothing polls, and nobody else wakes.
 */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/event.h"
#include "refcl/info.h"

struct refcl_callback {
    void(CL_CALLBACK *fn)(cl_event event, cl_int status, void *user_data);
    void *user_data;
    cl_int trigger; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    cl_int arg;     /* what fn gets: trigger, or the error that ended it */
    struct refcl_callback *next;
};

/* A thread in refcl_event_wait, on its own stack: it sleeps on `wake`
 * with the event's lock, and the final status wakes it alone. */
struct refcl_waiter {
    pthread_cond_t wake;
    bool woken;
    struct refcl_waiter *next;
};

/* The events' locks: a fixed table, never freed, so that storing a final
 * status under one can be the last thing the completing thread does with
 * an event the application may destroy the moment it sees that status.
 * Events are slots of one pool, so neighbours get different locks. */
#define EVENT_LOCKS 64u
static pthread_mutex_t event_locks[EVENT_LOCKS] = {
    [0 ... EVENT_LOCKS - 1] = PTHREAD_MUTEX_INITIALIZER};

pthread_mutex_t *refcl_event_lock(const struct _cl_event *event)
{
    return &event_locks[(uintptr_t)event / REFCL_SLOT_ALIGN % EVENT_LOCKS];
}

/* How long a waiter spins before it sleeps: longer than a command's
 * hand-over between two threads that have a CPU each (well under a
 * microsecond), far shorter than a time slice, so that a waiter whose
 * command takes longer costs little CPU before it sleeps. */
#define SPIN_NS 20000u
/* Checks with a pause between them before the spin starts yielding: about
 * a microsecond. */
#define SPIN_PAUSES 256u

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

bool refcl_spin_until(bool (*done)(const void *arg), const void *arg)
{
    for (unsigned i = 0; i < SPIN_PAUSES; i++) {
        if (done(arg))
            return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield"); /* arm64's spin-wait hint */
#endif
    }
    uint64_t deadline = now_ns() + SPIN_NS;
    do {
        sched_yield();
        if (done(arg))
            return true;
    } while (now_ns() < deadline);
    return false;
}

static const struct refcl_queue_hooks *queue_hooks;

void refcl_event_queue_register(const struct refcl_queue_hooks *hooks)
{
    queue_hooks = hooks;
}

struct _cl_event *refcl_event_create(struct _cl_context *context,
                                     struct _cl_command_queue *queue,
                                     cl_command_type type, bool profiling)
{
    struct refcl_object *parent = queue ? refcl_header(queue) : &context->obj;
    struct _cl_event *event = refcl_object_alloc(REFCL_EVENT, parent,
                                                 context->obj.platform, NULL);
    if (!event)
        return NULL;
    refcl_object_retain(&context->obj);
    event->context = context;
    if (queue) {
        refcl_object_retain(refcl_header(queue));
        event->holds_queue = true;
        event->profiling = profiling;
    }
    event->queue = queue;
    event->command_type = type;
    /* "CL_QUEUED ... This is the initial state of all events except user
     * events"; "The initial execution status for the user event object is
     * CL_SUBMITTED." */
    event->times[REFCL_TIME_QUEUED] = refcl_clock_ns();
    atomic_init(&event->status, queue ? CL_QUEUED : CL_SUBMITTED);
    return event;
}

static void callbacks_free(struct refcl_callback *list)
{
    while (list) {
        struct refcl_callback *next = list->next;
        free(list);
        list = next;
    }
}

void refcl_event_drop_work(struct _cl_event *event)
{
    const struct refcl_command_ops *ops = event->ops;
    event->ops = NULL;
    if (ops && ops->release)
        ops->release(event->payload);
    if (event->holds_queue) {
        event->holds_queue = false;
        queue_hooks->release(event->queue);
    }
}

/* Only a user event released before its status was set can still have
 * callbacks: nothing can complete it any more, so they are never due. A
 * command event still holding work never ran (its enqueue failed). */
void refcl_event_destroy(struct _cl_event *event)
{
    struct _cl_context *context = event->context;
    refcl_event_drop_work(event);
    callbacks_free(event->callbacks);
    refcl_object_free(&event->obj);
    refcl_context_release(context);
}

static void event_destroy(struct refcl_object *obj)
{
    refcl_event_destroy((struct _cl_event *)obj);
}

void refcl_event_release(struct _cl_event *event)
{
    if (refcl_object_release(&event->obj))
        refcl_event_destroy(event);
}

/* Moves the callbacks that @p status reaches from @p event's list to the
 * returned one: SUBMITTED ones first, then RUNNING, then COMPLETE, each in
 * registration order. Under the event's lock. */
static struct refcl_callback *callbacks_due(struct _cl_event *event,
                                            cl_int status)
{
    static const cl_int order[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
    struct refcl_callback *due = NULL, **due_tail = &due;
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        if (status > order[i])
            break;
        for (struct refcl_callback **p = &event->callbacks; *p;) {
            struct refcl_callback *cb = *p;
            if (cb->trigger != order[i]) {
                p = &cb->next;
                continue;
            }
            *p = cb->next;
            /* "If the callback is called as the result of the command
             * associated with event being abnormally terminated, an
             * appropriate error code ... will be passed". */
            cb->arg = status < 0 ? status : cb->trigger;
            cb->next = NULL;
            *due_tail = cb;
            due_tail = &cb->next;
        }
    }
    return due;
}

/* Wakes the threads of @p list; under their event's lock, which each
 * needs back before it returns and frees its entry. */
static void waiters_wake(struct refcl_waiter *list)
{
    while (list) {
        struct refcl_waiter *next = list->next;
        list->woken = true;
        pthread_cond_signal(&list->wake);
        list = next;
    }
}

/* refcl_event_set_status under the event's lock; a final status also
 * hands back the dependents to tell once it is dropped. Storing the status
 * is the last access to @p event: from then on the application may see it,
 * release the event and have its slot reused, without taking the lock. */
static struct refcl_callback *transition(struct _cl_event *event,
                                         cl_int status, bool drop_ref,
                                         bool *last,
                                         struct refcl_dep **dependents)
{
    bool final = status <= CL_COMPLETE;
    /* Completion makes every callback left due: only then is the
     * caller's reference kept, for refcl_callbacks_run. */
    if (final && drop_ref && !event->callbacks)
        *last = refcl_object_release(&event->obj);
    if (status >= CL_COMPLETE)
        event->times[CL_QUEUED - status] = refcl_clock_ns();
    struct refcl_callback *due = callbacks_due(event, status);
    struct refcl_waiter *waiters = NULL;
    *dependents = NULL;
    if (final) {
        *dependents = event->dependents;
        event->dependents = NULL;
        waiters = event->waiters;
        event->waiters = NULL;
    }
    atomic_store_explicit(&event->status, status, memory_order_release);
    waiters_wake(waiters);
    return due;
}

/* Tells the queue of each command of @p list that its dependency ended
 * with @p status. The entries belong to those commands, which may be done
 * and gone once told: each is read before. */
static void dependents_tell(struct refcl_dep *list, cl_int status)
{
    while (list) {
        struct refcl_dep *next = list->next;
        queue_hooks->dep_done(list, status);
        list = next;
    }
}

struct refcl_callback *refcl_event_set_status(struct _cl_event *event,
                                              cl_int status, bool drop_ref,
                                              bool *last)
{
    pthread_mutex_t *lock = refcl_event_lock(event);
    struct refcl_dep *dependents;
    pthread_mutex_lock(lock);
    struct refcl_callback *due =
        transition(event, status, drop_ref, last, &dependents);
    pthread_mutex_unlock(lock);
    dependents_tell(dependents, status);
    return due;
}

static bool event_done(const void *event)
{
    return refcl_event_done(event);
}

cl_int refcl_event_wait(struct _cl_event *event)
{
    if (!refcl_spin_until(event_done, event)) {
        pthread_mutex_t *lock = refcl_event_lock(event);
        pthread_mutex_lock(lock);
        if (!refcl_event_done(event)) {
            struct refcl_waiter waiter = {.next = event->waiters};
            pthread_cond_init(&waiter.wake, NULL);
            event->waiters = &waiter;
            while (!waiter.woken)
                pthread_cond_wait(&waiter.wake, lock);
            pthread_cond_destroy(&waiter.wake);
        }
        pthread_mutex_unlock(lock);
    }
    return atomic_load_explicit(&event->status, memory_order_acquire);
}

void refcl_callbacks_run(struct _cl_event *event, struct refcl_callback *due)
{
    if (!due)
        return;
    refcl_object_retain(&event->obj);
    while (due) {
        struct refcl_callback *next = due->next;
        due->fn(event, due->arg, due->user_data);
        free(due);
        due = next;
    }
    refcl_event_release(event);
}

cl_int refcl_wait_list_check(const struct _cl_context *context,
                             cl_uint num_events, const cl_event *wait_list)
{
    if (!wait_list && num_events > 0)
        return REFCL_FAIL(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list "
                          "%u: \"if event_wait_list is NULL and "
                          "num_events_in_wait_list > 0\"", num_events);
    if (wait_list && num_events == 0)
        return REFCL_FAIL(CL_INVALID_EVENT_WAIT_LIST, "\"if event_wait_list "
                          "is not NULL and num_events_in_wait_list is 0\"");
    for (cl_uint i = 0; i < num_events; i++)
        if (!refcl_object_valid(wait_list[i], REFCL_EVENT))
            return REFCL_FAIL(CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[%u]: "
                              "\"if event objects in event_wait_list are not "
                              "valid events\"", i);
    for (cl_uint i = 0; i < num_events; i++)
        if (wait_list[i]->context != context)
            return REFCL_FAIL(CL_INVALID_CONTEXT, "event_wait_list[%u]: \"if "
                              "the context associated with command_queue and "
                              "events in event_wait_list are not the same\"",
                              i);
    return CL_SUCCESS;
}

/* CL_INVALID_CONTEXT "if context is not a valid context". */
cl_event CL_API_CALL refcl_clCreateUserEvent(cl_context context,
                                             cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    struct _cl_event *event =
        refcl_event_create(context, NULL, CL_COMMAND_USER, false);
    return refcl_errcode(event,
                         event ? CL_SUCCESS
                               : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                            "no memory for the event"),
                         errcode_ret);
}

cl_int CL_API_CALL refcl_clSetUserEventStatus(cl_event event,
                                              cl_int execution_status)
{
    if (!refcl_object_valid(event, REFCL_EVENT))
        return refcl_invalid_handle(event, REFCL_EVENT);
    if (event->queue)
        return REFCL_FAIL(CL_INVALID_EVENT, "\"if event is not a valid user "
                          "event object\"");
    if (execution_status > CL_COMPLETE)
        return REFCL_FAIL(CL_INVALID_VALUE, "execution_status %d: \"if the "
                          "execution_status is not CL_COMPLETE or a negative "
                          "integer value\"", execution_status);
    pthread_mutex_t *lock = refcl_event_lock(event);
    pthread_mutex_lock(lock);
    cl_int before = atomic_load_explicit(&event->status, memory_order_relaxed);
    if (before != CL_SUBMITTED) {
        pthread_mutex_unlock(lock);
        return REFCL_FAIL(CL_INVALID_OPERATION, "status already %d: \"if the "
                          "execution_status for event has already been "
                          "changed by a previous call to "
                          "clSetUserEventStatus\"", before);
    }
    struct refcl_dep *dependents;
    struct refcl_callback *due =
        transition(event, execution_status, false, NULL, &dependents);
    pthread_mutex_unlock(lock);
    dependents_tell(dependents, execution_status);
    refcl_callbacks_run(event, due);
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clSetEventCallback(
    cl_event event, cl_int command_exec_callback_type,
    void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data)
{
    if (!refcl_object_valid(event, REFCL_EVENT))
        return refcl_invalid_handle(event, REFCL_EVENT);
    if (!pfn_notify)
        return REFCL_FAIL(CL_INVALID_VALUE, "pfn_event_notify NULL: \"if "
                          "pfn_event_notify is NULL\"");
    if (command_exec_callback_type != CL_SUBMITTED &&
        command_exec_callback_type != CL_RUNNING &&
        command_exec_callback_type != CL_COMPLETE)
        return REFCL_FAIL(CL_INVALID_VALUE, "command_exec_callback_type %d: "
                          "\"if command_exec_callback_type is not "
                          "CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE\"",
                          command_exec_callback_type);
    struct refcl_callback *cb = malloc(sizeof(*cb));
    if (!cb)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the callback");
    *cb = (struct refcl_callback){pfn_notify, user_data,
                                  command_exec_callback_type, 0, NULL};
    pthread_mutex_t *lock = refcl_event_lock(event);
    pthread_mutex_lock(lock);
    struct refcl_callback **tail = &event->callbacks;
    while (*tail)
        tail = &(*tail)->next;
    *tail = cb;
    /* A status already reached calls it now: "when the execution status
     * ... changes to an execution status equal to or past the status". */
    struct refcl_callback *due = callbacks_due(
        event, atomic_load_explicit(&event->status, memory_order_relaxed));
    pthread_mutex_unlock(lock);
    refcl_callbacks_run(event, due);
    return CL_SUCCESS;
}

/* Every event of the list valid and of one context: the shared checks of
 * clWaitForEvents and clEnqueueWaitForEvents. */
cl_int refcl_event_list_check(cl_uint num_events, const cl_event *event_list)
{
    if (num_events == 0)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_events 0: \"if num_events "
                          "is zero\"");
    if (!event_list)
        return REFCL_FAIL(CL_INVALID_VALUE, "event_list NULL: \"if "
                          "event_list is NULL\"");
    for (cl_uint i = 0; i < num_events; i++)
        if (!refcl_object_valid(event_list[i], REFCL_EVENT))
            return REFCL_FAIL(CL_INVALID_EVENT, "event_list[%u]: \"if event "
                              "objects specified in event_list are not valid "
                              "event objects\"", i);
    for (cl_uint i = 1; i < num_events; i++)
        if (event_list[i]->context != event_list[0]->context)
            return REFCL_FAIL(CL_INVALID_CONTEXT, "event_list[%u]: \"if events "
                              "specified in event_list do not belong to the "
                              "same context\"", i);
    return CL_SUCCESS;
}

/* Commands go to their queue's worker when enqueued, so there is nothing
 * to flush first; each event's completion wakes this thread. */
cl_int CL_API_CALL refcl_clWaitForEvents(cl_uint num_events,
                                         const cl_event *event_list)
{
    cl_int status = refcl_event_list_check(num_events, event_list);
    if (status != CL_SUCCESS)
        return status;
    bool failed = false;
    for (cl_uint i = 0; i < num_events; i++)
        failed |= refcl_event_wait(event_list[i]) < 0;
    return failed ? REFCL_FAIL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                               "\"if the execution status of any of the "
                               "events in event_list is a negative integer "
                               "value\"")
                  : CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clGetEventInfo(cl_event event,
                                        cl_event_info param_name,
                                        size_t param_value_size,
                                        void *param_value,
                                        size_t *param_value_size_ret)
{
    /* CL_INVALID_EVENT "if event is a not a valid event object". */
    if (!refcl_object_valid(event, REFCL_EVENT))
        return refcl_invalid_handle(event, REFCL_EVENT);
    const void *value;
    size_t size;
    cl_int status;
    cl_uint refcount;
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: /* "For user event objects, a NULL value" */
        value = &event->queue;
        size = sizeof(cl_command_queue);
        break;
    case CL_EVENT_CONTEXT:
        value = &event->context;
        size = sizeof(cl_context);
        break;
    case CL_EVENT_COMMAND_TYPE:
        value = &event->command_type;
        size = sizeof(cl_command_type);
        break;
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        status = atomic_load_explicit(&event->status, memory_order_acquire);
        value = &status;
        size = sizeof(status);
        break;
    case CL_EVENT_REFERENCE_COUNT:
        refcount = refcl_object_refcount(&event->obj);
        value = &refcount;
        size = sizeof(refcount);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

cl_int CL_API_CALL refcl_clGetEventProfilingInfo(cl_event event,
                                                 cl_profiling_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret)
{
    if (!refcl_object_valid(event, REFCL_EVENT))
        return refcl_invalid_handle(event, REFCL_EVENT);
    if (!event->queue)
        return REFCL_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE, "\"if event is a "
                          "user event object\"");
    if (!event->profiling)
        return REFCL_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE, "\"if the "
                          "CL_QUEUE_PROFILING_ENABLE flag is not set for the "
                          "command-queue\"");
    cl_int status = atomic_load_explicit(&event->status, memory_order_acquire);
    if (status != CL_COMPLETE)
        return REFCL_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE, "status %d: \"if "
                          "the execution status of the command identified by "
                          "event is not CL_COMPLETE\"", status);
    const cl_ulong *time;
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED:
        time = &event->times[REFCL_TIME_QUEUED];
        break;
    case CL_PROFILING_COMMAND_SUBMIT:
        time = &event->times[REFCL_TIME_SUBMIT];
        break;
    case CL_PROFILING_COMMAND_START:
        time = &event->times[REFCL_TIME_START];
        break;
    /* COMPLETE adds "any child commands enqueued by this command on the
     * device": refcl has no device-side enqueue, so it is END. */
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE:
        time = &event->times[REFCL_TIME_END];
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(time, sizeof(*time), param_value_size,
                             param_value, param_value_size_ret);
}

/* CL_INVALID_EVENT "if event is not a valid event object". */
cl_int CL_API_CALL refcl_clRetainEvent(cl_event event)
{
    return refcl_handle_retain(event, REFCL_EVENT);
}

/* "The event object is deleted once the reference count becomes zero, the
 * specific command identified by this event has completed ... and there
 * are no commands ... that require a wait for this event": pending
 * commands and their queue's list hold references of their own, which
 * they drop before anyone can see the command complete. */
cl_int CL_API_CALL refcl_clReleaseEvent(cl_event event)
{
    return refcl_handle_release(event, REFCL_EVENT, event_destroy);
}
