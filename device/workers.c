/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A device's compute units at work (refcl/workers.h).
 *
 * Each device, root or sub-device, gets a team on its first command that
 * spreads over its compute units: one helper thread for every compute unit
 * but one, each bound to its own processing unit. The queue worker that
 * runs the command takes pieces too; it is bound to the whole device, so
 * the system puts it on the unit no helper holds. Several queues of one
 * device share its team: each call posts a job, helpers take pieces of the
 * oldest job with pieces left, and each caller works on its own job until
 * every piece of it has been taken, then waits for the helpers still in it.
 *
 * Lifetime: a team belongs to its device. A sub-device's team is joined
 * when the sub-device is freed; root devices live until unload, which
 * joins every team left once the queues' workers are gone. Helpers wait
 * for nothing but work, so joining them never waits for application code.
 *
 * Binding: hwloc cpubind of each thread to its units, and membind to the
 * device's NUMA nodes when they are not all of the machine's (a NUMA
 * sub-device). REFCL_BIND=0 turns both off. A topology that is not this
 * machine (HWLOC_SYNTHETIC, XML) describes units that do not exist: hwloc
 * would "bind" to them without doing anything, so refcl says once that it
 * does not bind, and gives such a device no more helpers than the process
 * has CPUs.
 */
#include "refcl/workers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/config.h"

/* One refcl_device_run call, on its caller's stack: pieces are taken by
 * index, each once. */
struct job {
    refcl_piece_fn fn;
    void *arg;
    size_t count;
    atomic_size_t next;   /* the next piece to take; >= count: all taken */
    /* Under the team's lock. */
    unsigned helpers;     /* helpers working on it */
    bool listed;          /* in the team's list: may have pieces left */
    struct job *next_job;
};

struct helper {
    struct refcl_team *team;
    int pu;               /* OS index of its processing unit */
    pthread_t thread;
};

struct refcl_team {
    struct _cl_device_id *device;
    pthread_mutex_t lock;
    pthread_cond_t work;  /* helpers: a job was posted, or stop */
    pthread_cond_t idle;  /* callers: a helper left a job */
    struct job *jobs;     /* posted, oldest first */
    bool stopping;
    unsigned size;        /* helpers started */
    struct helper *helpers;
    struct refcl_team *next; /* in the registry */
};

/* Every team, so that unload can join them; guards team creation too. */
static pthread_mutex_t teams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct refcl_team *teams;

/* ---- binding ------------------------------------------------------------- */

static atomic_bool cpubind_reported, membind_reported;

/* One line on stderr, the first time only: binding fails for every thread
 * alike, and a message per thread would drown the application's output. */
static void report_once(atomic_bool *reported, const char *format,
                        const char *detail)
{
    if (!atomic_exchange(reported, true))
        fprintf(stderr, format, detail);
}

/* The NUMA nodes that share units with @p set, when they are fewer than
 * the nodes of the machine: where the memory of threads running on @p set
 * belongs. NULL when binding memory would change nothing. */
static hwloc_bitmap_t near_nodes(const struct refcl_topology *topo,
                                 hwloc_const_cpuset_t set)
{
    unsigned near = 0, all = 0;
    hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
    hwloc_obj_t node = NULL;
    while (nodes && (node = hwloc_get_next_obj_by_type(
                         topo->topo, HWLOC_OBJ_NUMANODE, node))) {
        if (!node->cpuset ||
            !hwloc_bitmap_intersects(node->cpuset, topo->allowed))
            continue;
        all++;
        if (hwloc_bitmap_intersects(node->cpuset, set)) {
            near++;
            hwloc_bitmap_set(nodes, node->os_index);
        }
    }
    if (nodes && (near == 0 || near == all)) {
        hwloc_bitmap_free(nodes);
        nodes = NULL;
    }
    return nodes;
}

static void bind_memory(const struct refcl_topology *topo,
                        hwloc_const_cpuset_t device_set)
{
    hwloc_bitmap_t nodes = near_nodes(topo, device_set);
    if (!nodes)
        return;
    if (hwloc_set_membind(topo->topo, nodes, HWLOC_MEMBIND_BIND,
                          HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) != 0)
        report_once(&membind_reported,
                    "refcl: cannot bind the memory of threads to their "
                    "device's NUMA nodes (%s); memory is placed by the "
                    "system\n",
                    strerror(errno));
    hwloc_bitmap_free(nodes);
}

