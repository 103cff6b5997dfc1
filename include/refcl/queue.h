/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's command-queues: host queues on one device of their context,
 * in-order or out-of-order, optionally profiling. Each queue runs its
 * commands on a worker thread of its own, started on the first enqueue,
 * and has a lock and condition variables of its own (queue/executor.c):
 * its work wakes nobody else, and an idle queue costs nothing.
 */
#ifndef REFCL_QUEUE_H
#define REFCL_QUEUE_H

#include <stdbool.h>

#include "refcl/object.h"

struct refcl_executor; /* a queue's worker and pending commands */

struct _cl_command_queue {
    struct refcl_object obj;          /**< obj.parent: the context */
    struct _cl_context *context;      /**< retained */
    struct _cl_device_id *device;     /**< retained */
    cl_command_queue_properties properties;
    /** CL_QUEUE_PROPERTIES_ARRAY: the list as given, 0-terminated, or NULL
     *  (clCreateCommandQueue, or a NULL list). */
    cl_queue_properties *properties_array;
    size_t properties_len;            /**< entries, terminator included */
    struct refcl_executor *executor;  /**< owned */
};
REFCL_OBJECT_LAYOUT(REFCL_QUEUE, struct _cl_command_queue);

static inline bool refcl_queue_in_order(const struct _cl_command_queue *q)
{
    return !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

static inline bool refcl_queue_profiling(const struct _cl_command_queue *q)
{
    return q->properties & CL_QUEUE_PROFILING_ENABLE;
}

/** One reference less on @p queue, which the caller holds (an event on
 *  it), destroyed with the last: clReleaseCommandQueue without the handle
 *  check. */
void refcl_queue_release(struct _cl_command_queue *queue);

/**
 * Creates the (idle, threadless) executor of @p queue; on an application
 * thread, first joins the workers that stopped themselves and exited.
 * @return NULL when out of memory.
 */
struct refcl_executor *refcl_executor_create(struct _cl_command_queue *queue);

/**
 * Stops and frees @p executor; the queue has no pending command left (each
 * pending command's event holds a reference on the queue).
 *
 * Workers never join threads: when this runs on a worker thread (an event
 * callback, or a worker dropping the last reference to a queue), the
 * executor's own worker stops by itself and is joined later, on an
 * application thread once it has exited, or at unload; it then owns the
 * queue's reference to its context and releases it on its way out (unless
 * unload already stopped it).
 *
 * @return true if the worker took the queue's context reference over.
 */
bool refcl_executor_destroy(struct refcl_executor *executor);

/** A command for refcl_executor_enqueue. */
struct refcl_command {
    cl_command_type type;
    /** Holds back every command enqueued after it (out-of-order queues;
     *  an in-order queue's commands all wait for their predecessor). */
    bool barrier;
    /** refcl_executor_enqueue returns only once the command is complete. */
    bool blocking;
    cl_uint num_events;
    const cl_event *wait_list;           /**< already validated */
    const struct refcl_command_ops *ops; /**< NULL: ordering only */
    void *payload;                       /**< for ops; owned from enqueue on */
};

/**
 * Enqueues @p command on @p queue. It waits for its wait list, and for the
 * commands of the queue its kind follows (docs/runtime.md); when it runs,
 * ops->run does its work. Stores its event in @p event unless NULL.
 * Ownership of the payload passes to the command on every path: ops->release
 * is called also when the enqueue fails.
 * @return CL_SUCCESS; for a blocking command that ended in an error, that
 * error (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when its wait list
 * failed); CL_OUT_OF_HOST_MEMORY, or CL_OUT_OF_RESOURCES when no worker
 * thread can be started.
 */
cl_int refcl_executor_enqueue(struct _cl_command_queue *queue,
                              const struct refcl_command *command,
                              cl_event *event);

struct refcl_dep;

/**
 * Tells the queue of @p dep's command that the event @p dep waits for
 * reached its final @p status (event/event.c, after unlocking the event):
 * one dependency fewer, a failure noted for a wait-list event, and its
 * worker woken if the command is now ready. Takes the executor's lock;
 * @p dep may be freed once this returns.
 */
void refcl_executor_dep_done(struct refcl_dep *dep, cl_int status);

/** Blocks until @p queue has no pending command (clFinish). */
void refcl_executor_finish(struct _cl_command_queue *queue);

/** Stops and joins every worker thread still there (library unload). */
void refcl_executors_teardown(void);

#endif /* REFCL_QUEUE_H */
