/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Program objects: clCreateProgramWithSource keeps the source,
 * clCreateProgramWithIL the SPIR-V (its header checked),
 * clCreateProgramWithBinary refcl's binaries; clCreateProgramWithBuiltInKernels
 * makes a program of refcl's built-in kernels (exec/builtin.c), built from
 * the start; retain/release, clGetProgramInfo, clSetProgramReleaseCallback
 * and clSetProgramSpecializationConstant (the SPIR-V read in
 * compiler/spirv.c). Builds are in program/build.c, kernels in kernel/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/exec.h"
#include "refcl/info.h"
#include "refcl/kernel_abi.h"
#include "refcl/program.h"
#include "refcl/toolchain.h"

cl_int refcl_device_list_shape(cl_uint num_devices,
                               const cl_device_id *device_list,
                               bool required)
{
    bool empty = !device_list || num_devices == 0;
    if ((device_list == NULL) != (num_devices == 0))
        return REFCL_FAIL(CL_INVALID_VALUE, "num_devices %u, device_list %s: "
                          "\"if device_list is NULL and num_devices is "
                          "greater than zero, or if device_list is not NULL "
                          "and num_devices is zero\"", num_devices,
                          device_list ? "non-NULL" : "NULL");
    if (required && empty)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if device_list is NULL or "
                          "num_devices is zero\"");
    return CL_SUCCESS;
}

cl_int refcl_device_list_members(const struct _cl_context *context,
                                 cl_uint num_devices,
                                 const cl_device_id *device_list)
{
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!refcl_object_valid(device_list[i], REFCL_DEVICE))
            return refcl_invalid_handle(device_list[i], REFCL_DEVICE);
        if (!refcl_context_has_device(context, device_list[i]))
            return REFCL_FAIL(CL_INVALID_DEVICE, "device_list[%u]: \"if "
                              "any device in device_list is not in the list "
                              "of devices associated with context\"", i);
    }
    return CL_SUCCESS;
}

long refcl_program_device_index(const struct _cl_program *program,
                                const struct _cl_device_id *device)
{
    for (cl_uint i = 0; i < program->num_devices; i++)
        if (program->devices[i] == device)
            return (long)i;
    return -1;
}

/* Device @p i's executable, read under the build lock: a build may be
 * recording it (clang runs without the lock). The lock guards the
 * program's builds, not what callers see of the program: const. */
static const struct refcl_executable *
executable_of(const struct _cl_program *program, size_t i)
{
    pthread_mutex_t *lock = (pthread_mutex_t *)&program->build_lock;
    pthread_mutex_lock(lock);
    const struct refcl_executable *e = program->builds[i].executable;
    pthread_mutex_unlock(lock);
    return e;
}

bool refcl_program_runs_on(const struct _cl_program *program,
                           const struct _cl_device_id *device)
{
    for (const struct refcl_object *d = &device->obj; d; d = d->parent) {
        long i = refcl_program_device_index(program,
                                            (const struct _cl_device_id *)d);
        if (i >= 0 && (refcl_program_builtin(program) ||
                       executable_of(program, (size_t)i)))
            return true;
    }
    return false;
}

size_t refcl_program_executable_kernels(const struct _cl_program *program,
                                        cl_uint device_index,
                                        const struct refcl_abi_kernel **kernels)
{
    const struct refcl_executable *e =
        device_index < program->num_devices
            ? executable_of(program, device_index)
            : NULL;
    *kernels = e ? e->table->kernels : NULL;
    return e ? e->table->num_kernels : 0;
}

struct refcl_run_options refcl_program_run_options(
    const struct _cl_program *program, cl_uint device_index)
{
    return device_index < program->num_devices
               ? program->builds[device_index].run
               : (struct refcl_run_options){.uniform_work_groups = true};
}

