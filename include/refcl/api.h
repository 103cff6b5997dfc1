/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Declarations of every refcl entry point, one per dispatch slot, typed from
 * the Khronos cl_api_* pointer types so a definition that drifts from the
 * API fails to compile. Entry points are named refcl_<API name>.
 */
#ifndef REFCL_API_H
#define REFCL_API_H

#include "refcl/compat.h"
#include "refcl/entries.h"

#include <CL/cl_ext_refcl.h>

/** Marks the three symbols ICD loaders look up by name (see api/refcl.map);
 * everything else has hidden visibility. */
#define REFCL_EXPORT __attribute__((visibility("default")))

/**
 * How a create function returns: *errcode_ret = @p code (when the caller
 * gave errcode_ret), and @p object (NULL on failure).
 */
static inline void *refcl_errcode(void *object, cl_int code,
                                  cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = code;
    return object;
}

#define REFCL_DECLARE(name) extern __typeof__(*(cl_api_##name)0) refcl_##name;
#define REFCL_DECLARE_NONE(name)
REFCL_DISPATCH_ENTRIES(REFCL_DECLARE, REFCL_DECLARE_NONE, REFCL_DECLARE)
#undef REFCL_DECLARE
#undef REFCL_DECLARE_NONE

/* Direct3D / DX9 sharing: void * slots off Windows, so refcl spells their
 * prototypes with void * for the Windows-only types. refcl supports none of
 * these extensions; the functions validate their handle and refuse. */
cl_int CL_API_CALL refcl_clGetDeviceIDsFromD3D10KHR(
    cl_platform_id platform, cl_uint source, void *object, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);
cl_mem CL_API_CALL refcl_clCreateFromD3D10BufferKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    cl_int *errcode_ret);
cl_mem CL_API_CALL refcl_clCreateFromD3D10Texture2DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret);
cl_mem CL_API_CALL refcl_clCreateFromD3D10Texture3DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret);
cl_int CL_API_CALL refcl_clEnqueueAcquireD3D10ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL refcl_clEnqueueReleaseD3D10ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL refcl_clGetDeviceIDsFromD3D11KHR(
    cl_platform_id platform, cl_uint source, void *object, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);
cl_mem CL_API_CALL refcl_clCreateFromD3D11BufferKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    cl_int *errcode_ret);
cl_mem CL_API_CALL refcl_clCreateFromD3D11Texture2DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret);
cl_mem CL_API_CALL refcl_clCreateFromD3D11Texture3DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret);
cl_mem CL_API_CALL refcl_clCreateFromDX9MediaSurfaceKHR(
    cl_context context, cl_mem_flags flags, cl_uint adapter_type,
    void *surface_info, cl_uint plane, cl_int *errcode_ret);
cl_int CL_API_CALL refcl_clEnqueueAcquireD3D11ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL refcl_clEnqueueReleaseD3D11ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL refcl_clGetDeviceIDsFromDX9MediaAdapterKHR(
    cl_platform_id platform, cl_uint num_media_adapters,
    cl_uint *media_adapter_type, void *media_adapters, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices);
cl_int CL_API_CALL refcl_clEnqueueAcquireDX9MediaSurfacesKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int CL_API_CALL refcl_clEnqueueReleaseDX9MediaSurfacesKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);

/* cl_arm_import_memory (an extension function: no dispatch slot). */
cl_mem CL_API_CALL refcl_clImportMemoryARM(
    cl_context context, cl_mem_flags flags,
    const cl_import_properties_arm *properties, void *memory, size_t size,
    cl_int *errcode_ret);

/* cl_khr_icd and cl_khr_icd 2.0 (reached through the extension lookup). */
cl_int CL_API_CALL refcl_clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                cl_platform_id *platforms,
                                                cl_uint *num_platforms);
void *CL_API_CALL refcl_clIcdGetFunctionAddressForPlatformKHR(
    cl_platform_id platform, const char *func_name);
cl_int CL_API_CALL refcl_clIcdSetPlatformDispatchDataKHR(
    cl_platform_id platform, void *disp_data);

/* cl_refcl_call_journal (CL/cl_ext_refcl.h), offered with REFCL_JOURNAL. */
cl_int CL_API_CALL refcl_clGetCallJournalREFCL(cl_platform_id platform,
                                               cl_ulong after_sequence,
                                               cl_uint num_entries,
                                               cl_call_record_refcl *records,
                                               cl_uint *num_records_ret);
cl_int CL_API_CALL refcl_clSetNextResultREFCL(cl_platform_id platform,
                                              const char *function_name,
                                              cl_ulong next_result,
                                              cl_int next_errcode);
cl_int CL_API_CALL refcl_clEnqueueMarkerREFCL(
    cl_command_queue command_queue, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);

/**
 * The dispatch table refcl's objects point at: cl_khr_icd 2.0 (the tag in
 * slots 0 and 31), classic 1.x (REFCL_ICD_VERSION=1: functions there), or
 * the tag in slot 0 only (REFCL_FAULT=one-tag); api/dispatch.c registers it
 * with the platform layer at load (refcl_platform_dispatch_register).
 */
const struct _cl_icd_dispatch *refcl_dispatch_table(void);

#endif /* REFCL_API_H */
