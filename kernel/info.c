/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel queries: clGetKernelInfo, clGetKernelArgInfo (built-in kernels
 * know their arguments' names, types and qualifiers; compiled kernels
 * their names only when built with -cl-kernel-arg-info),
 * clGetKernelWorkGroupInfo and clGetKernelSubGroupInfo[KHR].
 */
#include <stdbool.h>
#include <stdint.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/info.h"
#include "refcl/kernel.h"
#include "refcl/kernel_abi.h"
#include "refcl/program.h"

/* A compiled kernel's entry in the executable of @p device or, with no
 * device, of the first device that has one: what the executables may
 * differ in (memory, attributes) is reported from it. */
static const struct refcl_abi_kernel *
compiled_entry(const struct _cl_kernel *kernel, cl_device_id device)
{
    if (device)
        return refcl_compiled_on(kernel->compiled, kernel->program, device);
    for (cl_uint i = 0; i < kernel->program->num_devices; i++)
        if (kernel->compiled->per_device[i])
            return kernel->compiled->per_device[i];
    return NULL;
}

/* CL_KERNEL_ATTRIBUTES: the source's, as its executable spells them. */
static const char *kernel_attributes(const struct _cl_kernel *kernel)
{
    const char *attributes =
        kernel->compiled ? compiled_entry(kernel, NULL)->attributes : NULL;
    return attributes ? attributes : "";
}

