/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor of a command-queue: one worker thread per queue, started by
 * its first enqueue and joined when the queue is destroyed, that takes the
 * queue's commands as the events they wait for complete and moves each
 * through SUBMITTED, RUNNING and COMPLETE.
 *
 * Everything here is guarded by the context's events_lock; the worker,
 * clFinish and clWaitForEvents wait on its events_changed (spinning a
 * moment first: refcl_context_wait), which is broadcast on every enqueue
 * and every completion, but those of commands run on their caller's thread
 * that nobody can be waiting for. Callbacks and releases run with the lock
 * dropped.
 *
 * Dependencies are fixed at enqueue: the wait list, then queue order (an
 * in-order queue's previous command; in an out-of-order queue the newest
 * barrier, or every pending command for a marker or barrier with an empty
 * list). Only a failed wait-list event fails a command; queue order only
 * orders, so one failed command does not poison the rest of its queue.
 *
 * What a command holds for its work (the events it waits for, its queue,
 * its payload's objects, the list's reference on its event) goes before
 * its completion can be seen: an application that sees its last command
 * complete and releases everything it holds destroys every object then and
 * there, on its own thread. Only a command with callbacks due keeps its
 * event until they have run.
 *
 * A queue can lose its last reference on a worker thread (its last pending
 * event released there, or in an event callback). Workers never join: the
 * stopped worker is then left to the registry and joined by the next
 * application thread that creates or destroys a queue, or at unload.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/event.h"
#include "refcl/queue.h"
#include "refcl/workers.h"

struct refcl_executor {
    struct _cl_context *context;
    /* The processing units of the queue's device, for the worker to bind
     * to as it starts; its own copy, freed once bound: a queue destroyed
     * on a worker thread may free its sub-device before this worker has
     * even started. */
    hwloc_bitmap_t units;
    bool in_order;
    /* Under the context's events_lock. */
    struct _cl_event *head, *tail; /* pending, oldest first, each retained */
    struct _cl_event *barrier;     /* newest pending barrier (out-of-order) */
    /* Commands enqueued and not yet retired: off the list, their callbacks
     * run and their references dropped. clFinish waits for 0. */
    size_t unretired;
    size_t finishers; /* threads in clFinish on this queue */
    bool stopping;
    /* Stopped from a worker thread: the worker releases the context the
     * queue handed over, and someone else joins it. Set under
     * registry_lock, before stopping. */
    atomic_bool detached;
    /* Under registry_lock. */
    bool started;
    bool leaving; /* done with the context: teardown leaves it alone */
    bool exited;  /* about to return: joining it waits for nothing */
    pthread_t thread;
    struct refcl_executor *next; /* in the registry while started */
};

/* Every started worker not yet joined, so that unload can join them all. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct refcl_executor *registry;
static _Thread_local bool on_worker;

static void registry_remove(struct refcl_executor *executor)
{
    pthread_mutex_lock(&registry_lock);
    for (struct refcl_executor **p = &registry; *p; p = &(*p)->next)
        if (*p == executor) {
            *p = executor->next;
            break;
        }
    pthread_mutex_unlock(&registry_lock);
}

/* Joins the workers of @p list, out of the registry. */
static void join_all(struct refcl_executor *list)
{
    for (struct refcl_executor *e = list; e; e = e->next)
        pthread_join(e->thread, NULL);
}

static void free_all(struct refcl_executor *list)
{
    while (list) {
        struct refcl_executor *next = list->next;
        free(list);
        list = next;
    }
}

/* Joins and frees the workers that were stopped from a worker thread and
 * have exited: the others may still run application code (callbacks,
 * context destructors) that waits for this very thread. Never on a
 * worker. */
static void reap_detached(void)
{
    if (on_worker)
        return;
    struct refcl_executor *stopped = NULL;
    pthread_mutex_lock(&registry_lock);
    for (struct refcl_executor **p = &registry; *p;) {
        struct refcl_executor *executor = *p;
        if (!atomic_load(&executor->detached) || !executor->exited) {
            p = &executor->next;
            continue;
        }
        *p = executor->next;
        executor->next = stopped;
        stopped = executor;
    }
    pthread_mutex_unlock(&registry_lock);
    join_all(stopped);
    free_all(stopped);
}

struct refcl_executor *refcl_executor_create(struct _cl_command_queue *queue)
{
    reap_detached();
    struct refcl_executor *executor = calloc(1, sizeof(*executor));
    if (executor) {
        executor->context = queue->context;
        executor->in_order = refcl_queue_in_order(queue);
    }
    return executor;
}

static void pending_append(struct refcl_executor *executor,
                           struct _cl_event *command)
{
    refcl_object_retain(&command->obj);
    if (executor->tail)
        executor->tail->next = command;
    else
        executor->head = command;
    executor->tail = command;
}

