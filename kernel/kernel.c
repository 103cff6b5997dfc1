/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel objects: clCreateKernel, clCreateKernelsInProgram, clCloneKernel,
 * retain/release, and their argument values (clSetKernelArg,
 * clSetKernelArgSVMPointer, clSetKernelExecInfo), for programs of built-in
 * kernels and programs built from source or binaries (kernel/compiled.c
 * finds the latter's kernels in their executables). Queries are in
 * kernel/info.c, enqueueing in kernel/enqueue.c, execution in exec/.
 *
 * A kernel holds its program (and so its context); it does not hold the
 * memory objects set as its arguments ("Implementations shall not allow
 * cl_kernel objects to hold reference counts to cl_kernel arguments"):
 * an enqueue checks that each is still alive and holds it for the command.
 * The spec makes the calls that change a kernel unsafe to make from two
 * threads at once for one kernel; refcl takes no lock for them.
 *
 * A kernel's argument values, any in number and size, are one allocation
 * made with it: an entry per argument, then a copy of each by-value
 * argument over 8 bytes (vectors, structs) that its entry points to.
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/image.h"
#include "refcl/kernel.h"
#include "refcl/kernel_abi.h"
#include "refcl/program.h"

/* Bytes of the argument block of @p builtin (the entries, then the copies
 * of by-value arguments over 8 bytes); with @p block, makes its entries
 * unset, those of the latter pointing to their copies. */
static size_t args_block(const struct refcl_kernel_desc *builtin,
                         struct refcl_kernel_arg *block)
{
    size_t entries = builtin->num_args * sizeof(*block);
    unsigned char *copies =
        block ? refcl_arg_copies_start((unsigned char *)block + entries)
              : NULL;
    size_t at = 0;
    for (cl_uint i = 0; i < builtin->num_args; i++) {
        const struct refcl_arg_desc *desc = &builtin->args[i];
        size_t here = refcl_arg_inline(desc)
                          ? SIZE_MAX
                          : refcl_arg_place(&at, desc->size);
        if (block)
            block[i] = (struct refcl_kernel_arg){
                .value.ptr = here == SIZE_MAX ? NULL : copies + here};
    }
    return at ? entries + REFCL_ARG_ALIGN_MAX - 1 + at : entries;
}

/* The argument block of a new kernel of @p builtin, or NULL. Its entries
 * are made one by one, the copies left as they are until set: a malloc
 * followed by a memset of it all would be compiled into a calloc, which
 * glibc serves without its thread cache (twice the cost of the rest of
 * clCreateKernel). */
static struct refcl_kernel_arg *args_alloc(const struct refcl_kernel_desc *builtin)
{
    struct refcl_kernel_arg *block = malloc(args_block(builtin, NULL));
    if (block)
        args_block(builtin, block);
    return block;
}

struct _cl_kernel *refcl_kernel_create(struct _cl_program *program,
                                       const struct refcl_kernel_desc *desc,
                                       struct refcl_compiled *compiled)
{
    struct refcl_kernel_arg *args =
        desc->num_args ? args_alloc(desc) : NULL;
    struct _cl_kernel *kernel =
        args || !desc->num_args
            ? refcl_object_alloc(REFCL_KERNEL, &program->obj,
                                 program->obj.platform, NULL)
            : NULL;
    if (!kernel) {
        free(args);
        free(compiled);
        return NULL;
    }
    kernel->args = args;
    refcl_object_retain(&program->obj);
    atomic_fetch_add(&program->kernels_attached, 1);
    kernel->program = program;
    kernel->context = program->context;
    kernel->desc = desc;
    kernel->compiled = compiled;
    /* "If clSetKernelExecInfo has not been called with a value for
     * CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, the default value is
     * CL_TRUE." */
    kernel->svm_fine_grain_system = CL_TRUE;
    return kernel;
}

static void kernel_destroy(struct refcl_object *obj)
{
    struct _cl_kernel *kernel = (struct _cl_kernel *)obj;
    struct _cl_program *program = kernel->program;
    free(kernel->svm_ptrs);
    free(kernel->args);
    free(kernel->compiled);
    refcl_object_free(&kernel->obj);
    atomic_fetch_sub(&program->kernels_attached, 1);
    refcl_program_release(program);
}

void refcl_kernel_release(struct _cl_kernel *kernel)
{
    if (refcl_object_release(&kernel->obj))
        kernel_destroy(&kernel->obj);
}

/* The kernel named @p name in @p program, or NULL. */
static const struct refcl_kernel_desc *
program_kernel(const struct _cl_program *program, const char *name)
{
    for (size_t i = 0; i < program->kernel_count; i++)
        if (strcmp(program->kernels[i]->name, name) == 0)
            return program->kernels[i];
    return NULL;
}

/* A kernel of @p program's built-in kernel @p name, through @p out. */
static cl_int builtin_kernel(struct _cl_program *program, const char *name,
                             struct _cl_kernel **out)
{
    const struct refcl_kernel_desc *builtin = program_kernel(program, name);
    if (!builtin)
        return REFCL_FAIL(CL_INVALID_KERNEL_NAME, "kernel_name \"%.64s\": "
                          "\"if kernel_name is not found in program\"",
                          name);
    *out = refcl_kernel_create(program, builtin, NULL);
    return *out ? CL_SUCCESS
                : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                             "kernel");
}

/* A kernel of @p program's compiled kernel @p name, through @p out. */
static cl_int compiled_kernel(struct _cl_program *program, const char *name,
                              struct _cl_kernel **out)
{
    struct refcl_compiled *compiled = NULL;
    cl_int status = refcl_compiled_find(program, name, &compiled);
    if (status != CL_SUCCESS)
        return status;
    *out = refcl_kernel_create(program, &compiled->desc, compiled);
    return *out ? CL_SUCCESS
                : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                             "kernel");
}

