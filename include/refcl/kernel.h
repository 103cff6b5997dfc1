/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's kernels: the built-in kernels of kernel/builtin.c and
 * kernel/args64.c, written in C against the descriptions below
 * (docs/built-in-kernels.md), and the kernels of programs built from
 * source (kernel/compiled.c), whose executables describe them in the
 * terms of refcl/kernel_abi.h. Both kinds are described by one
 * struct refcl_builtin and run over an ND-range by kernel/ndrange.c
 * (docs/kernels.md).
 */
#ifndef REFCL_KERNEL_H
#define REFCL_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "refcl/memory.h"
#include "refcl/object.h"

/** What kind of value an argument takes. */
enum refcl_arg_kind {
    REFCL_ARG_SCALAR,   /**< by value, `size` bytes: a scalar, a vector or
                             a struct */
    REFCL_ARG_GLOBAL,   /**< __global pointer: a buffer or an SVM pointer */
    REFCL_ARG_CONSTANT, /**< __constant pointer: likewise, read only */
    REFCL_ARG_LOCAL,    /**< __local pointer: only its size is given */
};

/**
 * How many elements of a pointer argument one ND-range reaches: what
 * clEnqueueNDRangeKernel checks against the buffer (or SVM allocation) the
 * argument points to, so that no work-item reads or writes outside it.
 */
enum refcl_arg_extent {
    REFCL_EXTENT_NONE,        /**< a scalar */
    REFCL_EXTENT_ITEMS,       /**< one per work-item index (refcl_ndrange) */
    REFCL_EXTENT_GROUPS,      /**< one per work-group */
    REFCL_EXTENT_TABLE,       /**< `table` elements, whatever the range */
    REFCL_EXTENT_GROUP_ITEMS, /**< __local: one per work-item of a group */
};

/** One argument of a kernel, as clGetKernelArgInfo reports it. A
 *  compiled kernel's pointers have no known extent (REFCL_EXTENT_NONE)
 *  and, as `size`, the alignment of what they point to; its `name` is NULL
 *  when built without -cl-kernel-arg-info. */
struct refcl_builtin_arg {
    const char *name;                       /**< CL_KERNEL_ARG_NAME */
    const char *type_name;                  /**< CL_KERNEL_ARG_TYPE_NAME */
    enum refcl_arg_kind kind;
    cl_kernel_arg_type_qualifier qualifier; /**< CL_KERNEL_ARG_TYPE_QUALIFIER */
    size_t size;         /**< a scalar's size; a pointer's element size */
    enum refcl_arg_extent extent;
    size_t table;        /**< REFCL_EXTENT_TABLE: elements */
};

/** An argument's value as the kernel's code sees it: one per argument,
 *  whatever their number. A by-value argument of more than 8 bytes (a
 *  vector, a struct) is reached through `ptr`: a copy of its bytes,
 *  aligned by refcl_arg_align, that lives as long as the code runs. */
union refcl_arg_value {
    void *ptr;          /**< pointers: host address (NULL if set NULL);
                             by-value arguments over 8 bytes: their copy */
    cl_uchar u8;
    cl_uint u32;
    cl_ulong u64;
    cl_float f32;
    unsigned char bytes[8];
};

/**
 * An ND-range as the kernels see it. Elements are addressed in row-major
 * order over the extent offset + size of each dimension: the work-item
 * with global id (x, y, z) has the element index
 * x + e0 * (y + e1 * z), where ei = offset[i] + global[i]. In one
 * dimension that is get_global_id(0).
 */
struct refcl_ndrange {
    cl_uint dims;
    size_t offset[3];
    size_t global[3];
    size_t local[3];   /**< the work-group size (the last may be smaller) */
    size_t groups[3];  /**< work-groups in each dimension */
    size_t extent[3];  /**< offset + global */
};

/** One work-group of an ND-range, for kernels that work by group. */
struct refcl_group {
    const struct refcl_ndrange *range;
    size_t id;          /**< linear group id: g0 + n0 * (g1 + n1 * g2) */
    size_t origin[3];   /**< global id of its first work-item */
    size_t size[3];     /**< its work-items in each dimension */
};

