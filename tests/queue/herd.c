/* SPDX-License-Identifier: Apache-2.0 */
/*
 * queue/herd: the queues of one context wake only for their own work.
 * Eight queues of a context, each through one command; then thousands of
 * marker+clFinish round trips on the first: the seven idle queues' worker
 * threads stay asleep — their CPU time (/proc/self/task/<tid>/schedstat)
 * does not grow. clWaitForEvents on an event of one queue returns at that
 * event's completion while another queue of the context is busy; and
 * every thread in clFinish on a queue wakes when its work is done.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define QUEUES 8
#define ROUND_TRIPS 2000
/* CPU an idle worker may use while the busy queue does ROUND_TRIPS round
 * trips: a generous bound for a thread that should not run at all (a
 * wake-up per round trip costs a few microseconds each, many ms in all). */
#define IDLE_CPU_NS 2000000ull
#define MAX_TIDS 64

/* The thread IDs of this process, in @p tids (at most MAX_TIDS). */
static int tids_list(long *tids)
{
    DIR *dir = opendir("/proc/self/task");
    int n = 0;
    if (!dir)
        return -1;
    for (struct dirent *e; (e = readdir(dir)) && n < MAX_TIDS;)
        if (e->d_name[0] != '.')
            tids[n++] = strtol(e->d_name, NULL, 10);
    closedir(dir);
    return n;
}

static bool tids_has(const long *tids, int n, long tid)
{
    for (int i = 0; i < n; i++)
        if (tids[i] == tid)
            return true;
    return false;
}

/* Nanoseconds thread @p tid has run: the first field of its schedstat,
 * or -1 if the kernel has no schedstat. */
static long long cpu_ns(long tid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", tid);
    FILE *f = fopen(path, "r");
    long long ns = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%lld", &ns) != 1)
        ns = -1;
    fclose(f);
    return ns;
}

static void round_trip(cl_command_queue queue)
{
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

/* The idle queues' workers: every thread that appears with the first
 * command of queues 1 .. QUEUES-1. */
static int idle_workers(cl_command_queue *queues, long *idle)
{
    int count = 0;
    for (int q = 1; q < QUEUES; q++) {
        long before[MAX_TIDS], after[MAX_TIDS];
        int nb = tids_list(before);
        round_trip(queues[q]);
        int na = tids_list(after);
        for (int i = 0; i < na && count < MAX_TIDS; i++)
            if (!tids_has(before, nb, after[i]))
                idle[count++] = after[i];
    }
    return count;
}

static int test_herd(cl_context context, cl_device_id device)
{
    cl_command_queue queues[QUEUES];
    cl_int err = 1;
    for (int q = 0; q < QUEUES; q++) {
        queues[q] = clCreateCommandQueueWithProperties(context, device, NULL,
                                                       &err);
        CHECK_EQ(err, CL_SUCCESS);
    }
    round_trip(queues[0]);
    long idle[MAX_TIDS];
    int count = idle_workers(queues, idle);
    CHECK(count >= QUEUES - 1);
    long long before[MAX_TIDS];
    int skip = count < QUEUES - 1;
    for (int i = 0; i < count; i++)
        skip |= (before[i] = cpu_ns(idle[i])) < 0;
    if (!skip) {
        for (int i = 0; i < ROUND_TRIPS; i++)
            round_trip(queues[0]);
        for (int i = 0; i < count; i++) {
            long long used = cpu_ns(idle[i]) - before[i];
            if (used >= (long long)IDLE_CPU_NS)
                fprintf(stderr, "idle worker %ld ran %lld ns\n", idle[i],
                        used);
            CHECK(used < (long long)IDLE_CPU_NS);
        }
    }
    for (int q = 0; q < QUEUES; q++)
        CHECK_EQ(clReleaseCommandQueue(queues[q]), CL_SUCCESS);
    return skip;
}

/* A native kernel that keeps its queue busy until `go` is set (10 s at
 * most, so that a broken wait fails instead of hanging). */
struct busy {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool running, go, done;
};

static void CL_CALLBACK busy_run(void *args)
{
    struct busy *b = *(struct busy **)args;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&b->lock);
    b->running = true;
    pthread_cond_broadcast(&b->cond);
    while (!b->go &&
           pthread_cond_timedwait(&b->cond, &b->lock, &deadline) == 0)
        ;
    b->done = true;
    pthread_mutex_unlock(&b->lock);
}

static void CL_CALLBACK nothing(void *args)
{
    (void)args;
}

/* clWaitForEvents on an event of queue a returns while queue b of the same
 * context is busy: a's completion wakes its waiter, not b's. */
static void test_wait_while_other_busy(cl_context context,
                                       cl_device_id device)
{
    cl_int err = 1;
    cl_command_queue a = clCreateCommandQueueWithProperties(context, device,
                                                            NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_command_queue b = clCreateCommandQueueWithProperties(context, device,
                                                            NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    struct busy busy = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                        false, false, false};
    struct busy *arg = &busy;
    CHECK_EQ(clEnqueueNativeKernel(b, busy_run, &arg, sizeof(arg), 0, NULL,
                                   NULL, 0, NULL, NULL),
             CL_SUCCESS);
    pthread_mutex_lock(&busy.lock);
    while (!busy.running)
        pthread_cond_wait(&busy.cond, &busy.lock);
    pthread_mutex_unlock(&busy.lock);
    /* a's command waits behind a user event, set while b is busy. */
    cl_event user = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event done = NULL;
    CHECK_EQ(clEnqueueNativeKernel(a, nothing, NULL, 0, 0, NULL, NULL, 1,
                                   &user, &done),
             CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    pthread_mutex_lock(&busy.lock);
    CHECK(!busy.done);
    busy.go = true;
    pthread_cond_broadcast(&busy.cond);
    pthread_mutex_unlock(&busy.lock);
    CHECK_EQ(clFinish(b), CL_SUCCESS);
    CHECK(busy.done);
    CHECK_EQ(clReleaseEvent(done), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(user), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(a), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(b), CL_SUCCESS);
}

static void *finish(void *queue)
{
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    return NULL;
}

/* Two threads in clFinish on one queue, asleep (the work they wait for is
 * held back well past any spin): both return once it is done. */
static void test_two_finishers(cl_context context, cl_device_id device)
{
    cl_int err = 1;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event user = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 1, &user, NULL), CL_SUCCESS);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, finish, queue), 0);
    nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    CHECK_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    CHECK_EQ(clReleaseEvent(user), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (!test_first_device(&platform, &device))
        return 1;
    test_thread_baseline();
    cl_int err = 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    int skip = test_herd(context, device);
    test_wait_while_other_busy(context, device);
    test_two_finishers(context, device);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    if (skip && !test_failures) {
        fprintf(stderr, "no /proc/self/task/<tid>/schedstat: herd skipped\n");
        return TEST_SKIP;
    }
    return TEST_RESULT();
}
