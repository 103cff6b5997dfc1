/*
 * refcl's devices: the root device of each platform (created with the hwloc
 * topology by the first device query, never by platform enumeration), device
 * enumeration (clGetDeviceIDs), reference counting and partitioning entry
 * points. Device queries live in device/info.c.
 */
#include <pthread.h>
#include <stdlib.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/platform.h"

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

static struct _cl_device_id *root_create(struct _cl_platform_id *platform,
                                         const struct refcl_topology *topo)
{
    struct _cl_device_id *device =
        refcl_object_alloc(REFCL_DEVICE, NULL, platform, NULL);
    if (!device)
        return NULL;
    device->cpuset = hwloc_bitmap_dup(topo->allowed);
    if (!device->cpuset) {
        refcl_object_free(&device->obj);
        return NULL;
    }
    device->compute_units = topo->pu_count;
    device->global_mem_cache_size =
        refcl_topology_llc_share(topo, device->cpuset);
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
        struct _cl_device_id *device = root_create(platforms[i], topo);
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
        hwloc_bitmap_free(device->cpuset);
        refcl_object_free(&device->obj);
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

cl_int CL_API_CALL refcl_clRetainDevice(cl_device_id device)
{
    /* CL_INVALID_DEVICE "if device is not a valid sub-device created by a
     * call to clCreateSubDevices"; for a root device "the device reference
     * count remains unchanged" and the call succeeds. */
    cl_int status = refcl_object_check(device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    if (!refcl_device_is_root(device))
        refcl_object_retain(&device->obj);
    return CL_SUCCESS;
}

/* Frees a sub-device whose last reference is gone, then drops the reference
 * it held on its parent: a chain of sub-devices unwinds without recursion. */
static void device_destroy(struct _cl_device_id *device)
{
    while (device) {
        struct _cl_device_id *parent =
            (struct _cl_device_id *)device->obj.parent;
        free(device->partition_type);
        hwloc_bitmap_free(device->cpuset);
        refcl_object_free(&device->obj);
        device = !refcl_device_is_root(parent) &&
                         refcl_object_release(&parent->obj)
                     ? parent
                     : NULL;
    }
}

cl_int CL_API_CALL refcl_clReleaseDevice(cl_device_id device)
{
    /* CL_INVALID_DEVICE "if device is not a valid sub-device created by a
     * call to clCreateSubDevices"; a root device's count "remains
     * unchanged". */
    cl_int status = refcl_object_check(device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    if (!refcl_device_is_root(device) && refcl_object_release(&device->obj))
        device_destroy(device);
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property *properties,
    cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    (void)properties;
    (void)num_devices;
    (void)out_devices;
    (void)num_devices_ret;
    /* CL_INVALID_DEVICE "if in_device is not valid". */
    cl_int status = refcl_object_check(in_device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if values specified in properties are not valid or
     * if values specified in properties are valid but not supported by the
     * device": CL_DEVICE_PARTITION_PROPERTIES lists no scheme yet. */
    return CL_INVALID_VALUE;
}

/* cl_ext_device_fission: not in any device's extension list. */
cl_int CL_API_CALL refcl_clCreateSubDevicesEXT(
    cl_device_id in_device, const cl_device_partition_property_ext *properties,
    cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
{
    (void)properties;
    (void)num_entries;
    (void)out_devices;
    (void)num_devices;
    cl_int status = refcl_object_check(in_device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    return CL_INVALID_OPERATION;
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
