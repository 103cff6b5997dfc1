/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor of a command-queue: one worker thread per queue, started by
 * its first enqueue and joined when the queue is destroyed, that takes the
 * queue's commands as the events they wait for complete and moves each
 * through SUBMITTED, RUNNING and COMPLETE.
 *
 * Each executor has a lock of its own, guarding its pending list and the
 * scheduling fields of its commands, and two condition variables: `work`,
 * the worker's, signalled when a command becomes ready or the worker must
 * stop; `idle`, clFinish's, signalled when the last command is retired.
 * A pending command counts its dependencies not complete yet; an event's
 * completion tells exactly the queues of the commands waiting for it
 * (refcl_executor_dep_done), so an idle queue is never woken. Lock order:
 * the executor's lock, then an event's (refcl/event.h); registry_lock
 * before an executor's. Callbacks, work and releases run with no lock held.
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
    struct _cl_context *context; /* the queue's, handed over if detached */
    /* The processing units of the queue's device, for the worker to bind
     * to as it starts; its own copy, freed once bound: a queue destroyed
     * on a worker thread may free its sub-device before this worker has
     * even started. */
    hwloc_bitmap_t units;
    bool in_order;
    pthread_mutex_t lock;
    pthread_cond_t work; /* the worker sleeps on it */
    pthread_cond_t idle; /* clFinish sleeps on it */
    /* Bumped under the lock with each signal of work / idle: what a waiter
     * spinning before it sleeps watches, without the lock. */
    atomic_uint work_signals, idle_signals;
    /* Under the lock. */
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

static void executor_free(struct refcl_executor *executor)
{
    pthread_cond_destroy(&executor->idle);
    pthread_cond_destroy(&executor->work);
    pthread_mutex_destroy(&executor->lock);
    free(executor);
}