void refcl_build_clear(struct refcl_build *build)
{
    free(build->log);
    free(build->options);
    refcl_blob_free(&build->binary);
    refcl_executable_unload(build->executable);
    *build = (struct refcl_build){.status = CL_BUILD_NONE};
}

static void program_destroy(struct refcl_object *obj)
{
    struct _cl_program *program = (struct _cl_program *)obj;
    struct _cl_context *context = program->context;
    for (cl_uint i = 0; program->builds && i < program->num_devices; i++)
        refcl_build_clear(&program->builds[i]);
    free(program->builds);
    free(program->source);
    refcl_blob_free(&program->il);
    free(program->spec_values);
    free(program->kernels);
    free(program->kernel_names);
    if (program->devices != context->devices)
        free(program->devices);
    pthread_mutex_destroy(&program->build_lock);
    refcl_object_free(&program->obj);
    refcl_context_release(context);
}

void refcl_program_release(struct _cl_program *program)
{
    if (refcl_object_release(&program->obj))
        program_destroy(&program->obj);
}

/* A program of @p context on its devices, holding @p source (taken over,
 * freed on failure), every build @p status. */
static struct _cl_program *program_create(struct _cl_context *context,
                                          char *source, size_t source_size,
                                          cl_build_status status)
{
    struct _cl_program *program = refcl_object_alloc(
        REFCL_PROGRAM, &context->obj, context->obj.platform, NULL);
    if (!program) {
        free(source);
        return NULL;
    }
    refcl_object_retain(&context->obj);
    program->context = context;
    program->num_devices = context->num_devices;
    program->devices = context->devices;
    program->source = source;
    program->source_size = source_size;
    pthread_mutex_init(&program->build_lock, NULL);
    program->builds = malloc(context->num_devices * sizeof(*program->builds));
    if (!program->builds) {
        program_destroy(&program->obj);
        return NULL;
    }
    for (cl_uint i = 0; i < context->num_devices; i++)
        program->builds[i] = (struct refcl_build){.status = status};
    return program;
}

struct _cl_program *refcl_program_new(struct _cl_context *context,
                                      cl_uint num_devices,
                                      const cl_device_id *device_list)
{
    char *source = calloc(1, 1);
    struct _cl_program *program =
        source ? program_create(context, source, 1, CL_BUILD_NONE) : NULL;
    if (!program || !num_devices)
        return program;
    cl_device_id *devices = malloc(num_devices * sizeof(*devices));
    struct refcl_build *builds = calloc(num_devices, sizeof(*builds));
    if (!devices || !builds) {
        free(devices);
        free(builds);
        program_destroy(&program->obj);
        return NULL;
    }
    memcpy(devices, device_list, num_devices * sizeof(*devices));
    free(program->builds);
    program->builds = builds;
    for (cl_uint i = 0; i < num_devices; i++)
        builds[i].status = CL_BUILD_NONE;
    program->devices = devices;
    program->num_devices = num_devices;
    return program;
}

/* "If an element in lengths is zero, its accompanying string is
 * null-terminated. If lengths is NULL, all strings ... are considered
 * null-terminated." */
static size_t piece_length(const char **strings, const size_t *lengths,
                           cl_uint i)
{
    return lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
}

/* The source as CL_PROGRAM_SOURCE returns it: "a concatenation of all
 * source strings ... with a null terminator. The concatenation strips any
 * nulls in the original source strings." NULL when out of memory. */
static char *source_join(cl_uint count, const char **strings,
                         const size_t *lengths, size_t *size)
{
    size_t total = 1;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = piece_length(strings, lengths, i);
        if (n > SIZE_MAX - total)
            return NULL;
        total += n;
    }
    char *source = malloc(total);
    if (!source)
        return NULL;
    size_t used = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = piece_length(strings, lengths, i);
        for (size_t k = 0; k < n; k++)
            if (strings[i][k] != '\0')
                source[used++] = strings[i][k];
    }
    source[used++] = '\0';
    *size = used;
    return source;
}

