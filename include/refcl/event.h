/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's events: the event of every enqueued command, and user events.
 *
 * Completion is pushed: an event keeps the pending commands that wait for
 * it (their struct refcl_dep) and the threads that wait for it
 * (clWaitForEvents, blocking enqueues); reaching a final status tells
 * exactly those, and nobody else.
 *
 * Locks, in this order (docs/runtime.md "Locks"): a queue's executor lock
 * (queue/executor.c), then the lock of an event. An event's lock is one of
 * a fixed table of mutexes picked by its address (refcl_event_lock), never
 * freed: a thread that stores a final status may still unlock it after the
 * application has seen the status and destroyed the event. Nobody holds
 * two event locks, or two executor locks, at once. Callbacks always run
 * with no lock held.
 */
#ifndef REFCL_EVENT_H
#define REFCL_EVENT_H

#include <pthread.h>

#include "refcl/object.h"

struct refcl_callback; /* one clSetEventCallback registration */
struct refcl_waiter;   /* a thread waiting for an event (event/event.c) */

/** One dependency of a pending command: what the event it waits for keeps
 *  in its list of dependents until it completes. */
struct refcl_dep {
    struct _cl_event *event;   /**< waited for, retained */
    struct _cl_event *command; /**< the pending command that waits */
    struct refcl_dep *next;    /**< in event->dependents */
    bool in_wait_list;         /**< its failure fails the command */
};

/** Index of each profiling timestamp in _cl_event.times. */
enum refcl_time { REFCL_TIME_QUEUED, REFCL_TIME_SUBMIT, REFCL_TIME_START,
                  REFCL_TIME_END };

struct _cl_command_queue;

/** What a command does besides taking its place in its queue's order. */
struct refcl_command_ops {
    /**
     * Does the command's work, on its queue's worker with no lock held.
     * @return CL_COMPLETE, or the negative error the command ends with.
     */
    cl_int (*run)(void *payload, struct _cl_command_queue *queue);
    /** Drops what the command holds (memory objects, ...) and frees
     *  @p payload; called once, before anyone can see the command
     *  complete, or when it never runs. May be NULL. */
    void (*release)(void *payload);
    /** The work is the host's own and short (a map, an unmap, a small read
     *  or write): when nothing is ahead of the command in its queue, it
     *  runs on the calling thread at enqueue, and no worker is woken. */
    bool on_caller;
};


struct _cl_event {
    struct refcl_object obj;          /**< obj.parent: queue, or context */
    struct _cl_context *context;      /**< retained */
    /** The command's queue, NULL for a user event: retained while the
     *  command is pending (holds_queue), afterwards only what
     *  CL_EVENT_COMMAND_QUEUE answers. */
    struct _cl_command_queue *queue;
    bool holds_queue;
    bool profiling;                   /**< its queue has profiling on */
    cl_command_type command_type;
    /** CL_QUEUED ... CL_COMPLETE, or a negative error: written under the
     *  event's lock, read without it by clGetEventInfo. */
    _Atomic cl_int status;
    /** Device clock (refcl_clock_ns) at each transition, by enum
     *  refcl_time; written before the status that makes them visible. */
    cl_ulong times[4];
    /* Under the event's lock. */
    struct refcl_callback *callbacks; /**< not called yet, oldest first */
    struct refcl_dep *dependents;     /**< commands waiting for it */
    struct refcl_waiter *waiters;     /**< threads waiting for it */
    /* Scheduling of a command, under its queue's executor lock
     * (queue/executor.c). */
    struct _cl_event *next;           /**< its queue's pending list */
    /** What it waits for: the wait list, then queue order (in-order
     *  queues, markers, barriers). Only a failed wait-list event fails the
     *  command; queue order only orders. */
    struct refcl_dep *deps;
    cl_uint dep_count;
    cl_uint unfinished; /**< deps not complete yet: it runs at 0 */
    bool failed;        /**< a wait-list event failed */
    bool taken;         /**< its worker or enqueuer is running it */
    /** The command's work, NULL for markers and barriers; ops and payload
     *  are dropped together with the queue (refcl_event_drop_work). */
    const struct refcl_command_ops *ops;
    void *payload;
};
REFCL_OBJECT_LAYOUT(REFCL_EVENT, struct _cl_event);

/**
 * Creates the event of a command of @p type on @p queue (status CL_QUEUED,
 * its QUEUED time taken), or a user event when @p queue is NULL (status
 * CL_SUBMITTED). Retains the context, and the queue until the command is
 * done. @p profiling: the queue has CL_QUEUE_PROFILING_ENABLE.
 * @return the event with refcount 1, or NULL when out of memory.
 */
