/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernels of programs built from source: their descriptions, made from the
 * tables of the program's executables (refcl/kernel_abi.h), one per
 * device that has one. A kernel's definition must be the same in every
 * executable ("the number of arguments, the argument types"), so that one
 * description and one set of argument values serve every device; the
 * per-device part is the work-group function and what the executable says
 * of its memory. docs/kernels.md.
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/kernel.h"
#include "refcl/kernel_abi.h"
#include "refcl/program.h"

/* The executable kernels of @p program's device @p i, or NULL (and 0). */
static size_t device_kernels(const struct _cl_program *program, cl_uint i,
                             const struct refcl_abi_kernel **kernels)
{
    size_t count = refcl_program_executable_kernels(program, i, kernels);
    return *kernels ? count : 0;
}

bool refcl_compiled_built(const struct _cl_program *program)
{
    for (cl_uint i = 0; i < program->num_devices; i++) {
        const struct refcl_abi_kernel *kernels = NULL;
        device_kernels(program, i, &kernels);
        if (kernels)
            return true;
    }
    return false;
}

/* The kernel called @p name among @p count @p kernels, or NULL. */
static const struct refcl_abi_kernel *
kernel_named(const struct refcl_abi_kernel *kernels, size_t count,
             const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return &kernels[i];
    return NULL;
}