cl_kernel CL_API_CALL refcl_clCreateKernel(cl_program program,
                                           const char *kernel_name,
                                           cl_int *errcode_ret)
{
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_errcode(
            NULL, refcl_invalid_handle(program, REFCL_PROGRAM), errcode_ret);
    if (!kernel_name)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_INVALID_VALUE, "kernel_name NULL: "
                                        "\"if kernel_name is NULL\""),
                             errcode_ret);
    struct _cl_kernel *kernel = NULL;
    cl_int status = refcl_program_builtin(program)
                        ? builtin_kernel(program, kernel_name, &kernel)
                        : compiled_kernel(program, kernel_name, &kernel);
    return refcl_errcode(kernel, status, errcode_ret);
}

/* A kernel of @p program's kernel @p i in @p listed (its first
 * executable's table; NULL for built-in kernels), through @p out: NULL
 * with CL_SUCCESS for one that is not made: "Kernel objects are not
 * created for any __kernel functions in program that do not have the same
 * function definition across all devices for which a program executable
 * has been successfully built", nor for one no device can run. */
static cl_int listed_kernel(struct _cl_program *program,
                            const struct refcl_abi_kernel *listed, size_t i,
                            struct _cl_kernel **out)
{
    *out = NULL;
    if (!listed)
        return builtin_kernel(program, program->kernels[i]->name, out);
    cl_int status = compiled_kernel(program, listed[i].name, out);
    return status == CL_INVALID_KERNEL_DEFINITION ? CL_SUCCESS : status;
}

/* The kernels @p listed (count @p total) that are made, through @p made
 * (at most @p room of them, NULL to only count); their count through
 * @p count. */