/** A kernel: a built-in one (`items` or `group`), or one of a program
 *  built from source (neither: made by refcl_compiled_find). */
struct refcl_builtin {
    const char *name;
    cl_uint num_args;
    const struct refcl_builtin_arg *args;
    /** An element-wise kernel, run over rows of elements regardless of
     *  work-groups (no barrier, no local memory: the grouping cannot be
     *  seen): elements [first, first + count) of one row. */
    void (*items)(const union refcl_arg_value *args, size_t first,
                  size_t count);
    /** A kernel with work-group semantics (NULL for element-wise ones):
     *  runs one whole work-group, __local arguments pointing to memory of
     *  its own. */
    void (*group)(const union refcl_arg_value *args,
                  const struct refcl_group *group);
};

/** The built-in kernels, in the order CL_DEVICE_BUILT_IN_KERNELS lists
 *  them. */
extern const struct refcl_builtin *const refcl_builtins[];
extern const size_t refcl_builtin_count;

/** refcl_args64 (kernel/args64.c), last in refcl_builtins. */
extern const struct refcl_builtin refcl_builtin_args64;

/** The built-in kernel called @p name (@p length characters), or NULL. */
const struct refcl_builtin *refcl_builtin_find(const char *name,
                                               size_t length);

/** CL_DEVICE_BUILT_IN_KERNELS: the names, separated by ';'. */
const char *refcl_builtin_names(void);

/** CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION; @p count gets the entries. */
const cl_name_version *refcl_builtin_versions(size_t *count);

/** True if the value of an argument described by @p desc fits its union
 *  (pointers, __local sizes, by-value arguments of up to 8 bytes). */
static inline bool refcl_arg_inline(const struct refcl_builtin_arg *desc)
{
    return desc->kind != REFCL_ARG_SCALAR ||
           desc->size <= sizeof(union refcl_arg_value);
}

/** The most alignment a by-value argument's copy gets: that of a vector
 *  of 16 elements of 8 bytes. */
#define REFCL_ARG_ALIGN_MAX ((size_t)128)

/** Alignment of the copy of a by-value argument of @p size bytes held
 *  outside its union: as OpenCL C aligns a vector of that size (the power
 *  of two at or above it), at most REFCL_ARG_ALIGN_MAX; a struct gets at
 *  least its own alignment that way. */
static inline size_t refcl_arg_align(size_t size)
{
    size_t align = 1;
    while (align < size && align < REFCL_ARG_ALIGN_MAX)
        align *= 2;
    return align;
}

/**
 * Places the copy of a by-value argument of @p size bytes at the next
 * offset from @p *at that its alignment allows, and moves @p *at past it.
 * Kernels and commands lay out arguments over 8 bytes so, in argument
 * order, from a start aligned to REFCL_ARG_ALIGN_MAX
 * (refcl_arg_copies_start).
 * @return the offset of the copy.
 */
static inline size_t refcl_arg_place(size_t *at, size_t size)
{
    size_t align = refcl_arg_align(size);
    size_t here = (*at + align - 1) / align * align;
    *at = here + size;
    return here;
}

/** Where copies laid out by refcl_arg_place start in a block whose first
 *  free byte is @p after: the next multiple of REFCL_ARG_ALIGN_MAX. A block
 *  from malloc saves the cost of aligned_alloc by holding
 *  REFCL_ARG_ALIGN_MAX - 1 bytes more than its copies. */
static inline unsigned char *refcl_arg_copies_start(unsigned char *after)
{
    uintptr_t at = (uintptr_t)after;
    return after + ((REFCL_ARG_ALIGN_MAX - at % REFCL_ARG_ALIGN_MAX) %
                    REFCL_ARG_ALIGN_MAX);
}

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
    const struct refcl_builtin *desc;
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
                                       const struct refcl_builtin *desc,
                                       struct refcl_compiled *compiled);

/** Releases one reference on @p kernel (a command lets go of its). */
void refcl_kernel_release(struct _cl_kernel *kernel);

