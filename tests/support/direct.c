/*
 * The "direct" side of every test: the same test source, linked to librefcl
 * instead of an ICD loader. refcl exports only the three ICD symbols, so this
 * file supplies the rest of the API the way a loader would, by calling
 * through refcl's dispatch table — but it never looks at the handles, so
 * bad handles reach refcl untouched (no loader NULL checks in between).
 */
#include "check.h"

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdlib.h>

static const struct _cl_icd_dispatch *table;

static void table_init(void)
{
    cl_platform_id platform;
    if (clIcdGetPlatformIDsKHR(1, &platform, NULL) != CL_SUCCESS) {
        fprintf(stderr, "direct: refcl offers no platform\n");
        exit(1);
    }
    table = *(const struct _cl_icd_dispatch **)platform;
}

static const struct _cl_icd_dispatch *refcl(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, table_init);
    return table;
}

/* clGetPlatformIDs has no handle to dispatch on; a loader answers it with
 * clIcdGetPlatformIDsKHR, and so does this file. */
cl_int clGetPlatformIDs(cl_uint n, cl_platform_id *platforms, cl_uint *count)
{
    return clIcdGetPlatformIDsKHR(n, platforms, count);
}

void *clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                               const char *name)
{
    return refcl()->clGetExtensionFunctionAddressForPlatform(platform, name);
}

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint n,
                      cl_device_id *devices, cl_uint *count)
{
    return refcl()->clGetDeviceIDs(platform, type, n, devices, count);
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size,
                       void *value, size_t *size_ret)
{
    return refcl()->clGetDeviceInfo(device, name, size, value, size_ret);
}

cl_int clCreateSubDevices(cl_device_id device,
                          const cl_device_partition_property *properties,
                          cl_uint n, cl_device_id *devices, cl_uint *count)
{
    return refcl()->clCreateSubDevices(device, properties, n, devices, count);
}

cl_int clRetainDevice(cl_device_id device)
{
    return refcl()->clRetainDevice(device);
}

cl_int clReleaseDevice(cl_device_id device)
{
    return refcl()->clReleaseDevice(device);
}

cl_int clUnloadPlatformCompiler(cl_platform_id platform)
{
    return refcl()->clUnloadPlatformCompiler(platform);
}

cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_ts,
                               cl_ulong *host_ts)
{
    return refcl()->clGetDeviceAndHostTimer(device, device_ts, host_ts);
}

cl_int clGetHostTimer(cl_device_id device, cl_ulong *host_ts)
{
    return refcl()->clGetHostTimer(device, host_ts);
}

cl_context clCreateContext(const cl_context_properties *properties,
                           cl_uint n, const cl_device_id *devices,
                           void(CL_CALLBACK *notify)(const char *,
                                                     const void *, size_t,
                                                     void *),
                           void *user_data, cl_int *errcode_ret)
{
    return refcl()->clCreateContext(properties, n, devices, notify, user_data,
                                    errcode_ret);
}

cl_context clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type type,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret)
{
    return refcl()->clCreateContextFromType(properties, type, notify,
                                            user_data, errcode_ret);
}

cl_int clRetainContext(cl_context context)
{
    return refcl()->clRetainContext(context);
}

cl_int clReleaseContext(cl_context context)
{
    return refcl()->clReleaseContext(context);
}

cl_int clGetContextInfo(cl_context context, cl_context_info name, size_t size,
                        void *value, size_t *size_ret)
{
    return refcl()->clGetContextInfo(context, name, size, value, size_ret);
}

cl_int clSetContextDestructorCallback(
    cl_context context, void(CL_CALLBACK *notify)(cl_context, void *),
    void *user_data)
{
    return refcl()->clSetContextDestructorCallback(context, notify,
                                                   user_data);
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties,
                                      cl_int *errcode_ret)
{
    return refcl()->clCreateCommandQueue(context, device, properties,
                                         errcode_ret);
}

cl_int clReleaseMemObject(cl_mem mem)
{
    return refcl()->clReleaseMemObject(mem);
}
