/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A forwarding "loader" with one planted bug, for refcl-loader-check's own
 * tests (planted.sh): a library that needs the real libOpenCL.so.1 (ocl-icd
 * 2.3.1, or 2.3.3 by LD_LIBRARY_PATH) and defines only the functions it
 * corrupts. refcl-loader-check loads it with dlopen and looks every
 * function up in it: dlsym searches the library first, then the real
 * loader it needs, so everything else goes straight to the real loader.
 * Each function here calls the real one (dlsym RTLD_NEXT).
 *
 * REFCL_FAULTY_LOADER chooses the bug:
 *   arg-size-at-index-1  clSetKernelArg: arg_size becomes 0 when
 *                        arg_index is 1 (an argument mistreated for one
 *                        value only)
 *   code-clamped         clEnqueueReadBuffer: a code below -1000 (a vendor
 *                        extension's) becomes CL_INVALID_VALUE
 *   output-size          clGetContextInfo: *param_value_size_ret one more
 *                        than the vendor said
 *   errcode-dropped      clCreateBuffer: NULL passed to the vendor for
 *                        errcode_ret
 *   extension-hidden     clGetExtensionFunctionAddressForPlatform: NULL
 *                        for clEnqueueMarkerREFCL
 *   hang                 clGetPlatformInfo never returns (cli.sh
 *                        interrupts the checker meanwhile)
 *   errcode-proxy        not a bug: the create functions pass the vendor
 *                        an errcode_ret of their own and copy the value
 *                        into the application's
 * Unset (or anything else): forwards everything unchanged.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool mode(const char *name)
{
    const char *chosen = getenv("REFCL_FAULTY_LOADER");
    return chosen && !strcmp(chosen, name);
}

/* The real loader's function @p name. */
static void *real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

#define REAL(name) ((cl_api_##name)real(#name))

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel,
                                               cl_uint arg_index,
                                               size_t arg_size,
                                               const void *arg_value)
{
    if (mode("arg-size-at-index-1") && arg_index == 1)
        arg_size = 0;
    return REAL(clSetKernelArg)(kernel, arg_index, arg_size, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info name,
                                                  size_t size, void *value,
                                                  size_t *size_ret)
{
    while (mode("hang"))
        pause();
    return REAL(clGetPlatformInfo)(platform, name, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
    size_t size, void *ptr, cl_uint num_events, const cl_event *events,
    cl_event *event)
{
    cl_int code = REAL(clEnqueueReadBuffer)(queue, buffer, blocking, offset,
                                            size, ptr, num_events, events,
                                            event);
    return mode("code-clamped") && code < -1000 ? CL_INVALID_VALUE : code;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context,
                                                 cl_context_info name,
                                                 size_t size, void *value,
                                                 size_t *size_ret)
{
    cl_int code = REAL(clGetContextInfo)(context, name, size, value,
                                         size_ret);
    if (mode("output-size") && size_ret)
        (*size_ret)++;
    return code;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(
    cl_platform_id platform, const char *name)
{
    if (mode("extension-hidden") && name &&
        !strcmp(name, "clEnqueueMarkerREFCL"))
        return NULL;
    return REAL(clGetExtensionFunctionAddressForPlatform)(platform, name);
}

/* The errcode_ret a create function passes on: a proxy of its own
 * (errcode-proxy), NULL (errcode-dropped, clCreateBuffer only), else the
 * application's. */
static cl_int *errcode_passed(const char *function, cl_int *errcode_ret,
                              cl_int *own)
{
    if (mode("errcode-proxy"))
        return own;
    if (mode("errcode-dropped") && !strcmp(function, "clCreateBuffer"))
        return NULL;
    return errcode_ret;
}

/* A create function forwarded through errcode_passed; the proxy's value
 * is copied to the application's errcode_ret, if it gave one. */
#define CREATE(type, name, params, ...)                                     \
    CL_API_ENTRY type CL_API_CALL name params                               \
    {                                                                       \
        cl_int own = 0;                                                     \
        cl_int *errcode = errcode_passed(#name, errcode_ret, &own);        \
        type result = REAL(name)(__VA_ARGS__);                              \
        if (errcode == &own && errcode_ret)                                 \
            *errcode_ret = own;                                             \
        return result;                                                      \
    }

CREATE(cl_mem, clCreateBuffer,
       (cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
        cl_int *errcode_ret),
       context, flags, size, host_ptr, errcode)
CREATE(cl_mem, clCreateSubBuffer,
       (cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
        const void *info, cl_int *errcode_ret),
       buffer, flags, type, info, errcode)
CREATE(cl_context, clCreateContext,
       (const cl_context_properties *properties, cl_uint num_devices,
        const cl_device_id *devices,
        void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                  void *),
        void *user_data, cl_int *errcode_ret),
       properties, num_devices, devices, notify, user_data, errcode)
CREATE(cl_command_queue, clCreateCommandQueueWithProperties,
       (cl_context context, cl_device_id device,
        const cl_queue_properties *properties, cl_int *errcode_ret),
       context, device, properties, errcode)
CREATE(cl_program, clCreateProgramWithSource,
       (cl_context context, cl_uint count, const char **strings,
        const size_t *lengths, cl_int *errcode_ret),
       context, count, strings, lengths, errcode)
CREATE(cl_kernel, clCreateKernel,
       (cl_program program, const char *kernel_name, cl_int *errcode_ret),
       program, kernel_name, errcode)
CREATE(cl_event, clCreateUserEvent,
       (cl_context context, cl_int *errcode_ret), context, errcode)
CREATE(void *, clEnqueueMapBuffer,
       (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
        cl_map_flags flags, size_t offset, size_t size, cl_uint num_events,
        const cl_event *events, cl_event *event, cl_int *errcode_ret),
       queue, buffer, blocking, flags, offset, size, num_events, events,
       event, errcode)