/** The most work-items a work-group of a built-in kernel may have:
 *  CL_KERNEL_WORK_GROUP_SIZE, CL_DEVICE_MAX_WORK_GROUP_SIZE, and each of
 *  CL_DEVICE_MAX_WORK_ITEM_SIZES (a whole group may lie along any axis).
 *  Work-groups share host threads, so the bound is not the machine's:
 *  it keeps a reduction's local memory within a core's cache. */
#define REFCL_MAX_WORK_GROUP_SIZE 4096u

/** CL_DEVICE_EXECUTION_CAPABILITIES of every refcl device: built-in
 *  kernels, and native kernels (clEnqueueNativeKernel). */
#define REFCL_EXEC_CAPABILITIES (CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL)

/** CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: the spec's minimum, 64 KiB. */
#define REFCL_MAX_CONSTANT_BUFFER_SIZE (64u * 1024u)

/* What kernels ask of memory objects beyond refcl/memory.h
 * (kernel/memory.c). */

/** CL_SUCCESS if @p mem is a live buffer of @p context; else
 *  CL_INVALID_MEM_OBJECT (a buffer of another context included). */
cl_int refcl_kernel_buffer_check(const struct _cl_context *context,
                                 const struct _cl_mem *mem);

/** True if @p mem (checked) is a sub-buffer whose origin is not a
 *  multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
bool refcl_kernel_buffer_misaligned(const struct _cl_mem *mem);

/** True if a device of @p context supports SVM. */
bool refcl_kernel_svm_supported(const struct _cl_context *context);

/** Bytes from @p ptr to the end of the SVM allocation of @p context that
 *  holds it; with fine-grain system SVM, a pointer in no allocation
 *  reaches to the end of the address space (the application answers for
 *  it). */
size_t refcl_kernel_svm_room(const struct _cl_context *context,
                             const void *ptr);

/* ---- kernels of programs built from source (kernel/compiled.c) ------ */

struct refcl_abi_kernel; /* refcl/kernel_abi.h */

/** A kernel of a program built from source: its description, made from
 *  the executables' tables, and its entry in each of them. One
 *  allocation: the arguments' descriptions and the table follow it. */
struct refcl_compiled {
    struct refcl_builtin desc;
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

/* ---- printf of compiled kernels (kernel/printf.c) -------------------- */

/** CL_DEVICE_PRINTF_BUFFER_SIZE: the bytes of records each command of a
 *  kernel that calls printf gets ("1 MB" at least, full profile). */
#define REFCL_PRINTF_BUFFER_SIZE (1024u * 1024u)

struct refcl_abi_printf; /* refcl/kernel_abi.h */

/** An empty printf buffer of REFCL_PRINTF_BUFFER_SIZE bytes, or NULL when
 *  out of memory; freed with refcl_printf_free. */
struct refcl_abi_printf *refcl_printf_alloc(void);

void refcl_printf_free(struct refcl_abi_printf *buffer);

/** Formats @p buffer's records in their order onto @p out, then flushes
 *  it: what the work-items' printf calls said, once the command's work is
 *  done. A record that does not match its format never makes it read
 *  past the record. */
void refcl_printf_flush(const struct refcl_abi_printf *buffer, FILE *out);

/* ---- faults in compiled code (kernel/fault.c) ------------------------ */

/** A fault caught in compiled code: the signal and the address it names. */
struct refcl_kernel_fault {
    int signal;    /**< SIGSEGV, SIGBUS or SIGFPE */
    void *address; /**< siginfo's si_addr: the memory or the instruction */
};

/**
 * Runs @p body(@p arg) on the calling thread, catching SIGSEGV, SIGBUS and
 * SIGFPE raised while it runs: the body is left where it faulted (the
 * memory it allocated must be freed by the caller), @p fault says which
 * signal at which address, and the call returns false.
 * The handler is installed by the first call and chains to the one it
 * replaced for faults outside a body; each thread gets an alternate
 * signal stack of its own (a kernel that overflows its stack is caught).
 * @return true if the body returned.
 */
bool refcl_fault_catch(void (*body)(void *), void *arg,
                       struct refcl_kernel_fault *fault);

/** "SIGSEGV", "SIGBUS" or "SIGFPE" for @p sig. */
const char *refcl_fault_signal_name(int sig);

#endif /* REFCL_KERNEL_H */
