/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/partition-threads: clCreateSubDevices, clRetainDevice and
 * clReleaseDevice from 8 threads at once on one shared parent. Threads
 * retain and release the parent, partition it with every scheme, partition
 * the sub-devices again, and trade sub-devices through shared slots, so
 * that a device is often released by another thread than its creator while
 * its parent is being partitioned elsewhere. At the end every count is
 * back where it started. Run under ThreadSanitizer by scripts/test.sh.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define THREADS 8
#define ROUNDS 150
#define SLOTS 32
#define MAX_KIDS 64

static cl_device_id parent;
static cl_uint parent_units;
static _Atomic(cl_device_id) slots[SLOTS];
static pthread_barrier_t start;


static cl_uint units_of(cl_device_id device)
{
    cl_uint units = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                 sizeof(units), &units, NULL) == CL_SUCCESS);
    return units;
}

static cl_device_id parent_of(cl_device_id device)
{
    cl_device_id up = NULL;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof(up),
                                 &up, NULL) == CL_SUCCESS);
    return up;
}

/* A request for the parent, by turn: each scheme makes several devices. */
static void pick_request(unsigned turn, cl_device_partition_property *props)
{
    memset(props, 0, 6 * sizeof(*props));
    switch (turn % 3) {
    case 0:
        props[0] = CL_DEVICE_PARTITION_EQUALLY;
        props[1] = 4;
        break;
    case 1:
        props[0] = CL_DEVICE_PARTITION_BY_COUNTS;
        props[1] = 3;
        props[2] = 5;
        props[3] = 8;
        break;
    default:
        props[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        props[1] = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        break;
    }
}

/* Puts @p device in a random slot and releases what was there: a device
 * some other thread may have made. */
static void trade(cl_device_id device, unsigned *seed)
{
    cl_device_id old = atomic_exchange(&slots[rand_r(seed) % SLOTS], device);
    if (old)
        CHECK(clReleaseDevice(old) == CL_SUCCESS);
}

/* Partitions @p device one unit each; trades the first, releases the rest. */
static void split_further(cl_device_id device, unsigned *seed)
{
    const cl_device_partition_property props[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id kids[MAX_KIDS];
    cl_uint n = 0;
    cl_int rc = clCreateSubDevices(device, props, MAX_KIDS, kids, &n);
    if (units_of(device) < 2) {
        CHECK(rc == CL_DEVICE_PARTITION_FAILED);
        return;
    }
    CHECK(rc == CL_SUCCESS && n == units_of(device));
    for (cl_uint i = 0; rc == CL_SUCCESS && i < n; i++) {
        CHECK(parent_of(kids[i]) == device);
        if (i == 0)
            trade(kids[i], seed);
        else
            CHECK(clReleaseDevice(kids[i]) == CL_SUCCESS);
    }
}

static void round_once(unsigned turn, unsigned *seed)
{
    cl_device_partition_property props[6];
    cl_device_id kids[MAX_KIDS];
    cl_uint n = 0;
    CHECK(clRetainDevice(parent) == CL_SUCCESS);
    pick_request(turn, props);
    CHECK(clCreateSubDevices(parent, props, MAX_KIDS, kids, &n) ==
                 CL_SUCCESS);
    CHECK(n >= 2 && n <= parent_units);
    for (cl_uint i = 0; i < n; i++) {
        CHECK(parent_of(kids[i]) == parent);
        CHECK(clRetainDevice(kids[i]) == CL_SUCCESS);
        CHECK(clReleaseDevice(kids[i]) == CL_SUCCESS);
    }
    split_further(kids[0], seed);
    for (cl_uint i = 0; i < n; i++) {
        if (rand_r(seed) % 2)
            trade(kids[i], seed);
        else
            CHECK(clReleaseDevice(kids[i]) == CL_SUCCESS);
    }
    CHECK(clReleaseDevice(parent) == CL_SUCCESS);
}

static void *worker(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    pthread_barrier_wait(&start);
    for (unsigned turn = 0; turn < ROUNDS; turn++)
        round_once(turn + seed, &seed);
    return NULL;
}

static cl_uint refcount(cl_device_id device)
{
    cl_uint count = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_REFERENCE_COUNT,
                             sizeof(count), &count, NULL),
             CL_SUCCESS);
    return count;
}

/* The shared parent: half the machine, whose other half goes at once. */
static bool parent_create(cl_device_id root)
{
    cl_uint units = units_of(root);
    const cl_device_partition_property props[] = {
        CL_DEVICE_PARTITION_EQUALLY, units / 2, 0};
    cl_device_id halves[2];
    if (units < 32 ||
        clCreateSubDevices(root, props, 2, halves, NULL) != CL_SUCCESS)
        return false;
    CHECK_EQ(clReleaseDevice(halves[1]), CL_SUCCESS);
    parent = halves[0];
    parent_units = units / 2;
    return true;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id root;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &root, NULL) !=
            CL_SUCCESS) {
        fprintf(stderr, "no refcl platform or device\n");
        return 1;
    }
    if (!parent_create(root)) {
        fprintf(stderr, "needs a machine of 32 units or more\n");
        return TEST_SKIP;
    }

    pthread_t threads[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (uintptr_t i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, worker, (void *)(i + 1)),
                 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);

    for (int i = 0; i < SLOTS; i++) {
        cl_device_id left = atomic_exchange(&slots[i], NULL);
        if (left)
            CHECK_EQ(clReleaseDevice(left), CL_SUCCESS);
    }
    CHECK_EQ(refcount(parent), 1);
    CHECK_EQ(refcount(root), 1);
    CHECK_EQ(clReleaseDevice(parent), CL_SUCCESS);
    return TEST_RESULT();
}