cl_program CL_API_CALL refcl_clCreateProgramWithSource(cl_context context,
                                                       cl_uint count,
                                                       const char **strings,
                                                       const size_t *lengths,
                                                       cl_int *errcode_ret)
{
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    bool bad = count == 0 || !strings;
    cl_uint i = 0;
    for (; !bad && i < count; i++)
        bad = !strings[i];
    if (bad)
        return refcl_errcode(
            NULL,
            REFCL_FAIL(CL_INVALID_VALUE, "%s: \"if count is zero or if "
                       "strings or any entry in strings is NULL\"",
                       count == 0 ? "count 0"
                       : !strings ? "strings NULL"
                                  : "an entry NULL"),
            errcode_ret);
    size_t size = 0;
    char *source = source_join(count, strings, lengths, &size);
    struct _cl_program *program =
        source ? program_create(context, source, size, CL_BUILD_NONE) : NULL;
    return refcl_errcode(program,
                         program ? CL_SUCCESS
                                 : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                              "no memory for the program"),
                         errcode_ret);
}

/* CL_INVALID_VALUE "if lengths or binaries is NULL or if any entry in
 * lengths[i] is zero or binaries[i] is NULL"; each binary_status says
 * which entries are, and which of the others are invalid binaries. */
static cl_int binaries_present(cl_uint num_devices, const size_t *lengths,
                               const unsigned char **binaries,
                               cl_int *binary_status)
{
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < num_devices; i++) {
        bool missing = !lengths || !binaries || !lengths[i] || !binaries[i];
        struct refcl_binary b;
        const char *why;
        if (binary_status)
            binary_status[i] =
                missing ? CL_INVALID_VALUE
                : refcl_binary_read(binaries[i], lengths[i], &b, &why)
                    ? CL_SUCCESS
                    : CL_INVALID_BINARY;
        if (missing)
            status = REFCL_FAIL(CL_INVALID_VALUE, "binary %u: \"if lengths "
                                "or binaries is NULL or if any entry in "
                                "lengths[i] is zero or binaries[i] is "
                                "NULL\"", i);
    }
    return status;
}

/* Reads each device's container into its build record (CL_BUILD_NONE
 * until built). CL_INVALID_BINARY "if an invalid program binary was
 * encountered for any device. binary_status will return specific status
 * for each device". */
static cl_int binaries_load(struct _cl_program *program,
                            const size_t *lengths,
                            const unsigned char **binaries,
                            cl_int *binary_status)
{
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < program->num_devices; i++) {
        struct refcl_binary b;
        const char *why = NULL;
        struct refcl_build *build = &program->builds[i];
        bool valid = refcl_binary_read(binaries[i], lengths[i], &b, &why);
        if (valid) {
            build->binary.bytes = malloc(b.payload_size);
            build->options = strndup(b.options, b.options_length);
            if (!build->binary.bytes || !build->options)
                return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a "
                                  "binary");
            memcpy(build->binary.bytes, b.payload, b.payload_size);
            build->binary.size = b.payload_size;
            build->binary_type = b.type;
            build->run = (struct refcl_run_options){
                .uniform_work_groups = b.flags & REFCL_BINARY_UNIFORM,
                .arg_info = b.flags & REFCL_BINARY_ARG_INFO};
        } else {
            status = REFCL_FAIL(CL_INVALID_BINARY, "binary %u: %s: \"if an "
                                "invalid program binary was encountered for "
                                "any device\"", i, why);
        }
        if (binary_status)
            binary_status[i] = valid ? CL_SUCCESS : CL_INVALID_BINARY;
    }
    return status;
}

