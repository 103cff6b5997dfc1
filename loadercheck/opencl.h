/*
 * The OpenCL headers as refcl-loader-check uses them: every API version's
 * declarations (deprecated ones included: a loader must route those too),
 * the ICD dispatch types, and refcl's vendor extension header.
 */
#ifndef LOADERCHECK_OPENCL_H
#define LOADERCHECK_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_egl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>
#include <CL/cl_icd.h>
#include <CL/cl_ext_refcl.h>
#include <stdint.h>

/* cl_khr_icd 2.0 (Khronos headers 2025.06 and later). */
#ifndef CL_ICD2_TAG_KHR
#if INTPTR_MAX == INT32_MAX
#define CL_ICD2_TAG_KHR ((intptr_t)0x434C3331)
#else
#define CL_ICD2_TAG_KHR ((intptr_t)0x4F50454E434C3331)
#endif
typedef void *CL_API_CALL clIcdGetFunctionAddressForPlatformKHR_t(
    cl_platform_id platform, const char *func_name);
typedef clIcdGetFunctionAddressForPlatformKHR_t
    *clIcdGetFunctionAddressForPlatformKHR_fn;
#endif

/* ocl-icd's loader query, which the Khronos loader answers too. */
#ifndef CL_ICDL_VERSION
#define CL_ICDL_OCL_VERSION 1
#define CL_ICDL_VERSION 2
#define CL_ICDL_NAME 3
#define CL_ICDL_VENDOR 4
#endif
typedef cl_int CL_API_CALL clGetICDLoaderInfoOCLICD_t(
    cl_uint param_name, size_t param_value_size, void *param_value,
    size_t *param_value_size_ret);

#endif /* LOADERCHECK_OPENCL_H */
