/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench's figures of command-queues (bench/README.md): a marker and
 * clFinish, the smallest round trip through a queue, on one queue of a
 * context, and on one of eight queues of a context whose seven others are
 * idle after one command each — what an application with a queue per
 * thread or per stream pays, when one queue's work wakes the others. Each
 * in wall time and in the process's CPU time per round trip.
 */
#include <stddef.h>

#include "bench.h"

#define HERD 8

static cl_command_queue queues[HERD];
static int queue_count;

/* One round trip: a marker, then clFinish. */
static cl_int round_trip(cl_command_queue queue)
{
    cl_int err = clEnqueueMarkerWithWaitList(queue, 0, NULL, NULL);
    return err == CL_SUCCESS ? clFinish(queue) : err;
}

/* Makes @p count queues of the bench's context, each through one round
 * trip, so that every one has whatever a queue starts on first use. */
static cl_int queues_setup(const struct bench *b, int count)
{
    cl_int err = CL_SUCCESS;
    for (queue_count = 0; queue_count < count && err == CL_SUCCESS;) {
        queues[queue_count] = clCreateCommandQueueWithProperties(
            b->context, b->device, NULL, &err);
        if (err == CL_SUCCESS)
            err = round_trip(queues[queue_count++]);
    }
    return err;
}

/* The work's units are the number of queues. */
static cl_int herd_setup(const struct bench *b, int units)
{
    return queues_setup(b, units);
}

/* Round trips on the first queue only; the others stay idle. */
static cl_int busy_loop(const struct bench *b, long n)
{
    (void)b;
    for (long i = 0; i < n; i++) {
        cl_int err = round_trip(queues[0]);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static void queues_teardown(void)
{
    while (queue_count > 0)
        clReleaseCommandQueue(queues[--queue_count]);
}

const struct work bench_queues_one = {herd_setup, busy_loop, queues_teardown,
                                      1, 0};
const struct work bench_queues_herd = {herd_setup, busy_loop, queues_teardown,
                                       HERD, 0};
