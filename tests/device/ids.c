/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/ids: clGetDeviceIDs for every device type and every error,
 * clRetainDevice / clReleaseDevice on the root device and on bad handles,
 * clCreateSubDevices on bad handles and a count-only query on the root
 * (tests/device/partition.c covers sub-devices), and that only a device
 * query (never platform enumeration) loads the hwloc topology.
 */
#include <dlfcn.h>
#include <hwloc.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

/*
 * Counts the topologies refcl loads. This definition interposes on hwloc's:
 * the executable comes first in symbol lookup (the loader variant is linked
 * with ENABLE_EXPORTS so that a dlopen'ed refcl sees it too).
 */
static int topology_loads;

int hwloc_topology_load(hwloc_topology_t topology)
{
    static int (*real)(hwloc_topology_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "hwloc_topology_load");
    topology_loads++;
    return real ? real(topology) : -1;
}

#define SENTINEL_COUNT 12345u

static cl_platform_id platform;
static cl_device_id root;

/* Outputs of a call, preset to sentinels so that "untouched" is visible. */
struct ids {
    cl_device_id devices[2];
    cl_uint count;
};

static cl_device_id sentinel_device(void)
{
    return (cl_device_id)(uintptr_t)0x5a5a5a5a;
}

static cl_int get_ids(cl_platform_id p, cl_device_type type, struct ids *out)
{
    out->devices[0] = out->devices[1] = sentinel_device();
    out->count = SENTINEL_COUNT;
    return clGetDeviceIDs(p, type, 1, out->devices, &out->count);
}

/*
 * A handle refcl never handed out whose first two words (dispatch,
 * disp_data) are those of @p real: a loader routes it to refcl, which must
 * still refuse it.
 */
static void *fake_of(const void *real, uintptr_t *storage)
{
    memcpy(storage, real, 2 * sizeof(uintptr_t));
    return storage;
}

static void check_type(cl_device_type type, cl_int expected)
{
    struct ids out;
    cl_int rc = get_ids(platform, type, &out);
    if (rc != expected)
        fprintf(stderr, "device type 0x%" PRIx64 ":\n", (uint64_t)type);
    CHECK_EQ(rc, expected);
    if (expected == CL_SUCCESS) {
        CHECK_EQ(out.count, 1);
        CHECK(out.devices[0] == root);
        CHECK(out.devices[1] == sentinel_device());
    } else {
        CHECK_EQ(out.count, SENTINEL_COUNT);
        CHECK(out.devices[0] == sentinel_device());
    }

    /* The count half of the two-call query answers the same. */
    cl_uint count = SENTINEL_COUNT;
    CHECK_EQ(clGetDeviceIDs(platform, type, 0, NULL, &count), expected);
    CHECK_EQ(count, expected == CL_SUCCESS ? 1 : SENTINEL_COUNT);
}

static void check_types(void)
{
    const cl_device_type bad_bit = (cl_device_type)1 << 10;
    const cl_device_type high_bit = (cl_device_type)1 << 32;

    /* The CPU device is also the default device. */
    check_type(CL_DEVICE_TYPE_CPU, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_DEFAULT, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_ALL, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_CUSTOM, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR,
               CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT, CL_SUCCESS);
    check_type(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM |
                   CL_DEVICE_TYPE_DEFAULT,
               CL_SUCCESS);

    check_type(CL_DEVICE_TYPE_GPU, CL_DEVICE_NOT_FOUND);
    check_type(CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_NOT_FOUND);
    check_type(CL_DEVICE_TYPE_CUSTOM, CL_DEVICE_NOT_FOUND);
    check_type(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                   CL_DEVICE_TYPE_CUSTOM,
               CL_DEVICE_NOT_FOUND);

    check_type(0, CL_INVALID_DEVICE_TYPE);
    check_type(bad_bit, CL_INVALID_DEVICE_TYPE);
    check_type(CL_DEVICE_TYPE_CPU | bad_bit, CL_INVALID_DEVICE_TYPE);
    check_type(CL_DEVICE_TYPE_GPU | bad_bit, CL_INVALID_DEVICE_TYPE);
    check_type(high_bit, CL_INVALID_DEVICE_TYPE);
    check_type(CL_DEVICE_TYPE_ALL | high_bit, CL_INVALID_DEVICE_TYPE);
    check_type(~(cl_device_type)0, CL_INVALID_DEVICE_TYPE);
}