static bool same_string(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* True if @p a and @p b take the same arguments (names aside: whether
 * they are known depends on each build's options). */
static bool same_definition(const struct refcl_abi_kernel *a,
                            const struct refcl_abi_kernel *b)
{
    if (a->num_args != b->num_args)
        return false;
    for (uint32_t i = 0; i < a->num_args; i++) {
        const struct refcl_abi_arg *x = &a->args[i], *y = &b->args[i];
        if (x->kind != y->kind || x->size != y->size ||
            x->align != y->align || x->access != y->access ||
            x->type_qualifier != y->type_qualifier ||
            !same_string(x->type_name, y->type_name))
            return false;
    }
    return true;
}

/* The description of argument @p a. */
static struct refcl_arg_desc arg_describe(const struct refcl_abi_arg *a)
{
    static const enum refcl_arg_kind kinds[] = {
        [REFCL_ABI_ARG_VALUE] = REFCL_ARG_SCALAR,
        [REFCL_ABI_ARG_GLOBAL] = REFCL_ARG_GLOBAL,
        [REFCL_ABI_ARG_CONSTANT] = REFCL_ARG_CONSTANT,
        [REFCL_ABI_ARG_LOCAL] = REFCL_ARG_LOCAL,
        [REFCL_ABI_ARG_IMAGE] = REFCL_ARG_IMAGE,
        [REFCL_ABI_ARG_SAMPLER] = REFCL_ARG_SAMPLER,
    };
    bool pointer = a->kind != REFCL_ABI_ARG_VALUE;
    bool image = a->kind == REFCL_ABI_ARG_IMAGE;
    size_t size = pointer ? (a->align ? a->align : 1) : a->size;
    if (image)
        size = sizeof(struct refcl_abi_image);
    else if (a->kind == REFCL_ABI_ARG_SAMPLER)
        size = sizeof(cl_ulong);
    return (struct refcl_arg_desc){
        .name = a->name,
        .type_name = a->type_name,
        .kind = kinds[a->kind],
        .qualifier = a->type_qualifier,
        /* Pointers: the alignment enqueues check their addresses for;
         * images: the descriptor the enqueue fills. */
        .size = size,
        .extent = REFCL_EXTENT_NONE,
        .access = image ? a->access : 0,
    };
}

/* A compiled kernel described by @p first, found in @p per_device (copied
 * after it), or NULL when out of memory. */
static struct refcl_compiled *
compiled_make(const struct _cl_program *program,
              const struct refcl_abi_kernel *first,
              const struct refcl_abi_kernel *const *per_device)
{
    size_t args_bytes = first->num_args * sizeof(struct refcl_arg_desc);
    size_t table_bytes = program->num_devices * sizeof(*per_device);
    struct refcl_compiled *c =
        malloc(sizeof(*c) + args_bytes + table_bytes);
    if (!c)
        return NULL;
    struct refcl_arg_desc *args = (struct refcl_arg_desc *)(c + 1);
    c->per_device = (const struct refcl_abi_kernel **)((char *)args +
                                                       args_bytes);
    memcpy(c->per_device, per_device, table_bytes);
    for (uint32_t i = 0; i < first->num_args; i++)
        args[i] = arg_describe(&first->args[i]);
    c->desc = (struct refcl_kernel_desc){.name = first->name,
                                     .num_args = first->num_args,
                                     .args = args};
    return c;
}

/* CL_SUCCESS if a kernel of @p k's arguments can run on refcl's devices. */
static cl_int supported_check(const struct refcl_abi_kernel *k)
{
    for (uint32_t i = 0; i < k->num_args; i++)
        if (k->args[i].kind > REFCL_ABI_ARG_SAMPLER)
            /* refcl's devices have no pipes: no executable can run the
             * kernel as its source defines it. */
            return REFCL_FAIL(CL_INVALID_KERNEL_DEFINITION, "kernel %.64s, "
                              "argument %u (%.64s): a pipe, which refcl's "
                              "devices do not have",
                              k->name, i, k->args[i].type_name);
    return CL_SUCCESS;
}

/* Fills @p per_device with @p name's entry in each device's executable;
 * through @p first, the first found (NULL if none). CL_INVALID_KERNEL_
 * DEFINITION if two differ or one executable lacks it. */
static cl_int entries_find(const struct _cl_program *program,
                           const char *name,
                           const struct refcl_abi_kernel **per_device,
                           const struct refcl_abi_kernel **first)
{
    bool lacking = false;
    *first = NULL;
    for (cl_uint i = 0; i < program->num_devices; i++) {
        const struct refcl_abi_kernel *kernels = NULL;
        size_t count = device_kernels(program, i, &kernels);
        per_device[i] = kernel_named(kernels, count, name);
        lacking |= kernels && !per_device[i];
        if (!*first)
            *first = per_device[i];
        /* "CL_INVALID_KERNEL_DEFINITION if the function definition for
         * __kernel function given by kernel_name such as the number of
         * arguments, the argument types are not the same for all devices
         * for which the program executable has been built." */
        if (per_device[i] && !same_definition(*first, per_device[i]))
            return REFCL_FAIL(CL_INVALID_KERNEL_DEFINITION, "kernel %.64s "
                              "differs between the executables of devices "
                              "0 and %u", name, i);
    }
    if (*first && lacking)
        return REFCL_FAIL(CL_INVALID_KERNEL_DEFINITION, "kernel %.64s is "
                          "missing from some device's executable", name);
    return *first ? supported_check(*first) : CL_SUCCESS;
}

cl_int refcl_compiled_find(const struct _cl_program *program,
                           const char *name, struct refcl_compiled **out)
{
    if (!refcl_compiled_built(program))
        return REFCL_FAIL(CL_INVALID_PROGRAM_EXECUTABLE, "\"if there is no "
                          "successfully built executable for program\"");
    const struct refcl_abi_kernel **per_device =
        malloc(program->num_devices * sizeof(*per_device));
    if (!per_device)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the kernel");
    const struct refcl_abi_kernel *first = NULL;
    cl_int status = entries_find(program, name, per_device, &first);
    if (status == CL_SUCCESS && !first)
        status = REFCL_FAIL(CL_INVALID_KERNEL_NAME, "kernel_name \"%.64s\": "
                            "\"if kernel_name is not found in program\"",
                            name);
    if (status == CL_SUCCESS) {
        *out = compiled_make(program, first, per_device);
        if (!*out)
            status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                                "kernel");
    }
    free(per_device);
    return status;
}

size_t refcl_compiled_listed(const struct _cl_program *program,
                             const struct refcl_abi_kernel **kernels)
{
    *kernels = NULL;
    for (cl_uint i = 0; i < program->num_devices; i++) {
        size_t count = device_kernels(program, i, kernels);
        if (*kernels)
            return count;
    }
    return 0;
}

const struct refcl_abi_kernel *
refcl_compiled_on(const struct refcl_compiled *compiled,
                  const struct _cl_program *program,
                  const struct _cl_device_id *device)
{
    for (const struct refcl_object *d = device ? &device->obj : NULL; d;
         d = d->parent) {
        long i = refcl_program_device_index(program,
                                            (const struct _cl_device_id *)d);
        /* "If a program binary has not been built for a sub-device, the
         * program binary associated with the parent device will be
         * used." */
        if (i >= 0 && compiled->per_device[i])
            return compiled->per_device[i];
    }
    return NULL;
}
