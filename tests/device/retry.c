/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/retry: a device query that fails for want of memory is tried
 * again by the next one (a failure cached by pthread_once would make
 * every later clGetDeviceIDs fail for the rest of the process).
 *
 * First hwloc's topology load fails once (interposed, as device/ids counts
 * loads): CL_OUT_OF_HOST_MEMORY, then the next query finds the device.
 * Then, in a fresh run of the same program under an address-space limit
 * that grows from nothing left to enough (where such a limit can be set),
 * whichever step runs out first (opening hwloc, loading the topology,
 * creating the device) fails with CL_OUT_OF_HOST_MEMORY and a later query
 * succeeds.
 */
#include <dlfcn.h>
#include <hwloc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"

static int loads_to_fail;

int hwloc_topology_load(hwloc_topology_t topology)
{
    static int (*real)(hwloc_topology_t);
    if (loads_to_fail > 0) {
        loads_to_fail--;
        return -1;
    }
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "hwloc_topology_load");
    return real ? real(topology) : -1;
}

static cl_int device_ids(cl_platform_id platform, cl_device_id *device)
{
    *device = NULL;
    return clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, device, NULL);
}

/* The device works: it answers a query. */
static void check_device(cl_device_id device)
{
    cl_uint units = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                             sizeof(units), &units, NULL),
             CL_SUCCESS);
    CHECK(units >= 1);
}

static void check_failed_load(cl_platform_id platform)
{
    cl_device_id device;
    loads_to_fail = 1;
    CHECK_EQ(device_ids(platform, &device), CL_OUT_OF_HOST_MEMORY);
    CHECK(device == NULL);
    CHECK_EQ(loads_to_fail, 0);
    CHECK_EQ(device_ids(platform, &device), CL_SUCCESS);
    CHECK(device != NULL);
    check_device(device);
}

static void check_growing_limit(cl_platform_id platform)
{
    struct rlimit old;
    CHECK_EQ(getrlimit(RLIMIT_AS, &old), 0);
    size_t base = test_mapped_bytes();
    CHECK(base > 0);
    int failures = 0;
    cl_int err = CL_OUT_OF_HOST_MEMORY;
    cl_device_id device = NULL;
    for (size_t slack = 0; err != CL_SUCCESS && slack <= (1u << 30);
         slack = slack ? 2 * slack : 4096) {
        struct rlimit tight = {base + slack, old.rlim_max};
        CHECK_EQ(setrlimit(RLIMIT_AS, &tight), 0);
        err = device_ids(platform, &device);
        CHECK_EQ(setrlimit(RLIMIT_AS, &old), 0);
        if (err != CL_SUCCESS) {
            CHECK_EQ(err, CL_OUT_OF_HOST_MEMORY);
            failures++;
        }
    }
    fprintf(stderr, "%d failed queries before one succeeded\n", failures);
    /* Nothing left at first: at least that query failed. */
    CHECK(failures >= 1);
    CHECK_EQ(err, CL_SUCCESS);
    check_device(device);
}

int main(int argc, char **argv)
{
    /* A call of hwloc's own keeps the program linked to hwloc, where
     * RTLD_NEXT finds the real load (refcl opens hwloc RTLD_LOCAL). */
    CHECK(hwloc_get_api_version() >= 0x20000);
    cl_platform_id platform;
    CHECK_EQ(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    if (argc > 1 && strcmp(argv[1], "limit") == 0) {
        if (!test_address_limit_usable()) {
            fprintf(stderr, "address-space limit not usable here\n");
            return TEST_SKIP;
        }
        check_growing_limit(platform);
    } else {
        check_failed_load(platform);
    }
    return TEST_RESULT();
}
