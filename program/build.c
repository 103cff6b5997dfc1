/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clBuildProgram, clCompileProgram and clLinkProgram, and
 * clGetProgramBuildInfo. With the compiler (refcl/toolchain.h) they run it
 * (refcl/compiler.h) synchronously, once for all the devices named (they
 * are one CPU), load an executable per device, record each device's
 * status, options, log and binary, and call pfn_notify before returning
 * ("The notification routine ... will be called when the program
 * executable has been built (successfully or unsuccessfully)").
 *
 * Without it, clBuildProgram and clCompileProgram record CL_BUILD_ERROR
 * with a log that says why and return CL_COMPILER_NOT_AVAILABLE, and
 * clLinkProgram returns CL_LINKER_NOT_AVAILABLE; pfn_notify is not called,
 * as a build that cannot begin returns its error instead. A program created
 * from binaries builds its executables without the compiler. A program of
 * built-in kernels is built when it is created.
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/kernel_abi.h"
#include "refcl/program.h"
#include "refcl/toolchain.h"

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
        struct refcl_build *build = &program->builds[i];
        refcl_build_clear(build);
        build->options = strdup(options ? options : "");
        build->log = strdup(log);
        if (!build->options || !build->log) {
            status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                "no memory for the options");
            break;
        }
        build->status = CL_BUILD_ERROR;
    }
    pthread_mutex_unlock(&program->build_lock);
    return status;
}

/* The device index of entry @p k of the named devices, "all devices
 * associated with program" when none are named. */
static cl_uint target(const struct _cl_program *program, cl_uint num_devices,
                      const cl_device_id *device_list, cl_uint k)
{
    return num_devices
               ? (cl_uint)refcl_program_device_index(program, device_list[k])
               : k;
}

static bool blob_copy(const struct refcl_blob *from, struct refcl_blob *to)
{
    to->size = from->size;
    to->bytes = malloc(from->size ? from->size : 1);
    if (to->bytes && from->size)
        memcpy(to->bytes, from->bytes, from->size);
    return to->bytes != NULL;
}

/* Appends @p line to the build's log. */
static bool log_append(struct refcl_build *build, const char *line)
{
    size_t had = build->log ? strlen(build->log) : 0;
    char *log = realloc(build->log, had + strlen(line) + 1);
    if (!log)
        return false;
    strcpy(log + had, line);
    build->log = log;
    return true;
}

/* Records the result of a compiler run (or of a binary, @p log NULL) for
 * one device: its output as @p type, loaded when an executable. @return
 * CL_SUCCESS, @p failure, or CL_OUT_OF_HOST_MEMORY. */