cl_int CL_API_CALL refcl_clGetKernelInfo(cl_kernel kernel,
                                         cl_kernel_info param_name,
                                         size_t param_value_size,
                                         void *param_value,
                                         size_t *param_value_size_ret)
{
    /* CL_INVALID_KERNEL "if kernel is a not a valid kernel object". */
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    const void *value;
    size_t size;
    cl_uint count;
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
        return refcl_info_string(kernel->desc->name, param_value_size,
                                 param_value, param_value_size_ret);
    case CL_KERNEL_ATTRIBUTES:
        /* "For kernels not created from OpenCL C source and the
         * clCreateProgramWithSource API call the string returned from this
         * query will be empty." */
        return refcl_info_string(kernel_attributes(kernel), param_value_size,
                                 param_value, param_value_size_ret);
    case CL_KERNEL_NUM_ARGS:
        value = &kernel->desc->num_args;
        size = sizeof(cl_uint);
        break;
    case CL_KERNEL_REFERENCE_COUNT:
        count = refcl_object_refcount(&kernel->obj);
        value = &count;
        size = sizeof(count);
        break;
    case CL_KERNEL_CONTEXT:
        value = &kernel->context;
        size = sizeof(cl_context);
        break;
    case CL_KERNEL_PROGRAM:
        value = &kernel->program;
        size = sizeof(cl_program);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

static cl_kernel_arg_address_qualifier
address_qualifier(enum refcl_arg_kind kind)
{
    switch (kind) {
    case REFCL_ARG_GLOBAL:
    case REFCL_ARG_IMAGE: /* "image objects are always allocated from the
                             global address space" */
        return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case REFCL_ARG_CONSTANT:
        return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case REFCL_ARG_LOCAL:
        return CL_KERNEL_ARG_ADDRESS_LOCAL;
    default:
        /* "If no address qualifier is specified, the default address
         * qualifier which is CL_KERNEL_ARG_ADDRESS_PRIVATE is returned." */
        return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    }
}

/* Kernel argument information is promised only for programs built from
 * source with -cl-kernel-arg-info; a built-in kernel's arguments are known
 * from the start, and a compiled kernel's all but their names, so refcl
 * answers for every kernel, names aside. */
cl_int CL_API_CALL refcl_clGetKernelArgInfo(
    cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    if (arg_index >= kernel->desc->num_args)
        return REFCL_FAIL(CL_INVALID_ARG_INDEX, "arg_index %u of %u: \"if "
                          "arg_index is not a valid argument index\"",
                          arg_index, kernel->desc->num_args);
    const struct refcl_arg_desc *arg = &kernel->desc->args[arg_index];
    cl_kernel_arg_address_qualifier address;
    /* "If argument is not an image type and is not declared with the pipe
     * qualifier, CL_KERNEL_ARG_ACCESS_NONE is returned." */
    const cl_kernel_arg_access_qualifier access =
        arg->access ? arg->access : CL_KERNEL_ARG_ACCESS_NONE;
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        address = address_qualifier(arg->kind);
        return refcl_info_return(&address, sizeof(address), param_value_size,
                                 param_value, param_value_size_ret);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        return refcl_info_return(&access, sizeof(access), param_value_size,
                                 param_value, param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_NAME:
        return refcl_info_string(arg->type_name, param_value_size,
                                 param_value, param_value_size_ret);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        return refcl_info_return(&arg->qualifier, sizeof(arg->qualifier),
                                 param_value_size, param_value,
                                 param_value_size_ret);
    case CL_KERNEL_ARG_NAME:
        /* CL_KERNEL_ARG_INFO_NOT_AVAILABLE "if the argument information is
         * not available for kernel": "only available if ... the program
         * executable was built with the -cl-kernel-arg-info option". */
        if (!arg->name)
            return REFCL_FAIL(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "argument "
                              "%u's name: built without "
                              "-cl-kernel-arg-info", arg_index);
        return refcl_info_string(arg->name, param_value_size, param_value,
                                 param_value_size_ret);
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
}

/* "The list of devices is the list of devices in the OpenCL context that
 * is associated with kernel." */
static cl_int kernel_device_check(const struct _cl_kernel *kernel,
                                  cl_device_id device)
{
    const struct _cl_context *context = kernel->context;
    if (!device && context->num_devices != 1)
        return REFCL_FAIL(CL_INVALID_DEVICE, "device NULL, %u devices: \"if "
                          "device is NULL but there is more than one device "
                          "associated with kernel\"", context->num_devices);
    if (!device)
        return CL_SUCCESS;
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    if (!refcl_context_has_device(context, device))
        return REFCL_FAIL(CL_INVALID_DEVICE, "\"if device is not in the list "
                          "of devices associated with kernel\"");
    return CL_SUCCESS;
}

/* The __local arguments' bytes: "If the local memory size, for any
 * pointer argument to the kernel declared with the __local address
 * qualifier, is not specified, its size is assumed to be 0". */
static cl_ulong local_args_bytes(const struct _cl_kernel *kernel)
{
    cl_ulong bytes = 0;
    for (cl_uint i = 0; i < kernel->desc->num_args; i++)
        bytes += kernel->args[i].local_size;
    return bytes;
}

/* What clGetKernelWorkGroupInfo reports of a kernel on one device. */
struct group_facts {
    size_t max_items;   /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t compile[3];  /* CL_KERNEL_COMPILE_WORK_GROUP_SIZE */
    size_t multiple;    /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    cl_ulong local;     /* CL_KERNEL_LOCAL_MEM_SIZE */
    cl_ulong private_bytes; /* CL_KERNEL_PRIVATE_MEM_SIZE */
};

/* A built-in kernel: element-wise kernels run the range as rows of
 * elements, whatever the grouping, and a work-group kernel's loops have no
 * lanes to fill, so no work-group size runs faster than another; they
 * declare no __local variable of their own and keep nothing per work-item
 * in memory. "If the work-group size is not specified in the kernel source
 * or IL, (0, 0, 0) is returned." */
static struct group_facts builtin_facts(const struct _cl_kernel *kernel)
{
    return (struct group_facts){.max_items = REFCL_MAX_WORK_GROUP_SIZE,
                                .multiple = 1,
                                .local = local_args_bytes(kernel)};
}

/* A compiled kernel, as the executable for @p device describes it. Its
 * work-item loops are vectorized along dimension 0 (the pass): a multiple
 * of the work-items its loop runs at a time (refcl-jam-items), else of
 * the widest vector of 32-bit lanes (16, AVX-512), fills every lane of
 * any host. The kernel-scope __local variables count with the
 * arguments. */
static struct group_facts compiled_facts(const struct _cl_kernel *kernel,
                                         cl_device_id device)
{
    const struct refcl_abi_kernel *k = compiled_entry(kernel, device);
    if (!k)
        k = compiled_entry(kernel, NULL);
    struct group_facts facts = {
        .max_items = REFCL_MAX_WORK_GROUP_SIZE,
        .multiple = k->work_items_per_step ? k->work_items_per_step
                                          : REFCL_COMPILED_STEP_DEFAULT,
        .local = k->local_bytes + local_args_bytes(kernel),
        .private_bytes = k->private_bytes};
    for (int d = 0; d < 3; d++)
        facts.compile[d] = k->reqd_work_group_size[d];
    return facts;
}

cl_int CL_API_CALL refcl_clGetKernelWorkGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    /* CL_KERNEL_GLOBAL_WORK_SIZE: "the maximum global size that can be used
     * to execute a built-in kernel": any size_t (the enqueue checks that
     * offset + size fits and that the arguments hold the elements). */
    static const size_t global_max[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    cl_int status = kernel_device_check(kernel, device);
    if (status != CL_SUCCESS)
        return status;
    struct group_facts facts = kernel->compiled
                                   ? compiled_facts(kernel, device)
                                   : builtin_facts(kernel);
    const void *value = &facts.max_items;
    size_t size = sizeof(size_t);
    switch (param_name) {
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        /* CL_INVALID_VALUE "if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
         * device is not a custom device and kernel is not a built-in
         * kernel". */
        if (kernel->compiled)
            return REFCL_FAIL(CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE "
                              "of a kernel that is not built-in, on a "
                              "device that is not custom");
        value = global_max;
        size = sizeof(global_max);
        break;
    case CL_KERNEL_WORK_GROUP_SIZE:
        break;
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        value = facts.compile;
        size = sizeof(facts.compile);
        break;
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        value = &facts.multiple;
        break;
    case CL_KERNEL_LOCAL_MEM_SIZE:
        value = &facts.local;
        size = sizeof(cl_ulong);
        break;
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        value = &facts.private_bytes;
        size = sizeof(cl_ulong);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

/* The kernel's sub-group size on @p device: a compiled kernel's, as its
 * executable was built (compiler/pass: the CPU's 32-bit lanes); a built-in
 * kernel runs each work-group as one sub-group ("In the degenerate case, a
 * single sub-group must be supported for each work-group"). */
static size_t sub_group_size(const struct _cl_kernel *kernel,
                             cl_device_id device)
{
    if (!kernel->compiled)
        return REFCL_MAX_WORK_GROUP_SIZE;
    const struct refcl_abi_kernel *k = compiled_entry(kernel, device);
    if (!k)
        k = compiled_entry(kernel, NULL);
    return k->sub_group_size;
}

/* The local size the ND-range queries take: "an array of size_t values
 * corresponding to the local work size parameter of the intended
 * dispatch. The number of dimensions in the ND-range will be inferred from
 * the value specified for input_value_size." Its work-items, or 0 with
 * CL_INVALID_VALUE "if ... the size in bytes specified by input_value_size
 * is not valid or if input_value is NULL". */
static cl_int local_items(size_t input_value_size, const void *input_value,
                          size_t *items)
{
    if (!input_value)
        return REFCL_FAIL(CL_INVALID_VALUE, "input_value NULL");
    if (input_value_size % sizeof(size_t) || !input_value_size ||
        input_value_size > 3 * sizeof(size_t))
        return REFCL_FAIL(CL_INVALID_VALUE, "input_value_size %zu: not 1 to "
                          "3 size_t", input_value_size);
    const size_t *local = input_value;
    *items = 1;
    for (size_t d = 0; d < input_value_size / sizeof(size_t); d++)
        *items *= local[d];
    return CL_SUCCESS;
}

/* CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: "Any returned work-group will
 * have one dimension. Other dimensions inferred from the value specified
 * for param_value_size will be filled with the value 1 ... If no
 * work-group size can accommodate the requested number of sub-groups, 0
 * will be returned in each element": count sub-groups of size S are
 * count * S work-items along x, if the kernel may run that many (its
 * reqd_work_group_size, if any, being that group). */
static void local_size_for_count(size_t count, size_t size, size_t max_items,
                                 const size_t compile[3], size_t local[3])
{
    size_t items = count * size;
    bool fits = count && items / size == count && items <= max_items;
    if (compile[0] && fits)
        fits = compile[0] == items && compile[1] * compile[2] == 1;
    local[0] = fits ? items : 0;
    local[1] = local[2] = fits ? 1 : 0;
}

/* Sub-groups are runs of the kernel's sub-group size S in the local linear
 * id, the last one of a group possibly shorter (docs/compiler.md). */
cl_int CL_API_CALL refcl_clGetKernelSubGroupInfo(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret)
{
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    cl_int status = kernel_device_check(kernel, device);
    if (status != CL_SUCCESS)
        return status;
    struct group_facts facts = kernel->compiled
                                   ? compiled_facts(kernel, device)
                                   : builtin_facts(kernel);
    const size_t size = sub_group_size(kernel, device);
    size_t max_items = facts.max_items, items = 0, answer[3];
    if (facts.compile[0])
        max_items = facts.compile[0] * facts.compile[1] * facts.compile[2];
    size_t answer_size = sizeof(size_t);
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
        status = local_items(input_value_size, input_value, &items);
        if (status != CL_SUCCESS)
            return status;
        answer[0] = param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE
                        ? (items < size ? items : size)
                        : (items + size - 1) / size;
        break;
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
        if (!input_value || input_value_size != sizeof(size_t))
            return REFCL_FAIL(CL_INVALID_VALUE, "input_value_size %zu, "
                              "input_value %p: one size_t wanted",
                              input_value_size, input_value);
        /* "The output array must be an array of size_t values
         * corresponding to the local size parameter": 1 to 3 of them as
         * param_value_size says, 3 when asked for the size. */
        answer_size = param_value_size;
        if (!param_value && (answer_size % sizeof(size_t) || !answer_size ||
                             answer_size > sizeof(answer)))
            answer_size = sizeof(answer);
        if (answer_size % sizeof(size_t) || !answer_size ||
            answer_size > sizeof(answer))
            return REFCL_FAIL(CL_INVALID_VALUE, "param_value_size %zu: not 1 "
                              "to 3 size_t", param_value_size);
        local_size_for_count(*(const size_t *)input_value, size, max_items,
                             facts.compile, answer);
        break;
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
        /* "the maximum number of sub-groups that may make up each
         * work-group to execute a kernel". */
        answer[0] = (max_items + size - 1) / size;
        break;
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
        /* "If the sub-group count is not specified then 0 is returned":
         * OpenCL C has no attribute for it, and the SPIR-V translator
         * drops SubgroupsPerWorkgroup. */
        answer[0] = 0;
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(answer, answer_size, param_value_size,
                             param_value, param_value_size_ret);
}

/* cl_khr_subgroups' name for the same query; refcl does not list the
 * extension (device/info.c), but the dispatch slot must answer. */
cl_int CL_API_CALL refcl_clGetKernelSubGroupInfoKHR(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret)
{
    return refcl_clGetKernelSubGroupInfo(
        kernel, device, param_name, input_value_size, input_value,
        param_value_size, param_value, param_value_size_ret);
}
