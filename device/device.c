/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's devices: creating and freeing them, the root device of each
 * platform (created with the hwloc topology by the first device query, never
 * by platform enumeration), device enumeration (clGetDeviceIDs) and
 * reference counting. Partitioning lives in device/partition.c, device
 * queries in device/info.c.
 */
#include <pthread.h>
#include <stdlib.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/platform.h"
#include "refcl/workers.h"

/* The device types the spec defines, singly or combined; CL_DEVICE_TYPE_ALL
 * is valid too, though it has bits outside this mask. */
#define DEVICE_TYPE_BITS                                                  \
    (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |   \
     CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)

static pthread_once_t roots_once = PTHREAD_ONCE_INIT;
static cl_int roots_status = CL_OUT_OF_HOST_MEMORY;
/* Root devices created so far, kept here so that teardown never has to
 * enumerate (and thereby create) the platforms. */
static struct _cl_device_id *roots[REFCL_MAX_PLATFORMS];
static cl_uint root_count;

/* Gives back what a device owns, then its slot. */
static void device_free(struct _cl_device_id *device)
{
    refcl_device_team_destroy(device);
    free(device->partition_type);
    free(atomic_load_explicit(&device->cpuset_list, memory_order_relaxed));
    hwloc_bitmap_free(device->cpuset);
    refcl_object_free(&device->obj);
}

/* The answers that follow from the device's cpuset. */
static cl_int device_describe(const struct refcl_topology *topo,
                              struct _cl_device_id *device)
{
    int units = hwloc_bitmap_weight(device->cpuset);
    if (units <= 0)
        return CL_OUT_OF_HOST_MEMORY;
    device->compute_units = (cl_uint)units;
    device->global_mem_cache_size =
        refcl_topology_llc_share(topo, device->cpuset);
    return refcl_partition_describe(topo, device);
}