cl_program CL_API_CALL refcl_clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const size_t *lengths, const unsigned char **binaries,
    cl_int *binary_status, cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    cl_int status = refcl_device_list_shape(num_devices, device_list, true);
    if (status == CL_SUCCESS)
        status = refcl_device_list_members(context, num_devices, device_list);
    if (status == CL_SUCCESS)
        status = binaries_present(num_devices, lengths, binaries,
                                  binary_status);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    /* CL_PROGRAM_DEVICES: "the list of devices specified by
     * device_list", each with its own binary. */
    struct _cl_program *program =
        refcl_program_new(context, num_devices, device_list);
    status = program ? binaries_load(program, lengths, binaries,
                                     binary_status)
                     : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                                  "program");
    if (program)
        program->from_binary = true;
    if (status != CL_SUCCESS && program) {
        program_destroy(&program->obj);
        program = NULL;
    }
    return refcl_errcode(program, status, errcode_ret);
}

/* CL_INVALID_VALUE "if il is NULL or if length is zero" and "if the
 * length-byte memory pointed to by il does not contain well-formed
 * intermediate language input appropriate for the deployment environment
 * in which the OpenCL platform is running": SPIR-V's header (five words,
 * the magic number in either byte order) of a version the device reports.
 * The rest is the translator's to judge, at build time. */
static cl_int il_check(const void *il, size_t length)
{
    if (!il || !length)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if il is NULL or if length "
                          "is zero\"");
    const unsigned char *b = il;
    uint32_t magic = 0, version = 0;
    if (length >= 20 && length % 4 == 0) {
        memcpy(&magic, b, 4);
        memcpy(&version, b + 4, 4);
    }
    if (magic == 0x03022307u)
        version = __builtin_bswap32(version);
    bool spirv = magic == 0x07230203u || magic == 0x03022307u;
    if (!spirv || version >> 16 != 1 || (version >> 8 & 0xff) >
                                            REFCL_IL_MAX_MINOR)
        return REFCL_FAIL(CL_INVALID_VALUE, "not SPIR-V 1.0-1.%u: \"if the "
                          "length-byte memory pointed to by il does not "
                          "contain well-formed intermediate language "
                          "input\"", REFCL_IL_MAX_MINOR);
    return CL_SUCCESS;
}

cl_program CL_API_CALL refcl_clCreateProgramWithIL(cl_context context,
                                                   const void *il,
                                                   size_t length,
                                                   cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    /* Without the translator CL_DEVICE_IL_VERSION is "". */
    if (!refcl_toolchain_reads_il())
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_INVALID_OPERATION, "\"if no "
                                        "devices in context support "
                                        "intermediate language programs\""),
                             errcode_ret);
    cl_int status = il_check(il, length);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    /* CL_PROGRAM_SOURCE: "a null string". */
    char *source = calloc(1, 1);
    struct _cl_program *program =
        source ? program_create(context, source, 1, CL_BUILD_NONE) : NULL;
    unsigned char *copy = program ? malloc(length) : NULL;
    if (!copy) {
        if (program)
            program_destroy(&program->obj);
        return refcl_errcode(NULL, REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no "
                                              "memory for the program"),
                             errcode_ret);
    }
    memcpy(copy, il, length);
    program->il = (struct refcl_blob){copy, length};
    return refcl_errcode(program, CL_SUCCESS, errcode_ret);
}

/* The next name of a semi-colon separated list at *@p list, spaces
 * around it dropped; advances *@p list past it. @return its length. */
static size_t next_name(const char **list, const char **name)
{
    const char *p = *list;
    while (*p == ' ')
        p++;
    size_t length = strcspn(p, ";");
    *list = p + length + (p[length] == ';');
    while (length && p[length - 1] == ' ')
        length--;
    *name = p;
    return length;
}

/* The built-in kernels @p names names, each once, into @p out (room for
 * every name) unless NULL. CL_INVALID_VALUE "if ... kernel_names contains a
 * kernel name that is not supported by any of the devices in device_list",
 * an empty name included. @return how many, or 0 for that error. */
