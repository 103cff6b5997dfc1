/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Building without a compiler: clBuildProgram and clCompileProgram validate
 * their arguments, record CL_BUILD_ERROR with the options and a log that
 * says why for each device they name, and return
 * CL_COMPILER_NOT_AVAILABLE; clLinkProgram returns CL_LINKER_NOT_AVAILABLE;
 * clGetProgramBuildInfo reports the record. A program of built-in kernels
 * is built when it is created, and has nothing to build again.
 *
 * pfn_notify is never called: it is "called when the program executable
 * has been built (successfully or unsuccessfully)", and a build that
 * cannot begin returns its error instead.
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/info.h"
#include "refcl/program.h"

static const char build_log[] =
    "refcl: no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE): "
    "clBuildProgram built nothing and returned CL_COMPILER_NOT_AVAILABLE\n";
static const char compile_log[] =
    "refcl: no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE): "
    "clCompileProgram compiled nothing and returned "
    "CL_COMPILER_NOT_AVAILABLE\n";

/* The arguments clBuildProgram, clCompileProgram and clLinkProgram share,
 * but for their devices' membership (refcl_device_list_members, checked
 * last as the spec lists it). */
static cl_int shared_check(cl_uint num_devices, const cl_device_id *device_list,
                           bool notify, void *user_data)
{
    cl_int status = refcl_device_list_shape(num_devices, device_list, false);
    /* CL_INVALID_VALUE "if pfn_notify is NULL but user_data is not
     * NULL". */
    if (status == CL_SUCCESS && !notify && user_data)
        status = REFCL_FAIL(CL_INVALID_VALUE, "user_data without pfn_notify: "
                            "\"if pfn_notify is NULL but user_data is not "
                            "NULL\"");
    return status;
}

/* CL_INVALID_DEVICE "if device_list is ... not in the list of devices
 * associated with program". */
static cl_int program_members(const struct _cl_program *program,
                              cl_uint num_devices,
                              const cl_device_id *device_list)
{
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!refcl_object_valid(device_list[i], REFCL_DEVICE))
            return refcl_invalid_handle(device_list[i], REFCL_DEVICE);
        if (refcl_program_device_index(program, device_list[i]) < 0)
            return REFCL_FAIL(CL_INVALID_DEVICE, "device_list[%u]: \"not in "
                              "the list of devices associated with "
                              "program\"", i);
    }
    return CL_SUCCESS;
}

/* CL_INVALID_OPERATION "if there are kernel objects attached to
 * program". */
static cl_int unchangeable(const struct _cl_program *program)
{
    return atomic_load(&program->kernels_attached)
               ? REFCL_FAIL(CL_INVALID_OPERATION, "\"if there are kernel "
                            "objects attached to program\"")
               : CL_SUCCESS;
}

/* Records the refusal for the devices of the list, "all devices associated
 * with program" when it is empty, and returns CL_COMPILER_NOT_AVAILABLE. */
static cl_int refuse(struct _cl_program *program, cl_uint num_devices,
                     const cl_device_id *device_list, const char *options,
                     const char *log)
{
    cl_uint count = num_devices ? num_devices : program->num_devices;
    cl_int status = REFCL_FAIL(CL_COMPILER_NOT_AVAILABLE, "refcl has no "
                               "compiler: \"a compiler is not available\"");
    pthread_mutex_lock(&program->build_lock);
    for (cl_uint k = 0; k < count; k++) {
        long i = num_devices
                     ? refcl_program_device_index(program, device_list[k])
                     : (long)k;
        /* "If options is a NULL pointer then it will have the same result
         * as the empty string." */
        char *copy = strdup(options ? options : "");
        if (!copy) {
            status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                "no memory for the options");
            break;
        }
        struct refcl_build *build = &program->builds[i];
        free(build->options);
        *build = (struct refcl_build){CL_BUILD_ERROR, log, copy};
    }
    pthread_mutex_unlock(&program->build_lock);
    return status;
}

cl_int CL_API_CALL refcl_clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
    void *user_data)
{
    /* CL_INVALID_PROGRAM "if program is not a valid program object". */
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    cl_int status =
        shared_check(num_devices, device_list, pfn_notify != NULL, user_data);
    if (status == CL_SUCCESS)
        status = program_members(program, num_devices, device_list);
    if (status == CL_SUCCESS)
        status = unchangeable(program);
    if (status == CL_SUCCESS && refcl_program_builtin(program))
        status = REFCL_FAIL(CL_INVALID_OPERATION, "built-in kernels: \"if "
                            "program was not created with "
                            "clCreateProgramWithSource, "
                            "clCreateProgramWithIL or "
                            "clCreateProgramWithBinary\"");
    if (status != CL_SUCCESS)
        return status;
    /* CL_COMPILER_NOT_AVAILABLE "if program is created with ...
     * clCreateProgramWithSource ... and a compiler is not available". */
    return refuse(program, num_devices, device_list, options, build_log);
}

/* CL_INVALID_VALUE "if num_input_headers is zero and header_include_names or
 * input_headers are not NULL or if num_input_headers is not zero and
 * header_include_names or input_headers are NULL". A header that is not a
 * program of the context has no code of its own: CL_INVALID_PROGRAM. */