static cl_int record(struct refcl_build *build, const char *options,
                     const struct refcl_compile_result *result,
                     cl_program_binary_type type,
                     struct refcl_run_options run, cl_int failure)
{
    struct refcl_build was = *build;
    *build = (struct refcl_build){.status = CL_BUILD_ERROR, .run = run};
    build->options = strdup(options ? options : "");
    build->log = strdup(result->log);
    bool memory = build->options && build->log;
    if (memory && result->built)
        memory = blob_copy(&result->output, &build->binary);
    const char *why = NULL;
    if (memory && result->built && type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
        build->executable = refcl_executable_load(&build->binary, &why);
    if (why && memory) {
        memory = log_append(build, "refcl: ") && log_append(build, why) &&
                 log_append(build, "\n");
        refcl_blob_free(&build->binary);
    }
    refcl_build_clear(&was);
    if (!memory)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a build");
    if (!result->built || why)
        return failure;
    build->status = CL_BUILD_SUCCESS;
    build->binary_type = type;
    return CL_SUCCESS;
}

static struct refcl_run_options run_of(const struct refcl_compiler_options *o)
{
    /* Non-uniform work-groups came with OpenCL C 2.0 (3.0 builds have them
     * where the device does); -cl-uniform-work-group-size asks for none. */
    return (struct refcl_run_options){
        .uniform_work_groups = o->uniform_work_groups || o->cl_std < 20,
        .arg_info = o->kernel_arg_info};
}

/* A device's executable from the binary it was created with: loaded as
 * it is, or linked first when it is an object or a library. */
static cl_int from_binary(struct refcl_build *build, const char *options)
{
    struct refcl_compile_result result = {.built = true, .log = ""};
    struct refcl_run_options run = build->run;
    if (build->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        result.output = build->binary;
        build->binary = (struct refcl_blob){0};
        /* One that does not load (its program table checked, ...) is
         * CL_INVALID_BINARY: "devices listed in device_list do not have a
         * valid program binary loaded". */
        cl_int status = record(build, options, &result,
                               CL_PROGRAM_BINARY_TYPE_EXECUTABLE, run,
                               CL_INVALID_BINARY);
        refcl_blob_free(&result.output);
        return status;
    }
    if (!refcl_toolchain())
        return REFCL_FAIL(CL_COMPILER_NOT_AVAILABLE, "an object binary to "
                          "link, without a compiler");
    struct refcl_compiler_options link = {0};
    struct refcl_compile_job job = {.step = REFCL_STEP_LINK,
                                    .options = &link,
                                    .objects = &build->binary,
                                    .object_count = 1};
    cl_int status = refcl_compiler_run(&job, &result);
    if (status == CL_SUCCESS)
        status = record(build, options, &result,
                        CL_PROGRAM_BINARY_TYPE_EXECUTABLE, run,
                        CL_BUILD_PROGRAM_FAILURE);
    refcl_compile_result_free(&result);
    return status;
}

/* True if @p device is @p named or one of its sub-devices (at any depth). */
static bool part_of(const struct _cl_device_id *device,
                    const struct _cl_device_id *named)
{
    for (const struct refcl_object *d = &device->obj; d; d = d->parent)
        if (d == &named->obj)
            return true;
    return false;
}

/* Whether the program's device @p i is built: when devices are named, the
 * named ones and the program's sub-devices of them. The spec builds "for
 * devices specified in this list" and does not say "only"; a sub-device
 * runs the same code on part of its parent's compute units, and the CTS
 * (device_partition's test_device_set builds for the parent device and
 * runs the kernels on the sub-devices of the same context) expects the
 * parent's build to serve them, as pocl and Intel's CPU runtime do. */
static bool build_target(const struct _cl_program *program,
                         cl_uint num_devices, const cl_device_id *device_list,
                         cl_uint i)
{
    if (!num_devices)
        return true;
    for (cl_uint k = 0; k < num_devices; k++)
        if (part_of(program->devices[i], device_list[k]))
            return true;
    return false;
}

/* Marks the builds of the devices built (build_target) CL_BUILD_IN_PROGRESS, their old
 * executables gone (no kernels hold them: unchangeable), so that
 * clGetProgramBuildInfo tells the truth and clCreateKernel finds no
 * executable while clang runs without the lock. CL_INVALID_OPERATION "if
 * the build of a program executable for any of the devices listed in
 * device_list by a previous call to clBuildProgram for program has not
 * completed". Called with the lock held. */
static cl_int build_claim(struct _cl_program *program, cl_uint num_devices,
                          const cl_device_id *device_list)
{
    for (cl_uint i = 0; i < program->num_devices; i++)
        if (build_target(program, num_devices, device_list, i) &&
            program->builds[i].status == CL_BUILD_IN_PROGRESS)
            return REFCL_FAIL(CL_INVALID_OPERATION, "\"if the build of a "
                              "program executable for any of the devices "
                              "listed in device_list by a previous call to "
                              "clBuildProgram for program has not "
                              "completed\"");
    for (cl_uint i = 0; i < program->num_devices; i++) {
        if (program->from_binary ||
            !build_target(program, num_devices, device_list, i))
            continue;
        refcl_build_clear(&program->builds[i]);
        program->builds[i].status = CL_BUILD_IN_PROGRESS;
    }
    return CL_SUCCESS;
}

/* Records the outcome of the compiler run for each device built (or loads
 * their binaries); a build that could not be recorded is an error, never
 * left in progress. Called with the lock held. */
static cl_int build_record(struct _cl_program *program, cl_uint num_devices,
                           const cl_device_id *device_list,
                           const char *options,
                           const struct refcl_compiler_options *parsed,
                           const struct refcl_compile_result *result,
                           cl_int status)
{
    cl_int outcome = status;
    for (cl_uint i = 0; i < program->num_devices; i++) {
        if (!build_target(program, num_devices, device_list, i))
            continue;
        struct refcl_build *build = &program->builds[i];
        cl_int one = status != CL_SUCCESS ? status
                     : program->from_binary
                         ? from_binary(build, options)
                         : record(build, options, result,
                                  CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                                  run_of(parsed), CL_BUILD_PROGRAM_FAILURE);
        if (one == CL_OUT_OF_HOST_MEMORY)
            status = one;
        if (outcome == CL_SUCCESS)
            outcome = one;
        if (build->status == CL_BUILD_IN_PROGRESS)
            build->status = CL_BUILD_ERROR;
    }
    return outcome;
}

/* The SPIR-V a build or compile reads, with the lock held: the
 * program's, or (@p specialized set, owned) a copy with the values
 * clSetProgramSpecializationConstant gave. NULL for a program from source;
 * @p status CL_OUT_OF_HOST_MEMORY without memory for the copy. */
static const struct refcl_blob *il_to_read(const struct _cl_program *program,
                                           struct refcl_blob *specialized,
                                           cl_int *status)
{
    *specialized = (struct refcl_blob){0};
    if (!program->il.size || !program->spec_count)
        return program->il.size ? &program->il : NULL;
    if (!refcl_spirv_specialize(&program->il, program->spec_values,
                                program->spec_count, specialized))
        *status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                             "specialized module");
    return specialized;
}