static void check_arguments(void)
{
    cl_device_id devices[3] = {sentinel_device(), sentinel_device(),
                               sentinel_device()};
    cl_uint count = SENTINEL_COUNT;

    /* CL_INVALID_VALUE: zero entries with a list, or nowhere to write. */
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, devices, &count),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, devices, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK(devices[0] == sentinel_device());
    CHECK_EQ(count, SENTINEL_COUNT);

    /* More room than devices: one written, the rest untouched. */
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 3, devices, &count),
             CL_SUCCESS);
    CHECK_EQ(count, 1);
    CHECK(devices[0] == root);
    CHECK(devices[1] == sentinel_device());
    CHECK(devices[2] == sentinel_device());

    /* A list without a count, and a count with entries but no list. */
    devices[0] = sentinel_device();
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, devices, NULL),
             CL_SUCCESS);
    CHECK(devices[0] == root);
    count = SENTINEL_COUNT;
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 7, NULL, &count),
             CL_SUCCESS);
    CHECK_EQ(count, 1);

    /* The same handle on every call. */
    for (int i = 0; i < 8; i++) {
        cl_device_id again = NULL;
        CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &again,
                                NULL),
                 CL_SUCCESS);
        CHECK(again == root);
    }
}

static void check_platforms(void)
{
    static _Alignas(256) uintptr_t fake_storage[32];
    struct ids out;
    void *fake = fake_of(platform, fake_storage);

    /* Loaders read handle->dispatch, so only dereferenceable handles go
     * through one: a fake object and a device passed as a platform. */
    CHECK_EQ(get_ids(fake, CL_DEVICE_TYPE_ALL, &out), CL_INVALID_PLATFORM);
    CHECK_EQ(out.count, SENTINEL_COUNT);
    CHECK_EQ(get_ids((cl_platform_id)root, CL_DEVICE_TYPE_ALL, &out),
             CL_INVALID_PLATFORM);
    CHECK(out.devices[0] == sentinel_device());
    /* A bad platform wins over a bad device type. */
    CHECK_EQ(get_ids(fake, 0, &out), CL_INVALID_PLATFORM);
    if (test_through_loader())
        return;

    /* Direct: NULL is refcl's default platform; anything else refcl did not
     * hand out is refused without being read. */
    CHECK_EQ(get_ids(NULL, CL_DEVICE_TYPE_ALL, &out), CL_SUCCESS);
    CHECK(out.devices[0] == root);
    CHECK_EQ(out.count, 1);
    CHECK_EQ(get_ids(test_zeroed_handle(), CL_DEVICE_TYPE_ALL, &out),
             CL_INVALID_PLATFORM);
    CHECK_EQ(get_ids(test_unmapped_handle(), CL_DEVICE_TYPE_ALL, &out),
             CL_INVALID_PLATFORM);
    CHECK_EQ(get_ids((cl_platform_id)((char *)platform + 8),
                     CL_DEVICE_TYPE_ALL, &out),
             CL_INVALID_PLATFORM);
    CHECK_EQ(out.count, SENTINEL_COUNT);
}

static cl_uint reference_count(cl_device_id device)
{
    cl_uint count = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_REFERENCE_COUNT, sizeof(count),
                             &count, NULL),
             CL_SUCCESS);
    return count;
}