static cl_int headers_check(const struct _cl_context *context, cl_uint count,
                            const cl_program *headers, const char **names)
{
    if (count ? !headers || !names : headers || names)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_input_headers %u with %s: "
                          "\"if num_input_headers is zero and ... are not "
                          "NULL or if num_input_headers is not zero and ... "
                          "are NULL\"", count,
                          count ? "a NULL list" : "a list");
    for (cl_uint i = 0; i < count; i++) {
        if (!refcl_object_valid(headers[i], REFCL_PROGRAM))
            return refcl_invalid_handle(headers[i], REFCL_PROGRAM);
        if (headers[i]->context != context)
            return REFCL_FAIL(CL_INVALID_PROGRAM, "input_headers[%u]: a "
                              "program of another context", i);
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_headers,
    const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    cl_int status =
        shared_check(num_devices, device_list, pfn_notify != NULL, user_data);
    if (status == CL_SUCCESS)
        status = headers_check(program->context, num_input_headers,
                               input_headers, header_include_names);
    if (status == CL_SUCCESS)
        status = program_members(program, num_devices, device_list);
    if (status == CL_SUCCESS)
        status = unchangeable(program);
    if (status == CL_SUCCESS && refcl_program_builtin(program))
        status = REFCL_FAIL(CL_INVALID_OPERATION, "built-in kernels: \"if "
                            "program has no source or IL available\"");
    if (status != CL_SUCCESS)
        return status;
    /* CL_COMPILER_NOT_AVAILABLE "if a compiler is not available". */
    return refuse(program, num_devices, device_list, options, compile_log);
}

/* CL_INVALID_VALUE "if num_input_programs is zero and input_programs is
 * NULL or ... is not NULL or if num_input_programs is not zero and
 * input_programs is NULL"; CL_INVALID_PROGRAM "if programs specified in
 * input_programs are not valid program objects" (of this context). */
static cl_int inputs_check(const struct _cl_context *context, cl_uint count,
                           const cl_program *programs)
{
    if (count == 0 || !programs)
        return REFCL_FAIL(CL_INVALID_VALUE, "%s: \"if num_input_programs is "
                          "zero ... or if num_input_programs is not zero "
                          "and input_programs is NULL\"",
                          count ? "input_programs NULL"
                                : "num_input_programs 0");
    for (cl_uint i = 0; i < count; i++) {
        if (!refcl_object_valid(programs[i], REFCL_PROGRAM))
            return refcl_invalid_handle(programs[i], REFCL_PROGRAM);
        if (programs[i]->context != context)
            return REFCL_FAIL(CL_INVALID_PROGRAM, "input_programs[%u]: a "
                              "program of another context", i);
    }
    return CL_SUCCESS;
}

cl_program CL_API_CALL refcl_clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_programs,
    const cl_program *input_programs,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
    cl_int *errcode_ret)
{
    (void)options;
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    cl_int status =
        shared_check(num_devices, device_list, pfn_notify != NULL, user_data);
    if (status == CL_SUCCESS)
        status = inputs_check(context, num_input_programs, input_programs);
    if (status == CL_SUCCESS)
        status = refcl_device_list_members(context, num_devices, device_list);
    /* CL_LINKER_NOT_AVAILABLE "if a linker is not available, i.e.
     * CL_DEVICE_LINKER_AVAILABLE ... is set to CL_FALSE". */
    return refcl_errcode(NULL,
                         status == CL_SUCCESS
                             ? REFCL_FAIL(CL_LINKER_NOT_AVAILABLE, "refcl "
                                          "has no linker: \"if a linker is "
                                          "not available\"")
                             : status,
                         errcode_ret);
}

/* One query of the build record; under the program's build lock. */
static cl_int build_answer(const struct _cl_program *program,
                           const struct refcl_build *build,
                           cl_program_build_info param_name,
                           size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
    /* Built-in kernels are executables, built into refcl itself (there is
     * no binary to hand out: CL_PROGRAM_BINARY_SIZES is 0). */
    const cl_program_binary_type binary_type =
        refcl_program_builtin(program) ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                       : CL_PROGRAM_BINARY_TYPE_NONE;
    static const size_t no_globals = 0;
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
        return refcl_info_return(&build->status, sizeof(build->status),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    /* "If build status of the specified program for device is
     * CL_BUILD_NONE, an empty string is returned." */
    case CL_PROGRAM_BUILD_OPTIONS:
        return refcl_info_string(build->options ? build->options : "",
                                 param_value_size, param_value,
                                 param_value_size_ret);
    case CL_PROGRAM_BUILD_LOG:
        return refcl_info_string(build->log ? build->log : "",
                                 param_value_size, param_value,
                                 param_value_size_ret);
    case CL_PROGRAM_BINARY_TYPE:
        return refcl_info_return(&binary_type, sizeof(binary_type),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
        return refcl_info_return(&no_globals, sizeof(no_globals),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
}

cl_int CL_API_CALL refcl_clGetProgramBuildInfo(
    cl_program program, cl_device_id device, cl_program_build_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    long i = refcl_program_device_index(program, device);
    if (i < 0)
        return REFCL_FAIL(CL_INVALID_DEVICE, "\"if device is not in the list "
                          "of devices associated with program\"");
    pthread_mutex_lock(&program->build_lock);
    cl_int status = build_answer(program, &program->builds[i], param_name,
                                 param_value_size, param_value,
                                 param_value_size_ret);
    pthread_mutex_unlock(&program->build_lock);
    return status;
}