static cl_int listed_kernels(struct _cl_program *program,
                             const struct refcl_abi_kernel *listed,
                             size_t total, cl_kernel *made, cl_uint room,
                             cl_uint *count)
{
    *count = 0;
    for (size_t i = 0; i < total; i++) {
        struct _cl_kernel *kernel = NULL;
        cl_int status = listed_kernel(program, listed, i, &kernel);
        if (status == CL_SUCCESS && kernel && made && *count < room)
            made[*count] = kernel;
        else if (kernel)
            refcl_kernel_release(kernel);
        *count += kernel != NULL;
        if (status != CL_SUCCESS) {
            for (cl_uint k = 0; made && k < *count && k < room; k++)
                refcl_kernel_release(made[k]);
            return status;
        }
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clCreateKernelsInProgram(cl_program program,
                                                  cl_uint num_kernels,
                                                  cl_kernel *kernels,
                                                  cl_uint *num_kernels_ret)
{
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return refcl_invalid_handle(program, REFCL_PROGRAM);
    const struct refcl_abi_kernel *listed = NULL;
    size_t total = refcl_program_builtin(program)
                       ? program->kernel_count
                       : refcl_compiled_listed(program, &listed);
    if (!refcl_program_builtin(program) && !listed)
        return REFCL_FAIL(CL_INVALID_PROGRAM_EXECUTABLE, "\"if there is no "
                          "successfully built executable for any device in "
                          "program\"");
    /* Counted first, so that nothing is made when there is no room. */
    cl_uint count = 0;
    cl_int status = listed_kernels(program, listed, total, NULL, 0, &count);
    if (status == CL_SUCCESS && kernels && num_kernels < count)
        status = REFCL_FAIL(CL_INVALID_VALUE, "num_kernels %u of %u: \"if "
                            "kernels is not NULL and num_kernels is less than "
                            "the number of kernels in program\"",
                            num_kernels, count);
    if (status == CL_SUCCESS && kernels)
        status = listed_kernels(program, listed, total, kernels, num_kernels,
                                &count);
    if (status == CL_SUCCESS && num_kernels_ret)
        *num_kernels_ret = count;
    return status;
}

/* CL_INVALID_KERNEL "if kernel is not a valid kernel object". */
cl_int CL_API_CALL refcl_clRetainKernel(cl_kernel kernel)
{
    return refcl_handle_retain(kernel, REFCL_KERNEL);
}

/* "The kernel object is deleted once the number of instances that are
 * retained to kernel become zero and the kernel object is no longer needed
 * by any enqueued commands that use kernel": each command holds a
 * reference while it is pending. */
cl_int CL_API_CALL refcl_clReleaseKernel(cl_kernel kernel)
{
    return refcl_handle_release(kernel, REFCL_KERNEL, kernel_destroy);
}

/* Argument @p desc of @p source into @p dst: its value, and its copy when
 * it is one (@p dst keeps its own). */
static void arg_copy(struct refcl_kernel_arg *dst,
                     const struct refcl_kernel_arg *source,
                     const struct refcl_arg_desc *desc)
{
    if (refcl_arg_inline(desc)) {
        *dst = *source;
        return;
    }
    if (!source->set)
        return;
    void *copy = dst->value.ptr;
    memcpy(copy, source->value.ptr, desc->size);
    *dst = *source;
    dst->value.ptr = copy;
}

/* A kernel of @p source's kernel, with unset arguments, through @p out. */
static cl_int clone_make(const struct _cl_kernel *source,
                         struct _cl_kernel **out)
{
    if (source->compiled)
        return compiled_kernel(source->program, source->desc->name, out);
    *out = refcl_kernel_create(source->program, source->desc, NULL);
    return *out ? CL_SUCCESS
                : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                             "kernel");
}

/* "a shallow copy of the kernel object, its arguments and any information
 * passed to the kernel object using clSetKernelExecInfo", with "the
 * reference count ... set as if it had been returned by clCreateKernel". */
cl_kernel CL_API_CALL refcl_clCloneKernel(cl_kernel source_kernel,
                                          cl_int *errcode_ret)
{
    if (!refcl_object_valid(source_kernel, REFCL_KERNEL))
        return refcl_errcode(
            NULL, refcl_invalid_handle(source_kernel, REFCL_KERNEL),
            errcode_ret);
    size_t ptrs_size = source_kernel->svm_ptr_count * sizeof(void *);
    void **ptrs = ptrs_size ? malloc(ptrs_size) : NULL;
    struct _cl_kernel *clone = NULL;
    cl_int status =
        !ptrs_size || ptrs
            ? clone_make(source_kernel, &clone)
            : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the kernel");
    if (status != CL_SUCCESS) {
        free(ptrs);
        return refcl_errcode(NULL, status, errcode_ret);
    }
    for (cl_uint i = 0; i < clone->desc->num_args; i++)
        arg_copy(&clone->args[i], &source_kernel->args[i],
                 &clone->desc->args[i]);
    if (ptrs_size)
        memcpy(ptrs, source_kernel->svm_ptrs, ptrs_size);
    clone->svm_ptrs = ptrs;
    clone->svm_ptr_count = source_kernel->svm_ptr_count;
    clone->svm_fine_grain_system = source_kernel->svm_fine_grain_system;
    return refcl_errcode(clone, CL_SUCCESS, errcode_ret);
}

/* ---- argument values -------------------------------------------------- */

/* A __local argument: "arg_value must be NULL, and arg_size specifies the
 * amount of local memory in bytes". */
static cl_int local_arg(struct refcl_kernel_arg *arg, size_t arg_size,
                        const void *arg_value)
{
    if (arg_value)
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "arg_value not NULL: \"If "
                          "the argument is declared with the local "
                          "qualifier, the arg_value entry must be NULL\"");
    if (arg_size == 0)
        return REFCL_FAIL(CL_INVALID_ARG_SIZE, "arg_size 0: \"if arg_size is "
                          "zero and the argument is declared with the local "
                          "qualifier\"");
    *arg = (struct refcl_kernel_arg){.set = true, .local_size = arg_size};
    return CL_SUCCESS;
}