static size_t builtins_parse(const char *names,
                             const struct refcl_kernel_desc **out)
{
    size_t count = 0;
    const char *list = names;
    do {
        const char *name;
        size_t length = next_name(&list, &name);
        const struct refcl_kernel_desc *builtin =
            refcl_device_builtins()->find(name, length);
        if (!builtin)
            return 0;
        bool seen = false;
        for (size_t i = 0; out && i < count; i++)
            seen |= out[i] == builtin;
        if (out && !seen)
            out[count] = builtin;
        count += !seen || !out;
    } while (*list);
    return count;
}

/* CL_PROGRAM_KERNEL_NAMES of @p program: its kernels' names, ';'
 * between. */
static char *kernel_names_join(const struct _cl_program *program)
{
    size_t size = 1;
    for (size_t i = 0; i < program->kernel_count; i++)
        size += strlen(program->kernels[i]->name) + 1;
    char *names = malloc(size);
    if (!names)
        return NULL;
    names[0] = '\0';
    for (size_t i = 0; i < program->kernel_count; i++) {
        if (i)
            strcat(names, ";");
        strcat(names, program->kernels[i]->name);
    }
    return names;
}

/* The program's devices: @p device_list with duplicates dropped, as a
 * context's. @return CL_SUCCESS or CL_OUT_OF_HOST_MEMORY. */
static cl_int program_devices(struct _cl_program *program,
                              cl_uint num_devices,
                              const cl_device_id *device_list)
{
    program->devices = malloc(num_devices * sizeof(cl_device_id));
    if (!program->devices)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for %u handles",
                          num_devices);
    program->num_devices = 0;
    for (cl_uint i = 0; i < num_devices; i++)
        if (refcl_program_device_index(program, device_list[i]) < 0)
            program->devices[program->num_devices++] = device_list[i];
    return CL_SUCCESS;
}

/* Fills a new program of built-in kernels: its devices, its kernels, and
 * builds that succeeded, so that kernels can be made at once. */
static cl_int builtins_load(struct _cl_program *program, cl_uint num_devices,
                            const cl_device_id *device_list,
                            const char *names, size_t count)
{
    cl_int status =
        program_devices(program, num_devices, device_list);
    if (status != CL_SUCCESS)
        return status;
    program->kernels = malloc(count * sizeof(*program->kernels));
    if (!program->kernels)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for %zu "
                          "kernels", count);
    program->kernel_count = builtins_parse(names, program->kernels);
    program->kernel_names = kernel_names_join(program);
    if (!program->kernel_names)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                          "no memory for the kernel names");
    for (cl_uint i = 0; i < program->num_devices; i++)
        program->builds[i].status = CL_BUILD_SUCCESS;
    return CL_SUCCESS;
}

cl_program CL_API_CALL refcl_clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    /* CL_INVALID_VALUE "if device_list is NULL or num_devices is zero". */
    cl_int status = refcl_device_list_shape(num_devices, device_list, true);
    if (status == CL_SUCCESS && !kernel_names)
        status = REFCL_FAIL(CL_INVALID_VALUE,
                            "kernel_names NULL: \"if kernel_names is NULL\"");
    /* CL_INVALID_DEVICE "if any device in device_list is not in the list
     * of devices associated with context". */
    if (status == CL_SUCCESS)
        status = refcl_device_list_members(context, num_devices, device_list);
    /* CL_INVALID_VALUE if "kernel_names contains a kernel name that is not
     * supported by any of the devices in device_list": every refcl device
     * runs every built-in kernel, so only unknown names are. */
    size_t count = status == CL_SUCCESS ? builtins_parse(kernel_names, NULL)
                                        : 0;
    if (status == CL_SUCCESS && count == 0)
        status = REFCL_FAIL(CL_INVALID_VALUE, "kernel_names \"%.64s\": \"if "
                            "kernel_names contains a kernel name that is not "
                            "supported by any of the devices in "
                            "device_list\"", kernel_names);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);

    /* CL_PROGRAM_SOURCE: "a null string" (no source is stored). */
    char *source = calloc(1, 1);
    struct _cl_program *program =
        source ? program_create(context, source, 1, CL_BUILD_NONE) : NULL;
    status = program ? builtins_load(program, num_devices, device_list,
                                     kernel_names, count)
                     : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                  "no memory for the program");
    if (status != CL_SUCCESS && program) {
        program_destroy(&program->obj);
        program = NULL;
    }
    return refcl_errcode(program, status, errcode_ret);
}

