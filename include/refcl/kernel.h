/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel objects (kernel/): a kernel of a program, its arguments as
 * clSetKernelArg* left them, the kernels of programs built from source
 * found in their executables (kernel/compiled.c), and what enqueueing one
 * asks of memory objects. What a kernel is and how it runs, built-in or
 * compiled, is the execution layer's (refcl/exec.h, exec/).
 */
#ifndef REFCL_KERNEL_H
#define REFCL_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "refcl/exec.h"
#include "refcl/memory.h"
#include "refcl/object.h"

/** An argument's value as clSetKernelArg* left it. */
struct refcl_kernel_arg {
    bool set;
    bool svm;               /**< set by clSetKernelArgSVMPointer */
    struct _cl_mem *mem;    /**< a buffer, not retained (the spec forbids
                                 it), or NULL */
    size_t local_size;      /**< __local: bytes */
    /** By value: the bytes (over 8: `ptr` to the kernel's copy, placed
     *  when the kernel is made); SVM pointers. */
    union refcl_arg_value value;
};

struct _cl_kernel {
    struct refcl_object obj;         /**< obj.parent: the program */
    struct _cl_program *program;     /**< retained */
    struct _cl_context *context;     /**< the program's */
    /** What the kernel is: a built-in kernel, or compiled->desc. */
    const struct refcl_kernel_desc *desc;
    /** A kernel of a program built from source (owned), else NULL. */
    struct refcl_compiled *compiled;
    /** desc->num_args entries, then the copies of by-value arguments
     *  over 8 bytes: one allocation, owned, sized by the kernel's
     *  arguments (NULL for a kernel without any). */
    struct refcl_kernel_arg *args;
    /** CL_KERNEL_EXEC_INFO_SVM_PTRS: owned copy, or NULL. */
    void **svm_ptrs;
    size_t svm_ptr_count;
    cl_bool svm_fine_grain_system;   /**< CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM */
};
REFCL_OBJECT_LAYOUT(REFCL_KERNEL, struct _cl_kernel);

/**
 * Creates a kernel of @p program described by @p desc, holding the
 * program; with @p compiled (desc == &compiled->desc), a compiled kernel
 * that takes ownership of it, also when it fails.
 * @return the kernel with refcount 1, or NULL when out of memory.
 */
struct _cl_kernel *refcl_kernel_create(struct _cl_program *program,
                                       const struct refcl_kernel_desc *desc,
                                       struct refcl_compiled *compiled);

/** Releases one reference on @p kernel (a command lets go of its). */
void refcl_kernel_release(struct _cl_kernel *kernel);

/* ---- kernels of programs built from source (kernel/compiled.c) ------ */

struct refcl_abi_kernel; /* refcl/kernel_abi.h */

/** A kernel of a program built from source: its description, made from
 *  the executables' tables, and its entry in each of them. One
 *  allocation: the arguments' descriptions and the table follow it. */
struct refcl_compiled {
    struct refcl_kernel_desc desc;
    /** Per device of the program (program->num_devices entries): the
     *  kernel in that device's executable, or NULL where it has none. */
    const struct refcl_abi_kernel **per_device;
};

/** True if some device of @p program (from source) has an executable. */
bool refcl_compiled_built(const struct _cl_program *program);

/**
 * The kernel called @p name in the executables of @p program, through
 * @p out (to free with free()). CL_INVALID_PROGRAM_EXECUTABLE if no
 * device has an executable, CL_INVALID_KERNEL_NAME if none has the kernel,
 * CL_INVALID_KERNEL_DEFINITION if their definitions differ or if it takes
 * an image, a sampler or a pipe, CL_OUT_OF_HOST_MEMORY.
 */
cl_int refcl_compiled_find(const struct _cl_program *program,
                           const char *name, struct refcl_compiled **out);

/** The kernels of @p program's first executable, in the order of its
 *  table (clCreateKernelsInProgram's), through @p kernels; their count. */
size_t refcl_compiled_listed(const struct _cl_program *program,
                             const struct refcl_abi_kernel **kernels);

/** @p compiled's entry in the executable that runs on @p device (the
 *  program's executable for it or, failing that, for its nearest
 *  ancestor), or NULL if none does. */
const struct refcl_abi_kernel *
refcl_compiled_on(const struct refcl_compiled *compiled,
                  const struct _cl_program *program,
                  const struct _cl_device_id *device);

/** The largest work-group a compiled kernel runs without a local size
 *  given: with barriers, its values that live across them stay in cache;
 *  without, the pass's loop over x has long vectors to fill. */
#define REFCL_COMPILED_BARRIER_GROUP 256u

/** The work-items a compiled kernel's loop over x takes at a time, when
 *  the loop vectorizer, not refcl-jam-items, vectorizes it: 16, AVX-512's
 *  floats, fill any host's vectors. */
#define REFCL_COMPILED_STEP_DEFAULT 16u

#endif /* REFCL_KERNEL_H */