/* The cl_mem a memory object argument's arg_value points to (NULL for a
 * NULL arg_value) into *@p mem. The size is checked first, so that refcl
 * never reads more than arg_size bytes from arg_value. */
static cl_int mem_arg_read(size_t arg_size, const void *arg_value,
                           cl_mem *mem)
{
    if (arg_size != sizeof(cl_mem))
        return REFCL_FAIL(CL_INVALID_ARG_SIZE, "arg_size %zu: \"if the "
                          "argument is a memory object and arg_size != "
                          "sizeof(cl_mem)\" (%zu)", arg_size,
                          sizeof(cl_mem));
    *mem = NULL;
    if (arg_value)
        memcpy(mem, arg_value, sizeof(*mem));
    return CL_SUCCESS;
}

/* A __global or __constant pointer: "If the argument is a buffer object,
 * the arg_value pointer can be NULL or point to a NULL value in which case
 * a NULL value will be used". */
static cl_int buffer_arg(const struct _cl_kernel *kernel,
                         struct refcl_kernel_arg *arg, size_t arg_size,
                         const void *arg_value)
{
    cl_mem mem = NULL;
    cl_int status = mem_arg_read(arg_size, arg_value, &mem);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_MEM_OBJECT "for an argument declared to be a memory
     * object when the specified arg_value is not a valid memory object"
     * (an object of another type included, and a memory object that is
     * not a buffer: "the memory object specified as argument value must
     * be a buffer object"), and a buffer of another context: "The memory
     * object must be created with the context associated with the kernel
     * object". */
    status =
        mem ? refcl_kernel_buffer_check(kernel->context, mem) : CL_SUCCESS;
    if (status == CL_SUCCESS)
        *arg = (struct refcl_kernel_arg){.set = true, .mem = mem};
    return status;
}

/* An image: "If the argument is an image object, the arg_value pointer
 * cannot be NULL"; CL_INVALID_MEM_OBJECT "for an argument declared to be a
 * memory object when the specified arg_value is not a valid memory
 * object"; CL_INVALID_ARG_VALUE "if the argument is an image declared with
 * the read_only qualifier and arg_value refers to an image object created
 * with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
 * declared with the write_only qualifier and arg_value refers to an image
 * object created with cl_mem_flags of CL_MEM_READ_ONLY", and for an image
 * of another type than the argument's. */
static cl_int image_arg(const struct _cl_kernel *kernel,
                        const struct refcl_arg_desc *desc,
                        struct refcl_kernel_arg *arg, size_t arg_size,
                        const void *arg_value)
{
    cl_mem mem = NULL;
    cl_int status = mem_arg_read(arg_size, arg_value, &mem);
    if (status != CL_SUCCESS)
        return status;
    if (!mem)
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "no image: \"If the argument "
                          "is an image object, the arg_value pointer cannot "
                          "be NULL or point to a NULL value\"");
    status = refcl_image_check(mem, kernel->context);
    if (status != CL_SUCCESS)
        return status == CL_INVALID_CONTEXT
                   ? REFCL_FAIL(CL_INVALID_MEM_OBJECT, "an image of another "
                                "context")
                   : status;
    if (!refcl_image_matches(mem, desc->type_name))
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "an image of type 0x%X for "
                          "an argument of type %s", mem->type,
                          desc->type_name);
    bool reads = desc->access != CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    bool writes = desc->access != CL_KERNEL_ARG_ACCESS_READ_ONLY;
    if ((reads && (mem->flags & CL_MEM_WRITE_ONLY)) ||
        (writes && (mem->flags & CL_MEM_READ_ONLY)))
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "an image created %s for a "
                          "%s argument",
                          mem->flags & CL_MEM_WRITE_ONLY
                              ? "CL_MEM_WRITE_ONLY" : "CL_MEM_READ_ONLY",
                          reads ? "read_only" : "write_only");
    void *copy = arg->value.ptr; /* the descriptor's place */
    *arg = (struct refcl_kernel_arg){.set = true, .mem = mem,
                                     .value.ptr = copy};
    return CL_SUCCESS;
}

/* The REFCL_ABI_SAMPLER_* bits of @p sampler: the values of OpenCL C's
 * CLK_* constants, as a program-scope sampler_t compiles. */
