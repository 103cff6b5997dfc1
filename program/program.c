/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Program objects without a compiler: clCreateProgramWithSource keeps the
 * source; clCreateProgramWithBuiltInKernels makes a program of refcl's
 * built-in kernels (kernel/builtin.c), built from the start; programs
 * from binaries or IL are refused with the spec's errors (refcl has no
 * binary format and no IL); retain/release, clGetProgramInfo,
 * clSetProgramReleaseCallback and clSetProgramSpecializationConstant.
 * Builds are in program/build.c, kernels in kernel/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/kernel.h"
#include "refcl/program.h"

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

bool refcl_program_runs_on(const struct _cl_program *program,
                           const struct _cl_device_id *device)
{
    if (!refcl_program_builtin(program))
        return false;
    for (const struct refcl_object *d = &device->obj; d; d = d->parent)
        if (refcl_program_device_index(program,
                                       (const struct _cl_device_id *)d) >= 0)
            return true;
    return false;
}

size_t refcl_program_executable_kernels(const struct _cl_program *program,
                                        cl_uint device_index,
                                        const struct refcl_abi_kernel **kernels)
{
    /* No executable is built from source yet (the compiler's driver is
     * issue 18's work in progress). */
    (void)program;
    (void)device_index;
    *kernels = NULL;
    return 0;
}

struct refcl_run_options refcl_program_run_options(
    const struct _cl_program *program, cl_uint device_index)
{
    (void)program;
    (void)device_index;
    return (struct refcl_run_options){.uniform_work_groups = true};
}