static void check_refcount(void)
{
    /* Root devices: CL_SUCCESS, and the count stays one. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clRetainDevice(root), CL_SUCCESS);
    CHECK_EQ(reference_count(root), 1);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(clReleaseDevice(root), CL_SUCCESS);
    CHECK_EQ(reference_count(root), 1);
    cl_device_id again = NULL;
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &again, NULL),
             CL_SUCCESS);
    CHECK(again == root);
}

static void check_bad_devices(void)
{
    static _Alignas(256) uintptr_t fake_storage[32];
    cl_device_id fake = fake_of(root, fake_storage);
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id bad[5] = {fake, (cl_device_id)platform, NULL,
                           test_zeroed_handle(), test_unmapped_handle()};
    /* Through a loader only the handles it can dereference. */
    int count = test_through_loader() ? 2 : 5;

    for (int i = 0; i < count; i++) {
        cl_uint n = SENTINEL_COUNT;
        CHECK_EQ(clRetainDevice(bad[i]), CL_INVALID_DEVICE);
        CHECK_EQ(clReleaseDevice(bad[i]), CL_INVALID_DEVICE);
        CHECK_EQ(clCreateSubDevices(bad[i], equally, 0, NULL, &n),
                 CL_INVALID_DEVICE);
        CHECK_EQ(n, SENTINEL_COUNT);
    }
    CHECK_EQ(reference_count(root), 1);
}

/* The root partitions like any device: a count-only query answers and
 * creates nothing; a bad list or too small an out_devices is refused. */
static void check_sub_devices(void)
{
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id out[1] = {sentinel_device()};
    cl_uint units = 0, n = SENTINEL_COUNT;
    CHECK_EQ(clGetDeviceInfo(root, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                             &units, NULL),
             CL_SUCCESS);
    /* One unit per sub-device; a single unit "could not be further
     * partitioned". */
    CHECK_EQ(clCreateSubDevices(root, equally, 0, NULL, &n),
             units >= 2 ? CL_SUCCESS : CL_DEVICE_PARTITION_FAILED);
    CHECK_EQ(n, units >= 2 ? units : SENTINEL_COUNT);
    n = SENTINEL_COUNT;
    if (units >= 2)
        CHECK_EQ(clCreateSubDevices(root, equally, 1, out, &n),
                 CL_INVALID_VALUE);
    CHECK_EQ(clCreateSubDevices(root, NULL, 1, out, &n), CL_INVALID_VALUE);
    CHECK_EQ(n, SENTINEL_COUNT);
    CHECK(out[0] == sentinel_device());
    CHECK_EQ(reference_count(root), 1);
}

#define RACERS 8
static pthread_barrier_t race_start;

/* One of RACERS threads asking for the device at the same moment. */
static void *race(void *result)
{
    cl_device_id *device = result;
    cl_uint count = 0;
    pthread_barrier_wait(&race_start);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, device, &count) !=
            CL_SUCCESS ||
        count != 1)
        *device = NULL;
    return NULL;
}

/* Platform enumeration and queries, and device queries that match no
 * device or fail validation, leave the topology alone; the first query that
 * needs the device loads it, once, however many threads ask at once. */
static void check_lazy_topology(void)
{
    char name[64];
    cl_uint count = SENTINEL_COUNT;
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name,
                               NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, NULL, &count),
             CL_DEVICE_NOT_FOUND);
    CHECK_EQ(clGetDeviceIDs(platform, 0, 0, NULL, &count),
             CL_INVALID_DEVICE_TYPE);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(topology_loads, 0);

    pthread_t threads[RACERS];
    cl_device_id found[RACERS];
    pthread_barrier_init(&race_start, NULL, RACERS);
    for (int i = 0; i < RACERS; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, race, &found[i]), 0);
    for (int i = 0; i < RACERS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&race_start);
    root = found[0];
    CHECK(root != NULL);
    for (int i = 1; i < RACERS; i++)
        CHECK(found[i] == root);
    CHECK_EQ(topology_loads, 1);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &count),
             CL_SUCCESS);
    CHECK_EQ(topology_loads, 1);
}

int main(void)
{
    /* Keeps libhwloc a direct dependency, where RTLD_NEXT finds it. */
    CHECK(hwloc_get_api_version() >= 0x20000);

    cl_uint platforms = 0;
    if (clGetPlatformIDs(1, &platform, &platforms) != CL_SUCCESS ||
        platforms != 1) {
        fprintf(stderr, "expected exactly one platform, got %u\n", platforms);
        return 1;
    }
    CHECK_EQ(topology_loads, 0);
    check_lazy_topology();
    if (!root)
        return 1;

    check_types();
    check_arguments();
    check_platforms();
    check_refcount();
    check_bad_devices();
    check_sub_devices();
    return TEST_RESULT();
}