/* CL_INVALID_PROGRAM "if program is not a valid program object". */
cl_int CL_API_CALL refcl_clRetainProgram(cl_program program)
{
    return refcl_handle_retain(program, REFCL_PROGRAM);
}

/* "The program object is deleted after all kernel objects associated with
 * program have been deleted and the program reference count becomes
 * zero": each kernel holds a reference. */
cl_int CL_API_CALL refcl_clReleaseProgram(cl_program program)
{
    return refcl_handle_release(program, REFCL_PROGRAM, program_destroy);
}

/* The queries that need "a successful program executable". */
static bool needs_executable(cl_program_info param_name)
{
    return param_name == CL_PROGRAM_NUM_KERNELS ||
           param_name == CL_PROGRAM_KERNEL_NAMES ||
           param_name == CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ||
           param_name == CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT;
}

/* The first executable built for one of the program's devices (they all
 * come from one build, so they hold the same kernels), or NULL. */
static const struct refcl_abi_program *
some_executable(const struct _cl_program *program)
{
    for (cl_uint i = 0; i < program->num_devices; i++)
        if (program->builds[i].executable)
            return program->builds[i].executable->table;
    return NULL;
}

/* CL_PROGRAM_KERNEL_NAMES of an executable: ';' between names. */
static char *table_names(const struct refcl_abi_program *table)
{
    size_t size = 1;
    for (uint32_t i = 0; i < table->num_kernels; i++)
        size += strlen(table->kernels[i].name) + 1;
    char *names = malloc(size), *end = names;
    for (uint32_t i = 0; names && i < table->num_kernels; i++)
        end += sprintf(end, "%s%s", i ? ";" : "", table->kernels[i].name);
    if (names)
        *end = '\0';
    return names;
}

/* The executable's queries; CL_INVALID_PROGRAM_EXECUTABLE "if param_name
 * is CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES, ... and a
 * successful program executable has not been built for at least one
 * device in the list of devices associated with program". */
static cl_int executable_info(const struct _cl_program *program,
                              cl_program_info param_name,
                              size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret)
{
    const struct refcl_abi_program *table = some_executable(program);
    if (!table && !refcl_program_builtin(program))
        return REFCL_FAIL(CL_INVALID_PROGRAM_EXECUTABLE, "param_name 0x%X: "
                          "\"a successful program executable has not been "
                          "built\"", param_name);
    /* Program-scope variables have no constructors or destructors: OpenCL
     * C initializes them with constant expressions, which the executable's
     * data segment holds, and "Support for constructors and destructors
     * for program scope global variables is required only for OpenCL 2.2
     * devices": "may unconditionally return CL_FALSE". */
    static const cl_bool none = CL_FALSE;
    size_t count = table ? table->num_kernels : program->kernel_count;
    char *names = table ? table_names(table) : program->kernel_names;
    cl_int status;
    switch (param_name) {
    case CL_PROGRAM_NUM_KERNELS:
        status = refcl_info_return(&count, sizeof(count), param_value_size,
                                   param_value, param_value_size_ret);
        break;
    case CL_PROGRAM_KERNEL_NAMES:
        status = names ? refcl_info_string(names, param_value_size,
                                           param_value, param_value_size_ret)
                       : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for "
                                    "kernel names");
        break;
    default:
        status = refcl_info_return(&none, sizeof(none), param_value_size,
                                   param_value, param_value_size_ret);
    }
    if (table)
        free(names);
    return status;
}