static void program_destroy(struct refcl_object *obj)
{
    struct _cl_program *program = (struct _cl_program *)obj;
    struct _cl_context *context = program->context;
    for (cl_uint i = 0; program->builds && i < program->num_devices; i++)
        free(program->builds[i].options);
    free(program->builds);
    free(program->source);
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
        program->builds[i] = (struct refcl_build){status, NULL, NULL};
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

/* Every binary is refused: refcl has no binary format. Each binary_status
 * entry says why: CL_INVALID_VALUE "if lengths[i] is zero or if
 * binaries[i] is a NULL value", else CL_INVALID_BINARY "if program binary
 * is not a valid binary for the specified device". */
static cl_int binaries_refuse(cl_uint num_devices, const size_t *lengths,
                              const unsigned char **binaries,
                              cl_int *binary_status)
{
    cl_int status = CL_INVALID_BINARY;
    for (cl_uint i = 0; i < num_devices; i++) {
        bool missing = !lengths || !binaries || !lengths[i] || !binaries[i];
        if (binary_status)
            binary_status[i] = missing ? CL_INVALID_VALUE : CL_INVALID_BINARY;
        /* CL_INVALID_VALUE "if lengths or binaries is NULL or if any entry
         * in lengths[i] is zero or binaries[i] is NULL". */
        if (missing)
            status = CL_INVALID_VALUE;
    }
    return status == CL_INVALID_VALUE
               ? REFCL_FAIL(CL_INVALID_VALUE, "\"if lengths or binaries is "
                            "NULL or if any entry in lengths[i] is zero or "
                            "binaries[i] is NULL\"")
               : REFCL_FAIL(CL_INVALID_BINARY, "refcl has no binary format: "
                            "\"program binary is not a valid binary for the "
                            "specified device\"");
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
        status = binaries_refuse(num_devices, lengths, binaries,
                                 binary_status);
    return refcl_errcode(NULL, status, errcode_ret);
}

cl_program CL_API_CALL refcl_clCreateProgramWithIL(cl_context context,
                                                   const void *il,
                                                   size_t length,
                                                   cl_int *errcode_ret)
{
    (void)il;
    (void)length;
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    /* CL_DEVICE_IL_VERSION is "". */
    return refcl_errcode(NULL,
                         REFCL_FAIL(CL_INVALID_OPERATION, "\"if no devices "
                                    "in context support intermediate "
                                    "language programs\""),
                         errcode_ret);
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
                             const struct refcl_builtin **out)
{
    size_t count = 0;
    const char *list = names;
    do {
        const char *name;
        size_t length = next_name(&list, &name);
        const struct refcl_builtin *builtin =
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

/* The queries that need "a successful program executable": only programs
 * of built-in kernels have one. */
static bool needs_executable(cl_program_info param_name)
{
    return param_name == CL_PROGRAM_NUM_KERNELS ||
           param_name == CL_PROGRAM_KERNEL_NAMES ||
           param_name == CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ||
           param_name == CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT;
}

/* The executable's queries, for a program of built-in kernels. */
static cl_int executable_info(const struct _cl_program *program,
                              cl_program_info param_name,
                              size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret)
{
    /* No program-scope variables, so no constructor or destructor: "may
     * unconditionally return CL_FALSE". */
    static const cl_bool none = CL_FALSE;
    switch (param_name) {
    case CL_PROGRAM_NUM_KERNELS:
        return refcl_info_return(&program->kernel_count, sizeof(size_t),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    case CL_PROGRAM_KERNEL_NAMES:
        return refcl_info_string(program->kernel_names, param_value_size,
                                 param_value, param_value_size_ret);
    default:
        return refcl_info_return(&none, sizeof(none), param_value_size,
                                 param_value, param_value_size_ret);
    }
}

/* CL_PROGRAM_BINARY_SIZES: "If a binary is not available for a device(s), a
 * size of zero is returned." */
static cl_int binary_sizes(cl_uint num_devices, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret)
{
    size_t *zeros = calloc(num_devices, sizeof(size_t));
    if (!zeros)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for %u sizes",
                          num_devices);
    cl_int status = refcl_info_return(zeros, num_devices * sizeof(size_t),
                                      param_value_size, param_value,
                                      param_value_size_ret);
    free(zeros);
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
        /* From source or built-in kernels: "param_value will be unchanged and
         * param_value_size_ret will be set to 0". */
        value = NULL;
        size = 0;
        break;
    case CL_PROGRAM_BINARY_SIZES:
        /* Built-in kernels: "the implementation may return zero in any
         * entries". */
        return binary_sizes(program->num_devices, param_value_size,
                            param_value, param_value_size_ret);
    case CL_PROGRAM_BINARIES:
        /* One pointer per device, each written to "if there is a binary
         * available": there never is. */
        value = NULL;
        size = program->num_devices * sizeof(unsigned char *);
        break;
    default:
        if (needs_executable(param_name) && refcl_program_builtin(program))
            return executable_info(program, param_name, param_value_size,
                                   param_value, param_value_size_ret);
        /* CL_INVALID_PROGRAM_EXECUTABLE "if param_name is
         * CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES, ... and a
         * successful program executable has not been built"; else
         * CL_INVALID_VALUE "if param_name is not one of the supported
         * values". */
        return needs_executable(param_name)
                   ? REFCL_FAIL(CL_INVALID_PROGRAM_EXECUTABLE, "param_name "
                                "0x%X: \"a successful program executable has "
                                "not been built\"", param_name)
                   : REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                                "param_name is not one of the supported "
                                "values\"", param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

/* "clSetProgramReleaseCallback may unconditionally return an error if no
 * devices in the context associated with program support destructors for
 * program scope global variables": CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE is
 * 0. */
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

/* CL_INVALID_PROGRAM "if program is not a valid program object created
 * from an intermediate language": no refcl program is. */
cl_int CL_API_CALL refcl_clSetProgramSpecializationConstant(
    cl_program program, cl_uint spec_id, size_t spec_size,
    const void *spec_value)
{
    (void)program;
    (void)spec_id;
    (void)spec_size;
    (void)spec_value;
    return REFCL_FAIL(CL_INVALID_PROGRAM, "\"if program is not a valid "
                      "program object created from an intermediate "
                      "language\": refcl has none");
}