const char *refcl_device_cpuset_list(const struct _cl_device_id *device)
{
    /* Filling in the list does not change the device: a cache, written
     * through a const handle. Threads racing to fill it each format one;
     * the first published wins and the others free theirs. */
    char *_Atomic *list = (char *_Atomic *)&device->cpuset_list;
    char *known = atomic_load_explicit(list, memory_order_acquire);
    if (known)
        return known;
    char *mine;
    if (hwloc_bitmap_list_asprintf(&mine, device->cpuset) < 0)
        return "";
    if (atomic_compare_exchange_strong_explicit(list, &known, mine,
                                                memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free(mine);
    return known;
}

struct _cl_device_id *refcl_device_create(
    struct _cl_platform_id *platform, struct _cl_device_id *parent,
    hwloc_bitmap_t cpuset, cl_device_partition_property *partition_type,
    size_t type_len)
{
    const struct refcl_topology *topo = refcl_topology_get();
    bool complete = topo && cpuset && (!parent || partition_type);
    /* Always from the parent's object: that copies its dispatch and
     * disp_data, at every depth. */
    struct _cl_device_id *device =
        complete ? refcl_object_alloc(REFCL_DEVICE,
                                      parent ? &parent->obj : NULL, platform,
                                      NULL)
                 : NULL;
    if (!device) {
        hwloc_bitmap_free(cpuset);
        free(partition_type);
        return NULL;
    }
    device->cpuset = cpuset;
    device->partition_type = partition_type;
    device->partition_type_len = type_len;
    if (device_describe(topo, device) != CL_SUCCESS) {
        device_free(device);
        return NULL;
    }
    if (parent && !refcl_device_is_root(parent))
        refcl_object_retain(&parent->obj);
    return device;
}

static void roots_create(void)
{
    const struct refcl_topology *topo = refcl_topology_get();
    struct _cl_platform_id *const *platforms;
    cl_uint count = refcl_platforms(&platforms);
    if (!topo || count == 0)
        return;
    for (cl_uint i = 0; i < count && i < REFCL_MAX_PLATFORMS; i++) {
        struct _cl_device_id *device = refcl_device_create(
            platforms[i], NULL, hwloc_bitmap_dup(topo->allowed), NULL, 0);
        if (!device)
            return;
        roots[root_count++] = device;
        platforms[i]->root = device;
    }
    roots_status = CL_SUCCESS;
}

cl_int refcl_root_devices_init(void)
{
    pthread_once(&roots_once, roots_create);
    return roots_status;
}

void refcl_root_devices_teardown(void)
{
    for (cl_uint i = 0; i < root_count; i++) {
        struct _cl_device_id *device = roots[i];
        device->obj.platform->root = NULL;
        device_free(device);
        roots[i] = NULL;
    }
    root_count = 0;
    roots_status = CL_OUT_OF_HOST_MEMORY;
    refcl_topology_teardown();
}

/* refcl has one device per platform: a CPU, which is also the default. */
static bool device_type_matches(cl_device_type type)
{
    return type == CL_DEVICE_TYPE_ALL ||
           (type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)) != 0;
}

cl_int CL_API_CALL refcl_clGetDeviceIDs(cl_platform_id platform,
                                        cl_device_type device_type,
                                        cl_uint num_entries,
                                        cl_device_id *devices,
                                        cl_uint *num_devices)
{
    /* CL_INVALID_PLATFORM "if platform is not a valid platform"; NULL is
     * the default platform ("If platform is NULL, the behavior is
     * implementation-defined"). */
    struct _cl_platform_id *p = refcl_platform_resolve(platform);
    if (!p)
        return CL_INVALID_PLATFORM;
    /* CL_INVALID_DEVICE_TYPE "if device_type is not a valid value". */
    if (device_type != CL_DEVICE_TYPE_ALL &&
        (device_type == 0 || (device_type & ~DEVICE_TYPE_BITS) != 0))
        return CL_INVALID_DEVICE_TYPE;
    /* CL_INVALID_VALUE "if num_entries is equal to zero and devices is not
     * NULL or if both num_devices and devices are NULL". */
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    /* CL_DEVICE_NOT_FOUND "if no OpenCL devices that matched device_type
     * were found"; decided before loading the topology, so that asking for
     * GPUs stays cheap. */
    if (!device_type_matches(device_type))
        return CL_DEVICE_NOT_FOUND;
    /* CL_OUT_OF_HOST_MEMORY "if there is a failure to allocate resources
     * required by the OpenCL implementation on the host". */
    cl_int status = refcl_root_devices_init();
    if (status != CL_SUCCESS)
        return status;

    if (devices)
        devices[0] = p->root;
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

void refcl_device_retain(struct _cl_device_id *device)
{
    if (!refcl_device_is_root(device))
        refcl_object_retain(&device->obj);
}

cl_int CL_API_CALL refcl_clRetainDevice(cl_device_id device)
{
    /* CL_INVALID_DEVICE "if device is not a valid sub-device created by a
     * call to clCreateSubDevices"; for a root device "the device reference
     * count remains unchanged" and the call succeeds. */
    cl_int status = refcl_object_check(device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    refcl_device_retain(device);
    return CL_SUCCESS;
}

/* Frees a sub-device whose last reference is gone, then drops the reference
 * it held on its parent: a chain of sub-devices unwinds without recursion. */
static void device_destroy(struct _cl_device_id *device)
{
    while (device) {
        struct _cl_device_id *parent =
            (struct _cl_device_id *)device->obj.parent;
        device_free(device);
        device = !refcl_device_is_root(parent) &&
                         refcl_object_release(&parent->obj)
                     ? parent
                     : NULL;
    }
}

void refcl_device_release(struct _cl_device_id *device)
{
    if (!refcl_device_is_root(device) && refcl_object_release(&device->obj))
        device_destroy(device);
}

cl_int CL_API_CALL refcl_clReleaseDevice(cl_device_id device)
{
    /* CL_INVALID_DEVICE "if device is not a valid sub-device created by a
     * call to clCreateSubDevices"; a root device's count "remains
     * unchanged". */
    cl_int status = refcl_object_check(device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    refcl_device_release(device);
    return CL_SUCCESS;
}

/* The fission extension's retain/release mean what the core ones mean. */
cl_int CL_API_CALL refcl_clRetainDeviceEXT(cl_device_id device)
{
    return refcl_clRetainDevice(device);
}

cl_int CL_API_CALL refcl_clReleaseDeviceEXT(cl_device_id device)
{
    return refcl_clReleaseDevice(device);
}