static uint32_t sampler_bits(const struct _cl_sampler *sampler)
{
    uint32_t address;
    switch (sampler->addressing_mode) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
        address = REFCL_ABI_SAMPLER_CLAMP_TO_EDGE;
        break;
    case CL_ADDRESS_CLAMP:
        address = REFCL_ABI_SAMPLER_CLAMP;
        break;
    case CL_ADDRESS_REPEAT:
        address = REFCL_ABI_SAMPLER_REPEAT;
        break;
    case CL_ADDRESS_MIRRORED_REPEAT:
        address = REFCL_ABI_SAMPLER_MIRRORED_REPEAT;
        break;
    default:
        address = REFCL_ABI_SAMPLER_ADDRESS_NONE;
        break;
    }
    uint32_t filter = sampler->filter_mode == CL_FILTER_LINEAR
                          ? REFCL_ABI_SAMPLER_LINEAR
                          : REFCL_ABI_SAMPLER_NEAREST;
    return (sampler->normalized_coords ? REFCL_ABI_SAMPLER_NORMALIZED : 0) |
           address | filter;
}

/* A sampler: CL_INVALID_SAMPLER "for an argument declared to be of type
 * sampler_t when the specified arg_value is not a valid sampler object";
 * the argument keeps its bits. */
static cl_int sampler_arg(struct refcl_kernel_arg *arg, size_t arg_size,
                          const void *arg_value)
{
    if (arg_size != sizeof(cl_sampler))
        return REFCL_FAIL(CL_INVALID_ARG_SIZE, "arg_size %zu: \"if the "
                          "argument is a sampler object and arg_size != "
                          "sizeof(cl_sampler)\"", arg_size);
    cl_sampler sampler = NULL;
    if (arg_value)
        memcpy(&sampler, arg_value, sizeof(sampler));
    if (!refcl_object_valid(sampler, REFCL_SAMPLER))
        return refcl_invalid_handle(sampler, REFCL_SAMPLER);
    *arg = (struct refcl_kernel_arg){
        .set = true, .value.u64 = sampler_bits(sampler)};
    return CL_SUCCESS;
}

/* An argument passed by value: "arg_value points to the data that is used
 * as the kernel argument value". */
static cl_int scalar_arg(const struct refcl_arg_desc *desc,
                         struct refcl_kernel_arg *arg, size_t arg_size,
                         const void *arg_value)
{
    if (!arg_value)
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "arg_value NULL, no value to "
                          "copy: \"if arg_value specified is not a valid "
                          "value\"");
    if (arg_size != desc->size)
        return REFCL_FAIL(CL_INVALID_ARG_SIZE, "arg_size %zu: \"if arg_size "
                          "does not match the size of the data type for an "
                          "argument that is not a memory object\" (%zu)",
                          arg_size, desc->size);
    void *bytes = refcl_arg_inline(desc) ? NULL : arg->value.ptr;
    *arg = (struct refcl_kernel_arg){.set = true, .value.ptr = bytes};
    memcpy(bytes ? bytes : arg->value.bytes, arg_value, arg_size);
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                                        size_t arg_size, const void *arg_value)
{
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    if (arg_index >= kernel->desc->num_args)
        return REFCL_FAIL(CL_INVALID_ARG_INDEX, "arg_index %u of %u: \"if "
                          "arg_index is not a valid argument index\"",
                          arg_index, kernel->desc->num_args);
    const struct refcl_arg_desc *desc = &kernel->desc->args[arg_index];
    struct refcl_kernel_arg *arg = &kernel->args[arg_index];
    /* On an error "the internal state of kernel may only be modified when
     * that error code is CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY":
     * each helper writes *arg only on success. */
    switch (desc->kind) {
    case REFCL_ARG_LOCAL:
        return local_arg(arg, arg_size, arg_value);
    case REFCL_ARG_GLOBAL:
    case REFCL_ARG_CONSTANT:
        return buffer_arg(kernel, arg, arg_size, arg_value);
    case REFCL_ARG_IMAGE:
        return image_arg(kernel, desc, arg, arg_size, arg_value);
    case REFCL_ARG_SAMPLER:
        return sampler_arg(arg, arg_size, arg_value);
    default:
        return scalar_arg(desc, arg, arg_size, arg_value);
    }
}