/* Device @p i's binary in its container, or an empty blob when it has
 * none. @return false when out of memory. */
static bool device_binary(const struct _cl_program *program, cl_uint i,
                          struct refcl_blob *out)
{
    const struct refcl_build *build = &program->builds[i];
    *out = (struct refcl_blob){0};
    if (build->binary_type == CL_PROGRAM_BINARY_TYPE_NONE ||
        !build->binary.size)
        return true;
    const char *options = build->options ? build->options : "";
    uint32_t flags =
        (build->run.uniform_work_groups ? REFCL_BINARY_UNIFORM : 0) |
        (build->run.arg_info ? REFCL_BINARY_ARG_INFO : 0);
    struct refcl_binary b = {build->binary_type, flags, options,
                             strlen(options), build->binary.bytes,
                             build->binary.size};
    return refcl_binary_write(&b, out);
}

/* CL_PROGRAM_BINARY_SIZES: "If a binary is not available for a device(s), a
 * size of zero is returned." */
static cl_int binary_sizes(const struct _cl_program *program,
                           size_t param_value_size, void *param_value,
                           size_t *param_value_size_ret)
{
    size_t *sizes = calloc(program->num_devices, sizeof(size_t));
    cl_int status = sizes ? CL_SUCCESS
                          : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for "
                                       "%u sizes", program->num_devices);
    for (cl_uint i = 0; status == CL_SUCCESS && i < program->num_devices;
         i++) {
        struct refcl_blob b;
        if (!device_binary(program, i, &b))
            status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a "
                                "binary");
        sizes[i] = b.size;
        refcl_blob_free(&b);
    }
    if (status == CL_SUCCESS)
        status = refcl_info_return(sizes,
                                   program->num_devices * sizeof(size_t),
                                   param_value_size, param_value,
                                   param_value_size_ret);
    free(sizes);
    return status;
}

/* CL_PROGRAM_BINARIES: "param_value points to an array of n pointers
 * allocated by the caller ... If an entry value in the array is NULL, the
 * implementation skips copying the program binary for the specific
 * device". */
static cl_int binaries_copy(const struct _cl_program *program,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret)
{
    size_t size = program->num_devices * sizeof(unsigned char *);
    cl_int status = refcl_info_return(NULL, size, param_value_size,
                                      param_value, param_value_size_ret);
    unsigned char **out = param_value;
    for (cl_uint i = 0; status == CL_SUCCESS && out &&
                        i < program->num_devices; i++) {
        struct refcl_blob b;
        if (!device_binary(program, i, &b))
            return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a "
                              "binary");
        if (out[i] && b.size)
            memcpy(out[i], b.bytes, b.size);
        refcl_blob_free(&b);
    }
    return status;
}