static void free_all(struct refcl_executor *list)
{
    while (list) {
        struct refcl_executor *next = list->next;
        executor_free(list);
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
        pthread_mutex_init(&executor->lock, NULL);
        pthread_cond_init(&executor->work, NULL);
        pthread_cond_init(&executor->idle, NULL);
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

/* Gives @p command its dependencies, each retained: the wait list first. */
static cl_int deps_take(struct refcl_executor *executor,
                        struct _cl_event *command, cl_uint num_events,
                        const cl_event *wait_list)
{
    bool sync = command->ops == NULL;
    size_t count = num_events + order_deps(executor, sync, num_events, NULL);
    if (count == 0)
        return CL_SUCCESS;
    struct refcl_dep *deps = calloc(count, sizeof(*deps));
    struct _cl_event **order = malloc((count - num_events + 1) *
                                      sizeof(*order));
    if (!deps || !order) {
        free(deps);
        free(order);
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                          "command's %zu dependencies", count);
    }
    order_deps(executor, sync, num_events, order);
    for (size_t i = 0; i < count; i++) {
        deps[i].event = i < num_events ? wait_list[i] : order[i - num_events];
        deps[i].command = command;
        deps[i].in_wait_list = i < num_events;
        refcl_object_retain(&deps[i].event->obj);
    }
    free(order);
    command->deps = deps;
    command->dep_count = (cl_uint)count;
    return CL_SUCCESS;
}

/* Enters @p command in the dependents of each event it waits for that is
 * not complete yet, counting them. Under the executor's lock, so that no
 * completion can count down before the count is up. */
static void deps_register(struct _cl_event *command)
{
    for (cl_uint i = 0; i < command->dep_count; i++) {
        struct refcl_dep *dep = &command->deps[i];
        pthread_mutex_t *lock = refcl_event_lock(dep->event);
        pthread_mutex_lock(lock);
        cl_int status = atomic_load_explicit(&dep->event->status,
                                             memory_order_relaxed);
        if (status > CL_COMPLETE) {
            dep->next = dep->event->dependents;
            dep->event->dependents = dep;
            command->unfinished++;
        } else if (status < 0 && dep->in_wait_list) {
            command->failed = true;
        }
        pthread_mutex_unlock(lock);
    }
}

/* Wakes whoever sleeps on @p cond — the worker, or every thread in
 * clFinish on the queue — and bumps its counter, under the executor's
 * lock. */
static void wake(pthread_cond_t *cond, atomic_uint *signals)
{
    atomic_fetch_add_explicit(signals, 1, memory_order_release);
    pthread_cond_broadcast(cond);
}

void refcl_executor_dep_done(struct refcl_dep *dep, cl_int status)
{
    struct _cl_event *command = dep->command;
    /* The command holds its queue, and the queue's list the command,
     * until it is done: it cannot be before this count reaches 0. */
    struct refcl_executor *executor = command->queue->executor;
    pthread_mutex_lock(&executor->lock);
    /* "In order for the execution status of an enqueued command to change
     * from CL_SUBMITTED to CL_RUNNING, all events that this command is
     * waiting on must have completed successfully"; a negative user event
     * status "causes all enqueued commands that wait on this user event to
     * be terminated". */
    if (status < 0 && dep->in_wait_list)
        command->failed = true;
    if (--command->unfinished == 0)
        wake(&executor->work, &executor->work_signals);
    pthread_mutex_unlock(&executor->lock);
}

/* The oldest command not started yet whose dependencies are complete. An
 * in-order queue's later commands all wait for its oldest. Under the
 * lock. */
static struct _cl_event *next_ready(const struct refcl_executor *executor)
{
    for (struct _cl_event *c = executor->head; c; c = c->next) {
        if (!c->taken && c->unfinished == 0)
            return c;
        if (executor->in_order)
            break;
    }
    return NULL;
}

/* Moves @p command to @p status (not final) and calls the callbacks due. */
static void advance(struct _cl_event *command, cl_int status)
{
    refcl_callbacks_run(command,
                        refcl_event_set_status(command, status, false, NULL));
}

/* Drops what @p command holds for its work: the events it waited for,
 * its queue, its payload. Any of them may be destroyed here (the queue
 * too, when the application released it before this command was done:
 * refcl_executor_destroy then only marks the executor stopping, and the
 * executor and the context, handed over, stay alive until this worker
 * leaves). No lock held. */
static void holds_drop(struct _cl_event *command)
{
    struct refcl_dep *deps = command->deps;
    cl_uint count = command->dep_count;
    command->deps = NULL;
    command->dep_count = 0;
    for (cl_uint i = 0; i < count; i++)
        refcl_event_release(deps[i].event);
    free(deps);
    refcl_event_drop_work(command);
}

/* Ends @p command with @p status. Everything it holds goes first, the
 * pending list's reference on its event too unless callbacks will be due:
 * once its status is stored, the application may see it (clGetEventInfo
 * reads it without a lock) and release the last references. The callbacks
 * then run, and only then is the command retired, so that clFinish
 * returns with all of that done. No lock held. */
static void complete(struct refcl_executor *executor,
                     struct _cl_event *command, cl_int status)
{
    pthread_mutex_lock(&executor->lock);
    pending_remove(executor, command);
    pthread_mutex_unlock(&executor->lock);
    holds_drop(command);
    bool last = false;
    struct refcl_callback *due =
        refcl_event_set_status(command, status, true, &last);
    if (due) {
        refcl_callbacks_run(command, due);
        refcl_event_release(command);
    } else if (last) {
        refcl_event_destroy(command);
    }
    pthread_mutex_lock(&executor->lock);
    if (--executor->unretired == 0 && executor->finishers)
        wake(&executor->idle, &executor->idle_signals);
    pthread_mutex_unlock(&executor->lock);
}

/* Runs @p command, on its worker or on the thread that enqueued it; called
 * and returns with the executor's lock held, which is dropped meanwhile. */
static void run(struct refcl_executor *executor, struct _cl_event *command)
{
    command->taken = true;
    bool failed = command->failed;
    pthread_mutex_unlock(&executor->lock);
    if (failed) {
        complete(executor, command,
                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
        advance(command, CL_SUBMITTED);
        advance(command, CL_RUNNING);
        cl_int status = CL_COMPLETE;
        if (command->ops && command->ops->run)
            status = command->ops->run(command->payload, command->queue);
        complete(executor, command, status);
    }
    pthread_mutex_lock(&executor->lock);
}

struct signals_seen {
    const atomic_uint *signals;
    unsigned seen;
};

static bool signalled(const void *arg)
{
    const struct signals_seen *s = arg;
    return atomic_load_explicit(s->signals, memory_order_acquire) != s->seen;
}

/* Waits for the next signal of @p cond; called and returns with the
 * executor's lock held. Spins a moment with the lock dropped first
 * (refcl_spin_until). May return early; callers test their condition
 * again. */
static void executor_wait(struct refcl_executor *executor,
                          pthread_cond_t *cond, atomic_uint *signals)
{
    struct signals_seen s = {
        signals, atomic_load_explicit(signals, memory_order_relaxed)};
    pthread_mutex_unlock(&executor->lock);
    refcl_spin_until(signalled, &s);
    pthread_mutex_lock(&executor->lock);
    /* Signals come under the lock: if none came, the next one wakes us. */
    if (!signalled(&s))
        pthread_cond_wait(cond, &executor->lock);
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
    pthread_mutex_lock(&executor->lock);
    /* Even told to stop, run what is ready: a queue being destroyed has
     * nothing left, and at unload work that can still complete does. */
    for (;;) {
        struct _cl_event *command = next_ready(executor);
        if (command)
            run(executor, command);
        else if (executor->stopping)
            break;
        else
            executor_wait(executor, &executor->work, &executor->work_signals);
    }
    pthread_mutex_unlock(&executor->lock);
    registry_mark(&executor->leaving);
    if (atomic_load(&executor->detached))
        refcl_context_release(context);
    registry_mark(&executor->exited);
    return NULL;
}

/* Starts the worker on the first enqueue, with every signal blocked: the
 * application's handlers are not for refcl's threads. registry_lock
 * guards `started`; it is never taken with an executor's lock held. */
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
    return rc == 0 ? CL_SUCCESS
                   : REFCL_FAIL(CL_OUT_OF_RESOURCES, "the queue's worker "
                                "thread: pthread_create %d", rc);
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
        refcl_event_create(queue->context, queue, command->type,
                           refcl_queue_profiling(queue));
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
    struct _cl_event *created = command_create(queue, command);
    if (!created)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    cl_int status = worker_start(executor, queue->device);
    if (status == CL_SUCCESS) {
        pthread_mutex_lock(&executor->lock);
        status = deps_take(executor, created, command->num_events,
                           command->wait_list);
        if (status == CL_SUCCESS) {
            pending_append(executor, created);
            executor->unretired++;
            if (command->barrier && !executor->in_order)
                executor->barrier = created;
            deps_register(created);
            if (runs_on_caller(executor, created))
                run(executor, created);
            else if (created->unfinished == 0)
                wake(&executor->work, &executor->work_signals);
        }
        pthread_mutex_unlock(&executor->lock);
    }
    /* A blocking command's result is its own: CL_SUCCESS, or the error it
     * ended with. */
    if (status == CL_SUCCESS && command->blocking) {
        cl_int end = refcl_event_wait(created);
        status = end < 0 ? end : CL_SUCCESS;
    }
    /* "If event is NULL or the enqueue is unsuccessful, no event will be
     * created": the list keeps its own reference while pending. A blocking
     * command that failed is an unsuccessful enqueue. */
    if (status == CL_SUCCESS && event)
        *event = created;
    else
        refcl_event_release(created);
    return status;
}

void refcl_executor_finish(struct _cl_command_queue *queue)
{
    struct refcl_executor *executor = queue->executor;
    pthread_mutex_lock(&executor->lock);
    executor->finishers++;
    while (executor->unretired)
        executor_wait(executor, &executor->idle, &executor->idle_signals);
    executor->finishers--;
    pthread_mutex_unlock(&executor->lock);
}

/* Tells the worker to stop; it leaves once nothing is ready to run. */
static void worker_stop(struct refcl_executor *executor)
{
    pthread_mutex_lock(&executor->lock);
    executor->stopping = true;
    wake(&executor->work, &executor->work_signals);
    pthread_mutex_unlock(&executor->lock);
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
    executor_free(executor);
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

/* The event layer, below this one, learns at load how a command's event
 * reaches its queue. */
__attribute__((constructor)) static void executor_register(void)
{
    static const struct refcl_queue_hooks hooks = {
        .dep_done = refcl_executor_dep_done,
        .release = refcl_queue_release,
    };
    refcl_event_queue_register(&hooks);
}