cl_int CL_API_CALL refcl_clSetKernelArgSVMPointer(cl_kernel kernel,
                                                  cl_uint arg_index,
                                                  const void *arg_value)
{
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    if (!refcl_kernel_svm_supported(kernel->context))
        return REFCL_FAIL(CL_INVALID_OPERATION, "\"if no devices in the "
                          "context associated with kernel support SVM\"");
    if (arg_index >= kernel->desc->num_args)
        return REFCL_FAIL(CL_INVALID_ARG_INDEX, "arg_index %u of %u: \"if "
                          "arg_index is not a valid argument index\"",
                          arg_index, kernel->desc->num_args);
    const struct refcl_arg_desc *desc = &kernel->desc->args[arg_index];
    /* CL_INVALID_ARG_VALUE "if arg_value specified is not a valid value".
     * The SVM pointer is "the pointer returned by clSVMAlloc or ... a
     * pointer offset into the SVM region" — or, with the fine-grain system
     * SVM every refcl device has, any host pointer
     * (refcl_kernel_svm_room). NULL is the NULL pointer, as with a NULL
     * buffer. */
    bool pointer = desc->kind == REFCL_ARG_GLOBAL ||
                   desc->kind == REFCL_ARG_CONSTANT;
    if (!pointer)
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "argument %u: \"The SVM "
                          "pointer can only be used for arguments that are "
                          "declared to be a pointer to global or constant "
                          "memory\"", arg_index);
    if ((uintptr_t)arg_value % desc->size != 0)
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "arg_value %p: \"must be "
                          "aligned according to the arguments type\" (%zu)",
                          arg_value, desc->size);
    if (arg_value && !refcl_kernel_svm_room(kernel->context, arg_value))
        return REFCL_FAIL(CL_INVALID_ARG_VALUE, "arg_value %p: not in the "
                          "SVM region", arg_value);
    kernel->args[arg_index] = (struct refcl_kernel_arg){
        .set = true, .svm = true, .value.ptr = (void *)arg_value};
    return CL_SUCCESS;
}

/* CL_KERNEL_EXEC_INFO_SVM_PTRS: "The complete set of pointers is specified
 * by each call ... and replaces any previously specified set"; "an empty
 * set by passing param_value_size equal to zero and param_value equal to
 * NULL". */
static cl_int exec_svm_ptrs(struct _cl_kernel *kernel, size_t size,
                            const void *value)
{
    if (!refcl_kernel_svm_supported(kernel->context))
        return REFCL_FAIL(CL_INVALID_OPERATION, "\"if param_name is "
                          "CL_KERNEL_EXEC_INFO_SVM_PTRS and no devices in the "
                          "context associated with kernel support SVM\"");
    if (!value && size)
        return REFCL_FAIL(CL_INVALID_VALUE, "param_value NULL, "
                          "param_value_size %zu: \"if param_value is NULL "
                          "and param_value_size is greater than zero\"",
                          size);
    /* A whole number of pointers. */
    if (size % sizeof(void *) != 0)
        return REFCL_FAIL(CL_INVALID_VALUE, "param_value_size %zu: \"if the "
                          "size specified by param_value_size is not "
                          "valid\"", size);
    void **ptrs = size ? malloc(size) : NULL;
    if (size && !ptrs)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for %zu SVM "
                          "pointers", size / sizeof(void *));
    if (size)
        memcpy(ptrs, value, size);
    free(kernel->svm_ptrs);
    kernel->svm_ptrs = ptrs;
    kernel->svm_ptr_count = size / sizeof(void *);
    return CL_SUCCESS;
}

/* CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, a cl_bool. */
static cl_int exec_fine_grain_system(struct _cl_kernel *kernel, size_t size,
                                     const void *value)
{
    cl_bool on;
    if (!value || size != sizeof(on))
        return REFCL_FAIL(CL_INVALID_VALUE, "param_value_size %zu: no "
                          "cl_bool to read", size);
    memcpy(&on, value, sizeof(on));
    /* refcl's devices have no fine-grain system SVM allocations. */
    if (on)
        return REFCL_FAIL(CL_INVALID_OPERATION, "\"if param_name is "
                          "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM and "
                          "param_value is CL_TRUE and no devices in the "
                          "context associated with kernel support "
                          "fine-grain system SVM allocations\"");
    kernel->svm_fine_grain_system = CL_FALSE;
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clSetKernelExecInfo(cl_kernel kernel,
                                             cl_kernel_exec_info param_name,
                                             size_t param_value_size,
                                             const void *param_value)
{
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        return exec_svm_ptrs(kernel, param_value_size, param_value);
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        return exec_fine_grain_system(kernel, param_value_size, param_value);
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not valid\"", param_name);
    }
}