/* clBuildProgram with the compiler, or from binaries: clang runs without
 * the lock (the source and the IL never change; the specialized IL is a
 * copy), which is held to claim the builds and to record them. */
static cl_int build_now(struct _cl_program *program, cl_uint num_devices,
                        const cl_device_id *device_list, const char *options,
                        const struct refcl_compiler_options *parsed)
{
    struct refcl_blob specialized;
    cl_int status = CL_SUCCESS;
    pthread_mutex_lock(&program->build_lock);
    const struct refcl_blob *il = il_to_read(program, &specialized, &status);
    if (status == CL_SUCCESS)
        status = build_claim(program, num_devices, device_list);
    pthread_mutex_unlock(&program->build_lock);
    if (status != CL_SUCCESS) {
        refcl_blob_free(&specialized);
        return status;
    }
    struct refcl_compile_result result = {0};
    struct refcl_compile_job job = {.step = REFCL_STEP_BUILD,
                                    .options = parsed,
                                    .source = program->source,
                                    .il = il};
    if (!program->from_binary)
        status = refcl_compiler_run(&job, &result);
    refcl_blob_free(&specialized);
    pthread_mutex_lock(&program->build_lock);
    cl_int outcome = build_record(program, num_devices, device_list,
                                  options, parsed, &result, status);
    pthread_mutex_unlock(&program->build_lock);
    refcl_compile_result_free(&result);
    /* CL_BUILD_PROGRAM_FAILURE "if there is a failure to build the program
     * executable". */
    return outcome == CL_SUCCESS ? CL_SUCCESS
                                 : REFCL_FAIL(outcome, "the build failed: "
                                              "its log says why");
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
    if (status == CL_SUCCESS &&
        (refcl_program_builtin(program) || program->linked))
        status = REFCL_FAIL(CL_INVALID_OPERATION, "built-in kernels or "
                            "linked: \"if program was not created with "
                            "clCreateProgramWithSource, "
                            "clCreateProgramWithIL or "
                            "clCreateProgramWithBinary\"");
    if (status != CL_SUCCESS)
        return status;
    /* CL_COMPILER_NOT_AVAILABLE "if program is created with ...
     * clCreateProgramWithSource ... and a compiler is not available". */
    if (!refcl_toolchain() && !program->from_binary)
        return refuse(program, num_devices, device_list, options, build_log);
    struct refcl_compiler_options parsed;
    status = refcl_compiler_options_parse(options, REFCL_STEP_BUILD, &parsed);
    if (status == CL_SUCCESS)
        status = build_now(program, num_devices, device_list, options,
                           &parsed);
    refcl_compiler_options_free(&parsed);
    if (pfn_notify && status != CL_INVALID_BUILD_OPTIONS &&
        status != CL_OUT_OF_HOST_MEMORY && status != CL_INVALID_OPERATION)
        pfn_notify(program, user_data);
    return status;
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

/* The headers' sources under their include names (a program's source
 * never changes). NULL when out of memory. */
static struct refcl_header *headers_gather(cl_uint count,
                                           const cl_program *headers,
                                           const char **names)
{
    struct refcl_header *out = calloc(count ? count : 1, sizeof(*out));
    for (cl_uint i = 0; out && i < count; i++) {
        out[i].name = names[i];
        out[i].text = headers[i]->source;
    }
    return out;
}

static cl_int compile_now(struct _cl_program *program, cl_uint num_devices,
                          const cl_device_id *device_list,
                          const char *options, cl_uint num_input_headers,
                          const cl_program *input_headers,
                          const char **header_include_names)
{
    struct refcl_compiler_options parsed;
    cl_int status =
        refcl_compiler_options_parse(options, REFCL_STEP_COMPILE, &parsed);
    struct refcl_header *headers =
        headers_gather(num_input_headers, input_headers,
                       header_include_names);
    if (status == CL_SUCCESS && !headers)
        status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for headers");
    struct refcl_compile_result result = {0};
    struct refcl_compile_job job = {.step = REFCL_STEP_COMPILE,
                                    .options = &parsed,
                                    .source = program->source,
                                    .headers = headers,
                                    .header_count = num_input_headers};
    struct refcl_blob specialized;
    pthread_mutex_lock(&program->build_lock);
    job.il = il_to_read(program, &specialized, &status);
    if (status == CL_SUCCESS)
        status = refcl_compiler_run(&job, &result);
    refcl_blob_free(&specialized);
    cl_uint count = num_devices ? num_devices : program->num_devices;
    cl_int outcome = status;
    for (cl_uint k = 0; status == CL_SUCCESS && k < count; k++) {
        cl_int one = record(
            &program->builds[target(program, num_devices, device_list, k)],
            options, &result, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            run_of(&parsed), CL_COMPILE_PROGRAM_FAILURE);
        if (outcome == CL_SUCCESS || one == CL_OUT_OF_HOST_MEMORY)
            outcome = one;
    }
    pthread_mutex_unlock(&program->build_lock);
    refcl_compile_result_free(&result);
    refcl_compiler_options_free(&parsed);
    free(headers);
    /* CL_COMPILE_PROGRAM_FAILURE "if there is a failure to compile the
     * program source". */
    return outcome == CL_SUCCESS ? CL_SUCCESS
                                 : REFCL_FAIL(outcome, "the compile failed: "
                                              "its log says why");
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
    if (status == CL_SUCCESS && (program->from_binary || program->linked))
        status = REFCL_FAIL(CL_INVALID_OPERATION, "from binaries or "
                            "linked: \"if program has no source or IL "
                            "available\"");
    if (status != CL_SUCCESS)
        return status;
    /* CL_COMPILER_NOT_AVAILABLE "if a compiler is not available". */
    if (!refcl_toolchain())
        return refuse(program, num_devices, device_list, options,
                      compile_log);
    status = compile_now(program, num_devices, device_list, options,
                         num_input_headers, input_headers,
                         header_include_names);
    if (pfn_notify && status != CL_INVALID_COMPILER_OPTIONS &&
        status != CL_OUT_OF_HOST_MEMORY)
        pfn_notify(program, user_data);
    return status;
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

/* The object or library of input program @p input for the link: the
 * first of its devices' that is one (they are all the same code), copied
 * with its run options, under its lock. CL_INVALID_OPERATION "if the
 * rules for devices containing compiled binaries or libraries as described
 * in input_programs argument above are not followed". */
static cl_int link_input(struct _cl_program *input, cl_uint index,
                         struct refcl_blob *object,
                         struct refcl_run_options *run)
{
    cl_int status = REFCL_FAIL(CL_INVALID_OPERATION, "input_programs[%u]: "
                               "no compiled object or library: \"if the "
                               "rules for devices containing compiled "
                               "binaries or libraries ... are not "
                               "followed\"", index);
    pthread_mutex_lock(&input->build_lock);
    for (cl_uint i = 0; i < input->num_devices; i++) {
        const struct refcl_build *b = &input->builds[i];
        if (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
            b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
            continue;
        status = blob_copy(&b->binary, object)
                     ? CL_SUCCESS
                     : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory");
        run->uniform_work_groups &= b->run.uniform_work_groups;
        run->arg_info &= b->run.arg_info;
        break;
    }
    pthread_mutex_unlock(&input->build_lock);
    return status;
}

/* Links the inputs into @p program (new, unseen by the application). */
static cl_int link_now(struct _cl_program *program,
                       const struct refcl_compiler_options *parsed,
                       const char *options, cl_uint count,
                       const cl_program *inputs)
{
    struct refcl_blob *objects = calloc(count, sizeof(*objects));
    struct refcl_run_options run = {true, true};
    cl_int status = objects ? CL_SUCCESS
                            : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory");
    for (cl_uint i = 0; status == CL_SUCCESS && i < count; i++)
        status = link_input(inputs[i], i, &objects[i], &run);
    struct refcl_compile_result result = {0};
    struct refcl_compile_job job = {.step = REFCL_STEP_LINK,
                                    .options = parsed,
                                    .objects = objects,
                                    .object_count = count};
    if (status == CL_SUCCESS)
        status = refcl_compiler_run(&job, &result);
    cl_program_binary_type type = parsed->create_library
                                      ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                      : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    cl_int outcome = status;
    for (cl_uint i = 0; status == CL_SUCCESS && i < program->num_devices;
         i++) {
        cl_int one = record(&program->builds[i], options, &result, type, run,
                            CL_LINK_PROGRAM_FAILURE);
        if (outcome == CL_SUCCESS || one == CL_OUT_OF_HOST_MEMORY)
            outcome = one;
    }
    for (cl_uint i = 0; objects && i < count; i++)
        refcl_blob_free(&objects[i]);
    free(objects);
    refcl_compile_result_free(&result);
    return outcome;
}

/* clLinkProgram once its arguments are checked: a new program, returned
 * also when the link fails ("clGetProgramBuildInfo can be called to get
 * the program link log"), not when it could not begin. */
static cl_program link_program(cl_context context, cl_uint num_devices,
                               const cl_device_id *device_list,
                               const char *options, cl_uint count,
                               const cl_program *inputs, cl_int *status)
{
    struct refcl_compiler_options parsed;
    *status = refcl_compiler_options_parse(options, REFCL_STEP_LINK, &parsed);
    struct _cl_program *program =
        *status == CL_SUCCESS
            ? refcl_program_new(context, num_devices, device_list)
            : NULL;
    if (*status == CL_SUCCESS && !program)
        *status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                             "program");
    if (program) {
        program->linked = true;
        *status = link_now(program, &parsed, options, count, inputs);
    }
    refcl_compiler_options_free(&parsed);
    /* CL_LINK_PROGRAM_FAILURE "if there is a failure to link the compiled
     * binaries and/or libraries". */
    if (program && *status != CL_SUCCESS &&
        *status != CL_LINK_PROGRAM_FAILURE) {
        refcl_program_release(program);
        program = NULL;
    }
    return program;
}

cl_program CL_API_CALL refcl_clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_programs,
    const cl_program *input_programs,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
    cl_int *errcode_ret)
{
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
    if (status == CL_SUCCESS && !refcl_toolchain())
        status = REFCL_FAIL(CL_LINKER_NOT_AVAILABLE, "refcl has no linker: "
                            "\"if a linker is not available\"");
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    cl_program program =
        link_program(context, num_devices, device_list, options,
                     num_input_programs, input_programs, &status);
    if (program && pfn_notify)
        pfn_notify(program, user_data);
    return refcl_errcode(program, status, errcode_ret);
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
                                       : build->binary_type;
    const size_t globals =
        build->executable ? build->executable->table->global_variable_bytes
                          : 0;
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
        return refcl_info_return(&build->status, sizeof(build->status),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    /* "If build status of the specified program for device is
     * CL_BUILD_NONE, an empty string is returned." */
    case CL_PROGRAM_BUILD_OPTIONS:
        return refcl_info_string(build->status != CL_BUILD_NONE &&
                                         build->options
                                     ? build->options
                                     : "",
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
        return refcl_info_return(&globals, sizeof(globals),
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
