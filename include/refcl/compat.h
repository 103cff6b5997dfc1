/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Definitions refcl needs that Debian bookworm's OpenCL headers (2023.02)
 * lack: the cl_khr_icd 2.0 tag and function types, and a few enums of newer
 * headers. Every block is guarded so that newer headers win.
 */
#ifndef REFCL_COMPAT_H
#define REFCL_COMPAT_H

#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

/* cl_khr_icd 2.0 (Khronos headers 2025.06 and later). */
#if !defined(CL_ICD2_TAG_KHR)
#if INTPTR_MAX == INT32_MAX
#define CL_ICD2_TAG_KHR ((intptr_t)0x434C3331)
#else
#define CL_ICD2_TAG_KHR ((intptr_t)0x4F50454E434C3331)
#endif

typedef void *CL_API_CALL clIcdGetFunctionAddressForPlatformKHR_t(
    cl_platform_id platform, const char *func_name);
typedef clIcdGetFunctionAddressForPlatformKHR_t
    *clIcdGetFunctionAddressForPlatformKHR_fn;

typedef cl_int CL_API_CALL clIcdSetPlatformDispatchDataKHR_t(
    cl_platform_id platform, void *disp_data);
typedef clIcdSetPlatformDispatchDataKHR_t *clIcdSetPlatformDispatchDataKHR_fn;
#endif

/* cl_arm_import_memory's function types (headers 2023.04 and later, which
 * also name the extension). */
#if !defined(CL_ARM_IMPORT_MEMORY_EXTENSION_NAME)
typedef cl_mem CL_API_CALL clImportMemoryARM_t(
    cl_context context, cl_mem_flags flags,
    const cl_import_properties_arm *properties, void *memory, size_t size,
    cl_int *errcode_ret);
typedef clImportMemoryARM_t *clImportMemoryARM_fn;
#endif

/* cl_khr_icd_unloadable: not advertised by refcl, named for completeness. */
#if !defined(CL_PLATFORM_UNLOADABLE_KHR)
#define CL_PLATFORM_UNLOADABLE_KHR 0x0921
#endif

#endif /* REFCL_COMPAT_H */