static void pending_remove(struct refcl_executor *executor,
                           struct _cl_event *command)
{
    struct _cl_event *prev = NULL;
    for (struct _cl_event *c = executor->head; c != command; c = c->next)
        prev = c;
    if (prev)
        prev->next = command->next;
    else
        executor->head = command->next;
    if (executor->tail == command)
        executor->tail = prev;
    if (executor->barrier == command)
        executor->barrier = NULL;
    command->next = NULL;
}

/* The pending commands that a new command follows in queue order; writes
 * them to @p out unless NULL, and returns how many there are. @p sync is a
 * marker or barrier (a command without work). */
static size_t order_deps(const struct refcl_executor *executor, bool sync,
                         cl_uint num_events, struct _cl_event **out)
{
    size_t n = 0;
    for (struct _cl_event *c = executor->head; c; c = c->next) {
        /* A marker or barrier: "If event_wait_list is NULL, then this
         * particular command waits until all previous enqueued commands to
         * command_queue have completed"; a barrier holds back "any
         * following commands". */
        bool follows = executor->in_order ? c == executor->tail
                       : (sync && num_events == 0) || c == executor->barrier;
        if (follows && out)
            out[n] = c;
        n += follows;
    }
    return n;
}

/* Gives @p command its dependencies, each retained. */
static cl_int deps_take(struct refcl_executor *executor,
                        struct _cl_event *command, cl_uint num_events,
                        const cl_event *wait_list)
{
    bool sync = command->ops == NULL;
    size_t count = num_events + order_deps(executor, sync, num_events, NULL);
    if (count == 0)
        return CL_SUCCESS;
    struct _cl_event **deps = malloc(count * sizeof(*deps));
    if (!deps)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < num_events; i++)
        deps[i] = wait_list[i];
    order_deps(executor, sync, num_events, deps + num_events);
    for (size_t i = 0; i < count; i++)
        refcl_object_retain(&deps[i]->obj);
    command->deps = deps;
    command->dep_count = (cl_uint)count;
    command->wait_count = num_events;
    return CL_SUCCESS;
}

static bool deps_done(const struct _cl_event *command)
{
    for (cl_uint i = 0; i < command->dep_count; i++)
        if (!refcl_event_done(command->deps[i]))
            return false;
    return true;
}

static bool wait_list_failed(const struct _cl_event *command)
{
    for (cl_uint i = 0; i < command->wait_count; i++)
        if (atomic_load(&command->deps[i]->status) < 0)
            return true;
    return false;
}

/* The oldest command not started yet whose dependencies are complete. An
 * in-order queue's later commands all wait for its oldest. */
static struct _cl_event *next_ready(const struct refcl_executor *executor)
{
    for (struct _cl_event *c = executor->head; c; c = c->next) {
        bool queued = atomic_load(&c->status) == CL_QUEUED;
        if (queued && deps_done(c))
            return c;
        if (executor->in_order)
            break;
    }
    return NULL;
}

/* Moves @p command to @p status and calls the callbacks due, unlocked. */
static void advance(struct refcl_executor *executor, struct _cl_event *command,
                    cl_int status)
{
    struct refcl_callback *due = refcl_event_set_status(command, status);
    if (!due)
        return;
    pthread_mutex_unlock(&executor->context->events_lock);
    refcl_callbacks_run(command, due);
    pthread_mutex_lock(&executor->context->events_lock);
}

/* Drops what @p command holds for its work: the events it waited for,
 * its queue, its payload. The lock is dropped meanwhile: any of them may be
 * destroyed here (the queue too, when the application released it before
 * this command was done: refcl_executor_destroy then only marks the
 * executor stopping, and the executor and the context, handed over, stay
 * alive until this worker leaves). */
static void holds_drop(struct refcl_executor *executor,
                       struct _cl_event *command)
{
    struct _cl_event **deps = command->deps;
    cl_uint count = command->dep_count;
    command->deps = NULL;
    command->dep_count = command->wait_count = 0;
    pthread_mutex_unlock(&executor->context->events_lock);
    for (cl_uint i = 0; i < count; i++)
        refcl_event_release(deps[i]);
    free(deps);
    refcl_event_drop_work(command);
    pthread_mutex_lock(&executor->context->events_lock);
}

/* Wakes whoever waits on the context's runtime state: after a command run
 * on the caller's thread (@p on_caller) only if someone can be waiting for
 * it, as nobody else holds its event yet: clFinish on its queue, or
 * commands enqueued behind it meanwhile. Waking the idle worker for nothing
 * would cost more than such a command. Under the lock. */
