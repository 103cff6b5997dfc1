/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host and device timers. The device is the host CPU, so both timestamps
 * are one read of CLOCK_MONOTONIC in nanoseconds: exactly synchronized, and
 * comparable with an application's own clock_gettime(CLOCK_MONOTONIC).
 * The read goes through the vDSO: no lock, no system call. Event profiling
 * timestamps (event/event.c) come from the same clock.
 */
#include <time.h>

#include "refcl/api.h"
#include "refcl/device.h"

cl_ulong refcl_clock_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (cl_ulong)now.tv_sec * 1000000000u + (cl_ulong)now.tv_nsec;
}

/* CL_INVALID_DEVICE "if device is not a valid device"; CL_INVALID_VALUE
 * "if host_timestamp or device_timestamp is NULL". */
cl_int CL_API_CALL refcl_clGetDeviceAndHostTimer(cl_device_id device,
                                                 cl_ulong *device_timestamp,
                                                 cl_ulong *host_timestamp)
{
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    if (!device_timestamp || !host_timestamp)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s NULL: \"if host_timestamp "
                          "or device_timestamp is NULL\"",
                          device_timestamp ? "host_timestamp"
                                           : "device_timestamp");
    *device_timestamp = *host_timestamp = refcl_clock_ns();
    return CL_SUCCESS;
}

/* CL_INVALID_DEVICE "if device is not a valid device"; CL_INVALID_VALUE
 * "if host_timestamp is NULL". */
cl_int CL_API_CALL refcl_clGetHostTimer(cl_device_id device,
                                        cl_ulong *host_timestamp)
{
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    if (!host_timestamp)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "host_timestamp NULL: \"if host_timestamp is NULL\"");
    *host_timestamp = refcl_clock_ns();
    return CL_SUCCESS;
}
