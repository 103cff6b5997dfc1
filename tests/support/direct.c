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

/* Command-queues, markers and barriers (tests/queue, tests/event). */

cl_command_queue clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret)
{
    return refcl()->clCreateCommandQueueWithProperties(context, device,
                                                       properties, errcode_ret);
}

cl_int clRetainCommandQueue(cl_command_queue queue)
{
    return refcl()->clRetainCommandQueue(queue);
}

cl_int clReleaseCommandQueue(cl_command_queue queue)
{
    return refcl()->clReleaseCommandQueue(queue);
}

cl_int clGetCommandQueueInfo(cl_command_queue queue,
                             cl_command_queue_info name, size_t size,
                             void *value, size_t *size_ret)
{
    return refcl()->clGetCommandQueueInfo(queue, name, size, value, size_ret);
}

cl_int clSetCommandQueueProperty(cl_command_queue queue,
                                 cl_command_queue_properties properties,
                                 cl_bool enable,
                                 cl_command_queue_properties *old_properties)
{
    return refcl()->clSetCommandQueueProperty(queue, properties, enable,
                                              old_properties);
}

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue queue)
{
    return refcl()->clSetDefaultDeviceCommandQueue(context, device, queue);
}

cl_int clFlush(cl_command_queue queue)
{
    return refcl()->clFlush(queue);
}

cl_int clFinish(cl_command_queue queue)
{
    return refcl()->clFinish(queue);
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint n,
                                   const cl_event *wait_list, cl_event *event)
{
    return refcl()->clEnqueueMarkerWithWaitList(queue, n, wait_list, event);
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint n,
                                    const cl_event *wait_list, cl_event *event)
{
    return refcl()->clEnqueueBarrierWithWaitList(queue, n, wait_list, event);
}

cl_int clEnqueueMarker(cl_command_queue queue, cl_event *event)
{
    return refcl()->clEnqueueMarker(queue, event);
}

cl_int clEnqueueBarrier(cl_command_queue queue)
{
    return refcl()->clEnqueueBarrier(queue);
}

cl_int clEnqueueWaitForEvents(cl_command_queue queue, cl_uint n,
                              const cl_event *events)
{
    return refcl()->clEnqueueWaitForEvents(queue, n, events);
}

/* Events (tests/event). */

cl_event clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    return refcl()->clCreateUserEvent(context, errcode_ret);
}

cl_int clSetUserEventStatus(cl_event event, cl_int status)
{
    return refcl()->clSetUserEventStatus(event, status);
}

cl_int clSetEventCallback(cl_event event, cl_int type,
                          void(CL_CALLBACK *notify)(cl_event, cl_int, void *),
                          void *user_data)
{
    return refcl()->clSetEventCallback(event, type, notify, user_data);
}

cl_int clWaitForEvents(cl_uint n, const cl_event *events)
{
    return refcl()->clWaitForEvents(n, events);
}

cl_int clGetEventInfo(cl_event event, cl_event_info name, size_t size,
                      void *value, size_t *size_ret)
{
    return refcl()->clGetEventInfo(event, name, size, value, size_ret);
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info name,
                               size_t size, void *value, size_t *size_ret)
{
    return refcl()->clGetEventProfilingInfo(event, name, size, value,
                                            size_ret);
}

cl_int clRetainEvent(cl_event event)
{
    return refcl()->clRetainEvent(event);
}

cl_int clReleaseEvent(cl_event event)
{
    return refcl()->clReleaseEvent(event);
}

/* Programs and kernels (tests/program). */

cl_program clCreateProgramWithSource(cl_context context, cl_uint count,
                                     const char **strings,
                                     const size_t *lengths,
                                     cl_int *errcode_ret)
{
    return refcl()->clCreateProgramWithSource(context, count, strings,
                                              lengths, errcode_ret);
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint n,
                                     const cl_device_id *devices,
                                     const size_t *lengths,
                                     const unsigned char **binaries,
                                     cl_int *binary_status,
                                     cl_int *errcode_ret)
{
    return refcl()->clCreateProgramWithBinary(context, n, devices, lengths,
                                              binaries, binary_status,
                                              errcode_ret);
}

cl_program clCreateProgramWithIL(cl_context context, const void *il,
                                 size_t length, cl_int *errcode_ret)
{
    return refcl()->clCreateProgramWithIL(context, il, length, errcode_ret);
}

cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint n,
                                             const cl_device_id *devices,
                                             const char *kernel_names,
                                             cl_int *errcode_ret)
{
    return refcl()->clCreateProgramWithBuiltInKernels(context, n, devices,
                                                      kernel_names,
                                                      errcode_ret);
}

