/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/timer: clGetHostTimer and clGetDeviceAndHostTimer read
 * CLOCK_MONOTONIC in nanoseconds: monotonic, equal to each other, between
 * two clock_gettime calls of the test, and ticking with it over a sleep.
 */
#include <time.h>

#include "check.h"

static cl_ulong now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (cl_ulong)t.tv_sec * 1000000000u + (cl_ulong)t.tv_nsec;
}

static void check_timers(cl_device_id device)
{
    cl_ulong before = now_ns(), host = 0, device_ts = 0, host2 = 0;
    CHECK_EQ(clGetHostTimer(device, &host), CL_SUCCESS);
    CHECK_EQ(clGetDeviceAndHostTimer(device, &device_ts, &host2), CL_SUCCESS);
    cl_ulong after = now_ns();
    CHECK(before <= host && host <= host2 && host2 <= after);
    /* One clock read serves both: exactly synchronized. */
    CHECK_EQ(device_ts, host2);

    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    cl_ulong device2 = 0, host3 = 0;
    CHECK_EQ(clGetDeviceAndHostTimer(device, &device2, &host3), CL_SUCCESS);
    CHECK_EQ(device2, host3);
    CHECK(device2 - device_ts >= 20 * 1000 * 1000u);
    CHECK(device2 - device_ts < 5 * 1000 * 1000 * 1000u);

    /* CL_INVALID_VALUE "if host_timestamp or device_timestamp is NULL". */
    CHECK_EQ(clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clGetDeviceAndHostTimer(device, NULL, &host), CL_INVALID_VALUE);
    CHECK_EQ(clGetDeviceAndHostTimer(device, &host, NULL), CL_INVALID_VALUE);
}

static void check_resolution(cl_platform_id platform, cl_device_id device)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    cl_ulong expected = (cl_ulong)res.tv_sec * 1000000000u + res.tv_nsec;
    cl_ulong host_res = 0;
    size_t device_res = 0;
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION,
                               sizeof(host_res), &host_res, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                             sizeof(device_res), &device_res, NULL),
             CL_SUCCESS);
    CHECK_EQ(host_res, expected);
    CHECK_EQ(device_res, expected);
}

static void check_bad_devices(cl_platform_id platform)
{
    cl_ulong a, b;
    static _Alignas(256) void *fake[32];
    cl_device_id bad[3] = {(cl_device_id)platform, (cl_device_id)fake, NULL};
    size_t count = 2;
    memcpy(fake, platform, 2 * sizeof(void *));
    if (!test_through_loader()) {
        bad[2] = test_unmapped_handle();
        count = 3;
    }
    for (size_t i = 0; i < count; i++) {
        CHECK_EQ(clGetHostTimer(bad[i], &a), CL_INVALID_DEVICE);
        CHECK_EQ(clGetDeviceAndHostTimer(bad[i], &a, &b), CL_INVALID_DEVICE);
    }
}

/* Timers work the same on sub-devices (when the host has two units). */
static void check_sub_device(cl_device_id device)
{
    const cl_device_partition_property one_unit[] = {
        CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
        0};
    cl_device_id sub;
    cl_uint units = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                    &units, NULL);
    if (units < 2) {
        printf("one compute unit: no sub-device to time\n");
        return;
    }
    CHECK_EQ(clCreateSubDevices(device, one_unit, 1, &sub, NULL), CL_SUCCESS);
    check_timers(sub);
    CHECK_EQ(clReleaseDevice(sub), CL_SUCCESS);
    cl_ulong t;
    CHECK_EQ(clGetHostTimer(sub, &t), CL_INVALID_DEVICE);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (!test_first_device(&platform, &device))
        return 1;
    check_timers(device);
    check_resolution(platform, device);
    check_bad_devices(platform);
    check_sub_device(device);
    return TEST_RESULT();
}