/* Binds the calling thread to @p set, one of a device's units or all of
 * them, and its memory to the NUMA nodes of the device's @p units. */
static void bind_thread(hwloc_const_cpuset_t units, hwloc_const_cpuset_t set)
{
    const struct refcl_topology *topo = refcl_topology_get();
    if (!refcl_config()->bind || !topo)
        return;
    if (!hwloc_topology_is_thissystem(topo->topo)) {
        report_once(&cpubind_reported,
                    "refcl: threads are not bound to their device's "
                    "processing units: the hwloc topology (%s) is not this "
                    "machine\n",
                    "HWLOC_SYNTHETIC or an XML file");
        return;
    }
    if (hwloc_set_cpubind(topo->topo, set, HWLOC_CPUBIND_THREAD) != 0)
        report_once(&cpubind_reported,
                    "refcl: cannot bind threads to their device's "
                    "processing units (%s); they run where the system puts "
                    "them\n",
                    strerror(errno));
    bind_memory(topo, units);
}

void refcl_thread_bind(hwloc_const_cpuset_t units)
{
    bind_thread(units, units);
}

/* ---- the team's threads --------------------------------------------------- */

/* Runs pieces of @p job until every piece has been taken. */
static void job_work(struct job *job)
{
    size_t i;
    while ((i = atomic_fetch_add_explicit(&job->next, 1,
                                          memory_order_relaxed)) < job->count)
        job->fn(job->arg, i);
}

/* Takes @p job off the list: every piece of it has been taken. Under the
 * team's lock. */
static void job_unlist(struct refcl_team *team, struct job *job)
{
    if (!job->listed)
        return;
    for (struct job **p = &team->jobs; *p; p = &(*p)->next_job)
        if (*p == job) {
            *p = job->next_job;
            break;
        }
    job->listed = false;
}

static void *helper_main(void *arg)
{
    struct helper *self = arg;
    struct refcl_team *team = self->team;
    hwloc_bitmap_t unit = hwloc_bitmap_alloc();
    if (unit && hwloc_bitmap_only(unit, (unsigned)self->pu) == 0)
        bind_thread(team->device->cpuset, unit);
    else
        bind_thread(team->device->cpuset, team->device->cpuset);
    if (unit)
        hwloc_bitmap_free(unit);

    pthread_mutex_lock(&team->lock);
    while (!team->stopping) {
        struct job *job = team->jobs;
        if (!job) {
            pthread_cond_wait(&team->work, &team->lock);
            continue;
        }
        job->helpers++;
        pthread_mutex_unlock(&team->lock);
        job_work(job);
        pthread_mutex_lock(&team->lock);
        job_unlist(team, job);
        /* The caller waits for this before its job leaves its stack. */
        if (--job->helpers == 0)
            pthread_cond_broadcast(&team->idle);
    }
    pthread_mutex_unlock(&team->lock);
    return NULL;
}

/* CPUs this process may run on: the most threads that can make progress
 * at once on a topology that is not this machine. */
static unsigned process_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? (unsigned)n : 1;
}

/* Helpers for @p device: one per compute unit but the caller's. */
static unsigned helper_count(const struct _cl_device_id *device)
{
    unsigned units = device->compute_units;
    const struct refcl_topology *topo = refcl_topology_get();
    if (topo && !hwloc_topology_is_thissystem(topo->topo)) {
        unsigned cpus = process_cpus();
        units = units < cpus ? units : cpus;
    }
    return units - 1;
}

static void team_free(struct refcl_team *team)
{
    pthread_cond_destroy(&team->idle);
    pthread_cond_destroy(&team->work);
    pthread_mutex_destroy(&team->lock);
    free(team->helpers);
    free(team);
}

/* Stops the helpers and joins them. */
static void team_destroy(struct refcl_team *team)
{
    pthread_mutex_lock(&team->lock);
    team->stopping = true;
    pthread_cond_broadcast(&team->work);
    pthread_mutex_unlock(&team->lock);
    for (unsigned i = 0; i < team->size; i++)
        pthread_join(team->helpers[i].thread, NULL);
    team_free(team);
}

