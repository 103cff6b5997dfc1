/* SPDX-License-Identifier: Apache-2.0 */
/*
 * package/deb's program: what an application built against the installed
 * packages sees through the system's ICD loader. It finds the platform
 * named refcl among every installed driver's, asks its CPU device for
 * CL_DEVICE_CPUSET_REFCL (declared by the installed <CL/cl_ext_refcl.h>),
 * and runs a marker through a command-queue to completion.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_ext_refcl.h>
#include <stdio.h>
#include <string.h>

/* Reports a failed call; true when err is not CL_SUCCESS. */
static int failed(cl_int err, const char *call)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "%s: %d\n", call, err);
    return err != CL_SUCCESS;
}

int main(void)
{
    cl_platform_id platforms[16], platform = NULL;
    cl_uint count = 0;
    if (failed(clGetPlatformIDs(16, platforms, &count), "clGetPlatformIDs"))
        return 1;
    for (cl_uint i = 0; i < count && i < 16; i++) {
        char name[64] = "";
        if (failed(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME,
                                     sizeof(name), name, NULL),
                   "clGetPlatformInfo"))
            return 1;
        if (strcmp(name, "refcl") == 0)
            platform = platforms[i];
    }
    if (!platform) {
        fprintf(stderr, "no platform named refcl among %u\n", count);
        return 1;
    }

    cl_device_id device;
    char cpuset[256] = "";
    if (failed(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL),
               "clGetDeviceIDs") ||
        failed(clGetDeviceInfo(device, CL_DEVICE_CPUSET_REFCL, sizeof(cpuset),
                               cpuset, NULL),
               "clGetDeviceInfo(CL_DEVICE_CPUSET_REFCL)"))
        return 1;

    cl_int err;
    cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context context =
        clCreateContext(properties, 1, &device, NULL, NULL, &err);
    if (failed(err, "clCreateContext"))
        return 1;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    cl_event marker;
    cl_int status = CL_QUEUED;
    if (failed(err, "clCreateCommandQueueWithProperties") ||
        failed(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker),
               "clEnqueueMarkerWithWaitList") ||
        failed(clFinish(queue), "clFinish") ||
        failed(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS,
                              sizeof(status), &status, NULL),
               "clGetEventInfo"))
        return 1;
    if (status != CL_COMPLETE) {
        fprintf(stderr, "marker status %d after clFinish\n", status);
        return 1;
    }
    if (failed(clReleaseEvent(marker), "clReleaseEvent") ||
        failed(clReleaseCommandQueue(queue), "clReleaseCommandQueue") ||
        failed(clReleaseContext(context), "clReleaseContext"))
        return 1;
    printf("refcl among %u platform(s): CPU device on processing units %s, "
           "marker complete\n", count, cpuset);
    return 0;
}