struct _cl_event *refcl_event_create(struct _cl_context *context,
                                     struct _cl_command_queue *queue,
                                     cl_command_type type, bool profiling);

/** Drops one reference; the last one destroys the event. No lock held. */
void refcl_event_release(struct _cl_event *event);

/** Destroys @p event, whose last reference is gone. No lock held. */
void refcl_event_destroy(struct _cl_event *event);

/**
 * Drops what a command holds for its work, once: its payload (ops->release)
 * and its queue. The executor calls it before the command can be seen
 * complete; destroying an event that never ran calls it too. No lock held.
 */
void refcl_event_drop_work(struct _cl_event *event);

/** True once @p event is complete: CL_COMPLETE or an error. With or
 *  without its lock. */
static inline bool refcl_event_done(const struct _cl_event *event)
{
    return atomic_load_explicit(&event->status, memory_order_acquire) <=
           CL_COMPLETE;
}

/** The lock of @p event's status, callbacks, dependents and waiters. */
pthread_mutex_t *refcl_event_lock(const struct _cl_event *event);

/**
 * Moves @p event to @p status (taking its timestamp for SUBMITTED, RUNNING
 * and COMPLETE); takes its lock. A final status (CL_COMPLETE or an error)
 * wakes the threads waiting for it and tells each dependent command's
 * queue (refcl_executor_dep_done), and then nothing of @p event is read:
 * the application may destroy it as soon as the status is stored.
 *
 * @p drop_ref: on a final status, also drops the reference of the caller
 * (a pending list's) before the status is stored, unless callbacks are due,
 * in which case the caller keeps it until they have run.
 * @p last (with @p drop_ref): set if that reference was the last one; the
 * caller then destroys the event.
 * @return the callbacks now due, for refcl_callbacks_run.
 */
struct refcl_callback *refcl_event_set_status(struct _cl_event *event,
                                              cl_int status, bool drop_ref,
                                              bool *last);

/**
 * Blocks until @p event is complete, spinning a moment first
 * (refcl_spin_until), then sleeping until its completion wakes this thread
 * alone. The caller holds a reference on it. No lock held.
 * @return its final status: CL_COMPLETE or a negative error.
 */
cl_int refcl_event_wait(struct _cl_event *event);

/**
 * Spins until @p done(@p arg) is true or about 20 us have passed: a moment
 * with the CPU held, then yielding it, so that on a machine with more
 * threads than CPUs the thread waited for gets to run. A hand-over between
 * two threads that have a CPU each then costs no sleep and wake-up.
 * @return the last answer of @p done.
 */
bool refcl_spin_until(bool (*done)(const void *arg), const void *arg);

/** Calls and frees @p due (from refcl_event_set_status) in order; no lock
 *  held. Keeps @p event alive meanwhile: a callback may release it. */
void refcl_callbacks_run(struct _cl_event *event, struct refcl_callback *due);

/**
 * Checks the wait list of a command enqueued in @p context:
 * CL_INVALID_EVENT_WAIT_LIST "if event_wait_list is NULL and
 * num_events_in_wait_list > 0, or event_wait_list is not NULL and
 * num_events_in_wait_list is 0, or if event objects in event_wait_list are
 * not valid events"; CL_INVALID_CONTEXT "if context associated with
 * command_queue and events in event_wait_list are not the same".
 */
cl_int refcl_wait_list_check(const struct _cl_context *context,
                             cl_uint num_events, const cl_event *wait_list);

/**
 * Checks the event list of clWaitForEvents and clEnqueueWaitForEvents:
 * CL_INVALID_VALUE if empty, CL_INVALID_EVENT for an invalid event,
 * CL_INVALID_CONTEXT if the events are not all of one context.
 */
cl_int refcl_event_list_check(cl_uint num_events, const cl_event *event_list);

/**
 * What the event layer must know of command-queues (queue/, the layer
 * above), which registers it at load: a command event holds its queue and
 * tells the queue's executor when something it waits for completes.
 */
struct refcl_queue_hooks {
    /** @p dep's event ended with @p status: its command may now run
     *  (refcl_executor_dep_done). */
    void (*dep_done)(struct refcl_dep *dep, cl_int status);
    /** Drops a command's reference on its queue. */
    void (*release)(struct _cl_command_queue *queue);
};

/** Registers @p hooks (static storage); called once, at load. */
void refcl_event_queue_register(const struct refcl_queue_hooks *hooks);

#endif /* REFCL_EVENT_H */