/* Starts the helpers of @p team, each on the next unit of the device after
 * the first (the caller's), with every signal blocked: the application's
 * handlers are not for refcl's threads. @return how many started. */
static unsigned helpers_start(struct refcl_team *team, unsigned wanted)
{
    hwloc_const_cpuset_t set = team->device->cpuset;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int pu = hwloc_bitmap_first(set);
    while (team->size < wanted && (pu = hwloc_bitmap_next(set, pu)) >= 0) {
        struct helper *h = &team->helpers[team->size];
        *h = (struct helper){team, pu, 0};
        if (pthread_create(&h->thread, NULL, helper_main, h) != 0)
            break;
        team->size++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return team->size;
}

/* A team for @p device, or NULL when it needs none, memory runs out or no
 * thread can be started: the caller then runs every piece itself. */
static struct refcl_team *team_create(struct _cl_device_id *device)
{
    unsigned wanted = helper_count(device);
    struct refcl_team *team = wanted ? calloc(1, sizeof(*team)) : NULL;
    if (!team)
        return NULL;
    team->device = device;
    team->helpers = calloc(wanted, sizeof(*team->helpers));
    pthread_mutex_init(&team->lock, NULL);
    pthread_cond_init(&team->work, NULL);
    pthread_cond_init(&team->idle, NULL);
    if (!team->helpers || helpers_start(team, wanted) == 0) {
        team_free(team);
        return NULL;
    }
    return team;
}

/* @p device's team, started on first use. */
static struct refcl_team *team_get(struct _cl_device_id *device)
{
    struct refcl_team *team =
        atomic_load_explicit(&device->team, memory_order_acquire);
    if (team || device->compute_units < 2)
        return team;
    pthread_mutex_lock(&teams_lock);
    team = atomic_load_explicit(&device->team, memory_order_relaxed);
    if (!team && (team = team_create(device))) {
        team->next = teams;
        teams = team;
        atomic_store_explicit(&device->team, team, memory_order_release);
    }
    pthread_mutex_unlock(&teams_lock);
    return team;
}

/* Wakes as many helpers as there are pieces for them. Under the lock. */
static void helpers_wake(struct refcl_team *team, size_t pieces)
{
    if (pieces >= team->size) {
        pthread_cond_broadcast(&team->work);
        return;
    }
    for (size_t i = 0; i < pieces; i++)
        pthread_cond_signal(&team->work);
}

void refcl_device_run(struct _cl_device_id *device, size_t count,
                      refcl_piece_fn fn, void *arg)
{
    /* A single piece runs where it is: waking a helper only adds latency. */
    struct refcl_team *team = count > 1 ? team_get(device) : NULL;
    if (!team) {
        for (size_t i = 0; i < count; i++)
            fn(arg, i);
        return;
    }
    struct job job = {.fn = fn, .arg = arg, .count = count, .listed = true};
    atomic_init(&job.next, 0);
    pthread_mutex_lock(&team->lock);
    struct job **tail = &team->jobs;
    while (*tail)
        tail = &(*tail)->next_job;
    *tail = &job;
    helpers_wake(team, count - 1);
    pthread_mutex_unlock(&team->lock);

    job_work(&job);

    pthread_mutex_lock(&team->lock);
    job_unlist(team, &job);
    while (job.helpers)
        pthread_cond_wait(&team->idle, &team->lock);
    pthread_mutex_unlock(&team->lock);
}

static void registry_remove(struct refcl_team *team)
{
    for (struct refcl_team **p = &teams; *p; p = &(*p)->next)
        if (*p == team) {
            *p = team->next;
            return;
        }
}

void refcl_device_team_destroy(struct _cl_device_id *device)
{
    pthread_mutex_lock(&teams_lock);
    struct refcl_team *team = atomic_exchange_explicit(
        &device->team, NULL, memory_order_acq_rel);
    if (team)
        registry_remove(team);
    pthread_mutex_unlock(&teams_lock);
    if (team)
        team_destroy(team);
}

void refcl_teams_teardown(void)
{
    pthread_mutex_lock(&teams_lock);
    struct refcl_team *list = teams;
    teams = NULL;
    for (struct refcl_team *t = list; t; t = t->next)
        atomic_store_explicit(&t->device->team, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&teams_lock);
    while (list) {
        struct refcl_team *next = list->next;
        team_destroy(list);
        list = next;
    }
}
