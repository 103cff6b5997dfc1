/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenCL headers as refcl-loader-check uses them: every API version's
 * declarations (deprecated ones included: a loader must route those too),
 * the ICD dispatch types, and refcl's vendor extension header.
 */
#ifndef LOADERCHECK_OPENCL_H
#define LOADERCHECK_OPENCL_H

/* The Khronos headers, with every API version's declarations and what
 * bookworm's headers lack (the cl_khr_icd 2.0 types, cl_arm_import_memory's
 * function types), guarded so that newer headers win. */
#include "refcl/compat.h"
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>
#include <CL/cl_ext_refcl.h>

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
