/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's events: the event of every enqueued command, and user events.
 *
 * All runtime state of an event (status, callbacks, the scheduling fields)
 * is guarded by its context's events_lock, the one lock of a context's
 * runtime: every event a command may wait for belongs to the command's
 * context (CL_INVALID_CONTEXT otherwise), so one lock covers every wait.
 * Callbacks always run with no lock held.
 */
#ifndef REFCL_EVENT_H
#define REFCL_EVENT_H

#include "refcl/object.h"

struct refcl_callback; /* one clSetEventCallback registration */

/** Index of each profiling timestamp in _cl_event.times. */
enum refcl_time { REFCL_TIME_QUEUED, REFCL_TIME_SUBMIT, REFCL_TIME_START,
                  REFCL_TIME_END };

struct refcl_command_ops; /* a command's work (refcl/queue.h) */

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
     *  lock, read without it by clGetEventInfo. */
    _Atomic cl_int status;
    /** Device clock (refcl_clock_ns) at each transition, by enum
     *  refcl_time; written before the status that makes them visible. */
    cl_ulong times[4];
    struct refcl_callback *callbacks; /**< not called yet, oldest first */
    /* Scheduling of a command (event/executor.c). */
    struct _cl_event *next;           /**< its queue's pending list */
    struct _cl_event **deps;          /**< events it waits for, retained */
    cl_uint dep_count;
    /** deps[0 .. wait_count) come from the wait list: only their failure
     *  fails the command; the rest are queue order (in-order queues,
     *  markers, barriers). */
    cl_uint wait_count;
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
 * done.
 * @return the event with refcount 1, or NULL when out of memory.
 */
struct _cl_event *refcl_event_create(struct _cl_context *context,
                                     struct _cl_command_queue *queue,
                                     cl_command_type type);

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

/** True once @p event is complete: CL_COMPLETE or an error. Under the
 *  lock. */
static inline bool refcl_event_done(const struct _cl_event *event)
{
    return atomic_load_explicit(&event->status, memory_order_acquire) <=
           CL_COMPLETE;
}

/**
 * Moves @p event to @p status (taking its timestamp for SUBMITTED, RUNNING
 * and COMPLETE), under the lock.
 * @return the callbacks now due, for refcl_callbacks_run once unlocked.
 */
struct refcl_callback *refcl_event_set_status(struct _cl_event *event,
                                              cl_int status);

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

#endif /* REFCL_EVENT_H */