static void changed(struct refcl_executor *executor, bool on_caller)
{
    if (!on_caller || executor->finishers || executor->head)
        refcl_context_changed(executor->context);
}

/* Ends @p command with @p status. Everything it holds goes first, the
 * pending list's reference on its event too unless callbacks will be due:
 * once its status is stored, the application may see it (clGetEventInfo
 * reads it without the lock) and release the last references. The
 * callbacks then run, unlocked, and only then is the command retired, so
 * that clFinish returns with all of that done. Called and returns with the
 * lock held. */
static void complete(struct refcl_executor *executor,
                     struct _cl_event *command, cl_int status, bool on_caller)
{
    struct _cl_context *context = executor->context;
    pending_remove(executor, command);
    holds_drop(executor, command);
    /* Completion makes every callback left due. */
    bool keep = command->callbacks != NULL;
    bool last = !keep && refcl_object_release(&command->obj);
    struct refcl_callback *due = refcl_event_set_status(command, status);
    changed(executor, on_caller);
    pthread_mutex_unlock(&context->events_lock);
    if (keep) {
        refcl_callbacks_run(command, due);
        refcl_event_release(command);
    } else if (last) {
        refcl_event_destroy(command);
    }
    pthread_mutex_lock(&context->events_lock);
    executor->unretired--;
    changed(executor, on_caller);
}

/* Runs @p command, on its worker or @p on_caller; called and returns with
 * the lock held. */
static void run(struct refcl_executor *executor, struct _cl_event *command,
                bool on_caller)
{
    /* "In order for the execution status of an enqueued command to change
     * from CL_SUBMITTED to CL_RUNNING, all events that this command is
     * waiting on must have completed successfully"; a negative user event
     * status "causes all enqueued commands that wait on this user event to
     * be terminated". */
    if (wait_list_failed(command)) {
        complete(executor, command,
                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, on_caller);
        return;
    }
    advance(executor, command, CL_SUBMITTED);
    advance(executor, command, CL_RUNNING);
    cl_int status = CL_COMPLETE;
    if (command->ops && command->ops->run) {
        pthread_mutex_unlock(&executor->context->events_lock);
        status = command->ops->run(command->payload, command->queue);
        pthread_mutex_lock(&executor->context->events_lock);
    }
    complete(executor, command, status, on_caller);
}

static void registry_mark(bool *flag)
{
    pthread_mutex_lock(&registry_lock);
    *flag = true;
    pthread_mutex_unlock(&registry_lock);
}

static void *worker_main(void *arg)
{
    struct refcl_executor *executor = arg;
    struct _cl_context *context = executor->context;
    on_worker = true;
    /* Every command of the queue runs here, native kernels included: on
     * the device's processing units. */
    if (executor->units) {
        refcl_thread_bind(executor->units);
        hwloc_bitmap_free(executor->units);
        executor->units = NULL;
    }
    pthread_mutex_lock(&context->events_lock);
    /* Even told to stop, run what is ready: a queue being destroyed has
     * nothing left, and at unload work that can still complete does. */
    for (;;) {
        struct _cl_event *command = next_ready(executor);
        if (command)
            run(executor, command, false);
        else if (executor->stopping)
            break;
        else
            refcl_context_wait(context);
    }
    pthread_mutex_unlock(&context->events_lock);
    registry_mark(&executor->leaving);
    if (atomic_load(&executor->detached))
        refcl_context_release(context);
    registry_mark(&executor->exited);
    return NULL;
}

/* Starts the worker on the first enqueue, with every signal blocked: the
 * application's handlers are not for refcl's threads. registry_lock
 * guards `started`; it is never taken with an events_lock held. */