cl_int CL_API_CALL refcl_clGetProgramInfo(cl_program program,
                                          cl_program_info param_name,
                                          size_t param_value_size,
                                          void *param_value,
                                          size_t *param_value_size_ret)
{
    /* CL_INVALID_PROGRAM "if program is a not a valid program object". */
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    const void *value;
    size_t size;
    cl_uint count;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        count = refcl_object_refcount(&program->obj);
        value = &count;
        size = sizeof(count);
        break;
    case CL_PROGRAM_CONTEXT:
        value = &program->context;
        size = sizeof(cl_context);
        break;
    case CL_PROGRAM_NUM_DEVICES:
        value = &program->num_devices;
        size = sizeof(cl_uint);
        break;
    case CL_PROGRAM_DEVICES:
        value = program->devices;
        size = program->num_devices * sizeof(cl_device_id);
        break;
    case CL_PROGRAM_SOURCE:
        value = program->source;
        size = program->source_size;
        break;
    case CL_PROGRAM_IL:
        /* Not from IL: "param_value will be unchanged and
         * param_value_size_ret will be set to 0". */
        value = program->il.bytes;
        size = program->il.size;
        break;
    case CL_PROGRAM_BINARY_SIZES:
        /* Built-in kernels: "the implementation may return zero in any
         * entries". */
        return binary_sizes(program, param_value_size, param_value,
                            param_value_size_ret);
    case CL_PROGRAM_BINARIES:
        return binaries_copy(program, param_value_size, param_value,
                             param_value_size_ret);
    default:
        if (needs_executable(param_name))
            return executable_info(program, param_name, param_value_size,
                                   param_value, param_value_size_ret);
        /* CL_INVALID_VALUE "if param_name is not one of the supported
         * values". */
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

/* "clSetProgramReleaseCallback may unconditionally return an error if no
 * devices in the context associated with program support destructors for
 * program scope global variables": refcl's devices have program-scope
 * variables (OpenCL C's, initialized by constant expressions) but run no
 * destructors ("required only for OpenCL 2.2 devices"). */
cl_int CL_API_CALL refcl_clSetProgramReleaseCallback(
    cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
    void *user_data)
{
    (void)pfn_notify;
    (void)user_data;
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    return REFCL_FAIL(CL_INVALID_OPERATION, "\"if no devices in the context "
                      "associated with program support destructors for "
                      "program scope global variables\"");
}

/* Sets @p value for its SpecId, replacing an earlier one ("Calling this
 * function multiple times for the same specialization constant shall
 * cause the last provided value to override any previously specified
 * value"). @return false without memory. */
static bool spec_value_set(struct _cl_program *program,
                           struct refcl_spec_value value)
{
    for (size_t i = 0; i < program->spec_count; i++)
        if (program->spec_values[i].spec_id == value.spec_id) {
            program->spec_values[i] = value;
            return true;
        }
    struct refcl_spec_value *grown =
        realloc(program->spec_values,
                (program->spec_count + 1) * sizeof(*grown));
    if (!grown)
        return false;
    grown[program->spec_count++] = value;
    program->spec_values = grown;
    return true;
}

/* The value is kept for the program's next builds and compiles, which
 * specialize the module (compiler/spirv.c). */
cl_int CL_API_CALL refcl_clSetProgramSpecializationConstant(
    cl_program program, cl_uint spec_id, size_t spec_size,
    const void *spec_value)
{
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    /* CL_INVALID_OPERATION "if no devices associated with program support
     * intermediate language programs" (checked first: the CTS's
     * consistency_il_programs asks for it on any program). */
    if (!refcl_toolchain_reads_il())
        return REFCL_FAIL(CL_INVALID_OPERATION, "\"if no devices "
                          "associated with program support intermediate "
                          "language programs\"");
    if (!program->il.size)
        return REFCL_FAIL(CL_INVALID_PROGRAM, "\"if program is not a valid "
                          "program object created from an intermediate "
                          "language\"");
    struct refcl_spec_constant c;
    if (!refcl_spirv_spec_constant(&program->il, spec_id, &c))
        return REFCL_FAIL(CL_INVALID_SPEC_ID, "spec_id %u: no scalar "
                          "OpSpecConstant of a bool, integer or float type "
                          "has it: \"if spec_id is not a valid "
                          "specialization constant identifier\"", spec_id);
    if (spec_size != c.bytes || !spec_value)
        return REFCL_FAIL(CL_INVALID_VALUE, "spec_size %zu, the constant's "
                          "%zu, spec_value %p: \"if spec_size does not match "
                          "the size of the specialization constant in the "
                          "module, or if spec_value is NULL\"", spec_size,
                          c.bytes, spec_value);
    struct refcl_spec_value value = {spec_id, 0};
    memcpy(&value.bits, spec_value, c.bytes); /* little-endian hosts */
    pthread_mutex_lock(&program->build_lock);
    bool set = spec_value_set(program, value);
    pthread_mutex_unlock(&program->build_lock);
    return set ? CL_SUCCESS
               : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                            "specialization constants");
}