cl_int clRetainProgram(cl_program program)
{
    return refcl()->clRetainProgram(program);
}

cl_int clReleaseProgram(cl_program program)
{
    return refcl()->clReleaseProgram(program);
}

cl_int clBuildProgram(cl_program program, cl_uint n,
                      const cl_device_id *devices, const char *options,
                      void(CL_CALLBACK *notify)(cl_program, void *),
                      void *user_data)
{
    return refcl()->clBuildProgram(program, n, devices, options, notify,
                                   user_data);
}

cl_int clCompileProgram(cl_program program, cl_uint n,
                        const cl_device_id *devices, const char *options,
                        cl_uint num_headers, const cl_program *headers,
                        const char **header_names,
                        void(CL_CALLBACK *notify)(cl_program, void *),
                        void *user_data)
{
    return refcl()->clCompileProgram(program, n, devices, options,
                                     num_headers, headers, header_names,
                                     notify, user_data);
}

cl_program clLinkProgram(cl_context context, cl_uint n,
                         const cl_device_id *devices, const char *options,
                         cl_uint num_programs, const cl_program *programs,
                         void(CL_CALLBACK *notify)(cl_program, void *),
                         void *user_data, cl_int *errcode_ret)
{
    return refcl()->clLinkProgram(context, n, devices, options, num_programs,
                                  programs, notify, user_data, errcode_ret);
}

cl_int clGetProgramInfo(cl_program program, cl_program_info name, size_t size,
                        void *value, size_t *size_ret)
{
    return refcl()->clGetProgramInfo(program, name, size, value, size_ret);
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info name, size_t size,
                             void *value, size_t *size_ret)
{
    return refcl()->clGetProgramBuildInfo(program, device, name, size, value,
                                          size_ret);
}

cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK *notify)(cl_program,
                                                             void *),
                                   void *user_data)
{
    return refcl()->clSetProgramReleaseCallback(program, notify, user_data);
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                          size_t spec_size,
                                          const void *spec_value)
{
    return refcl()->clSetProgramSpecializationConstant(program, spec_id,
                                                       spec_size, spec_value);
}

cl_kernel clCreateKernel(cl_program program, const char *name,
                         cl_int *errcode_ret)
{
    return refcl()->clCreateKernel(program, name, errcode_ret);
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint n,
                                cl_kernel *kernels, cl_uint *n_ret)
{
    return refcl()->clCreateKernelsInProgram(program, n, kernels, n_ret);
}

/* Images and samplers (tests/image). */

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type type, cl_uint n,
                                  cl_image_format *formats, cl_uint *n_ret)
{
    return refcl()->clGetSupportedImageFormats(context, flags, type, n,
                                               formats, n_ret);
}

cl_mem clCreateImage(cl_context context, cl_mem_flags flags,
                     const cl_image_format *format, const cl_image_desc *desc,
                     void *host_ptr, cl_int *errcode_ret)
{
    return refcl()->clCreateImage(context, flags, format, desc, host_ptr,
                                  errcode_ret);
}

cl_mem clCreateImageWithProperties(cl_context context,
                                   const cl_mem_properties *properties,
                                   cl_mem_flags flags,
                                   const cl_image_format *format,
                                   const cl_image_desc *desc, void *host_ptr,
                                   cl_int *errcode_ret)
{
    return refcl()->clCreateImageWithProperties(context, properties, flags,
                                                format, desc, host_ptr,
                                                errcode_ret);
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *format, size_t width,
                       size_t height, size_t row_pitch, void *host_ptr,
                       cl_int *errcode_ret)
{
    return refcl()->clCreateImage2D(context, flags, format, width, height,
                                    row_pitch, host_ptr, errcode_ret);
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *format, size_t width,
                       size_t height, size_t depth, size_t row_pitch,
                       size_t slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
    return refcl()->clCreateImage3D(context, flags, format, width, height,
                                    depth, row_pitch, slice_pitch, host_ptr,
                                    errcode_ret);
}

cl_sampler clCreateSampler(cl_context context, cl_bool normalized,
                           cl_addressing_mode addressing, cl_filter_mode filter,
                           cl_int *errcode_ret)
{
    return refcl()->clCreateSampler(context, normalized, addressing, filter,
                                    errcode_ret);
}

cl_sampler clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret)
{
    return refcl()->clCreateSamplerWithProperties(context, properties,
                                                  errcode_ret);
}