static cl_int worker_start(struct refcl_executor *executor,
                           const struct _cl_device_id *device)
{
    int rc = 0;
    pthread_mutex_lock(&registry_lock);
    if (!executor->started) {
        executor->units = hwloc_bitmap_dup(device->cpuset);
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        rc = pthread_create(&executor->thread, NULL, worker_main, executor);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        executor->started = rc == 0;
        if (!executor->started && executor->units) {
            hwloc_bitmap_free(executor->units);
            executor->units = NULL;
        }
        if (executor->started) {
            executor->next = registry;
            registry = executor;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return rc == 0 ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}

/* Waits until @p command is complete. @return CL_SUCCESS, or the error it
 * ended with. */
static cl_int wait_done(struct _cl_context *context, struct _cl_event *command)
{
    pthread_mutex_lock(&context->events_lock);
    while (!refcl_event_done(command))
        refcl_context_wait(context);
    pthread_mutex_unlock(&context->events_lock);
    cl_int status = atomic_load(&command->status);
    return status < 0 ? status : CL_SUCCESS;
}

/* @p command, just appended, is one whose work is the host's and nothing
 * is ahead of it: waking the worker would cost more than the work. Its
 * event has no callbacks yet (the application has not seen it), so running
 * it here calls nothing of the application's. Under the lock. */
static bool runs_on_caller(const struct refcl_executor *executor,
                           const struct _cl_event *command)
{
    return command->ops && command->ops->on_caller &&
           next_ready(executor) == command;
}

/* Creates the event of @p command on @p queue, with its work. */
static struct _cl_event *command_create(struct _cl_command_queue *queue,
                                        const struct refcl_command *command)
{
    struct _cl_event *event =
        refcl_event_create(queue->context, queue, command->type);
    if (!event) {
        if (command->ops && command->ops->release)
            command->ops->release(command->payload);
        return NULL;
    }
    event->ops = command->ops;
    event->payload = command->payload;
    return event;
}

cl_int refcl_executor_enqueue(struct _cl_command_queue *queue,
                              const struct refcl_command *command,
                              cl_event *event)
{
    struct refcl_executor *executor = queue->executor;
    struct _cl_context *context = queue->context;
    struct _cl_event *created = command_create(queue, command);
    if (!created)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int status = worker_start(executor, queue->device);
    if (status == CL_SUCCESS) {
        pthread_mutex_lock(&context->events_lock);
        status = deps_take(executor, created, command->num_events,
                           command->wait_list);
        if (status == CL_SUCCESS) {
            pending_append(executor, created);
            executor->unretired++;
            if (command->barrier && !executor->in_order)
                executor->barrier = created;
            if (runs_on_caller(executor, created))
                run(executor, created, true);
            else
                refcl_context_changed(context);
        }
        pthread_mutex_unlock(&context->events_lock);
    }
    /* "If event is NULL or the enqueue is unsuccessful, no event will be
     * created": the list keeps its own reference while pending. */
    cl_int result = status;
    if (status == CL_SUCCESS && command->blocking)
        result = wait_done(context, created);
    if (status == CL_SUCCESS && event)
        *event = created;
    else
        refcl_event_release(created);
    return result;
}

void refcl_executor_finish(struct _cl_command_queue *queue)
{
    struct refcl_executor *executor = queue->executor;
    pthread_mutex_t *lock = &queue->context->events_lock;
    pthread_mutex_lock(lock);
    executor->finishers++;
    while (executor->unretired)
        refcl_context_wait(queue->context);
    executor->finishers--;
    pthread_mutex_unlock(lock);
}

/* Tells the worker to stop; it leaves once nothing is ready to run. */
static void worker_stop(struct refcl_executor *executor)
{
    struct _cl_context *context = executor->context;
    pthread_mutex_lock(&context->events_lock);
    executor->stopping = true;
    refcl_context_changed(context);
    pthread_mutex_unlock(&context->events_lock);
}

bool refcl_executor_destroy(struct refcl_executor *executor)
{
    /* On a worker thread, the executor's worker takes the context over,
     * unless it is already leaving (stopped by teardown, which joins and
     * frees it): then the caller keeps releasing the context itself. */
    pthread_mutex_lock(&registry_lock);
    bool started = executor->started;
    bool hand_over = started && on_worker && !executor->leaving;
    if (hand_over)
        atomic_store(&executor->detached, true);
    pthread_mutex_unlock(&registry_lock);
    if (started) {
        worker_stop(executor);
        if (on_worker)
            return hand_over;
        pthread_join(executor->thread, NULL);
        registry_remove(executor);
    }
    free(executor);
    reap_detached();
    return false;
}

/* Every worker left: those stopped from a worker thread, possibly still on
 * their way out, and those of queues the application never released, which
 * must not outlive the library's code. Holding registry_lock keeps a
 * worker that is not leaving yet from releasing its context meanwhile.
 *
 * No executor is freed before every worker is joined: a worker still
 * running what is ready may drop the last reference to another queue (held
 * by an event its command waited for) whose worker already left and was
 * joined, and refcl_executor_destroy then reads that queue's executor. A
 * worker may also start another (a callback creating a queue and
 * enqueueing), hence the rounds until none is left. */
void refcl_executors_teardown(void)
{
    struct refcl_executor *joined = NULL;
    for (;;) {
        pthread_mutex_lock(&registry_lock);
        struct refcl_executor *list = registry;
        registry = NULL;
        for (struct refcl_executor *e = list; e; e = e->next)
            if (!e->leaving)
                worker_stop(e);
        pthread_mutex_unlock(&registry_lock);
        if (!list)
            break;
        join_all(list);
        struct refcl_executor *last = list;
        while (last->next)
            last = last->next;
        last->next = joined;
        joined = list;
    }
    free_all(joined);
}
