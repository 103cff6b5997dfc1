/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The execution layer (exec/): what a kernel is and how it runs. A kernel
 * is described by one struct refcl_kernel_desc, built-in (exec/builtin.c,
 * exec/args64.c, written in C; docs/built-in-kernels.md) or compiled (its
 * executable's table, refcl/kernel_abi.h); an ND-range command
 * (struct refcl_launch) runs it over its range, cut into pieces for the
 * compute units of the queue's device (exec/ndrange.c, docs/kernels.md),
 * catching a compiled kernel's faults (exec/fault.c) and formatting its
 * printf records (exec/printf.c). Native kernels (exec/native.c) run here
 * too. The kernel objects and the checks of an enqueue are above, in
 * kernel/.
 */
#ifndef REFCL_EXEC_H
#define REFCL_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "refcl/device.h"
#include "refcl/event.h"
#include "refcl/object.h"

/** What kind of value an argument takes. */
enum refcl_arg_kind {
    REFCL_ARG_SCALAR,   /**< by value, `size` bytes: a scalar, a vector or
                             a struct */
    REFCL_ARG_GLOBAL,   /**< __global pointer: a buffer or an SVM pointer */
    REFCL_ARG_CONSTANT, /**< __constant pointer: likewise, read only */
    REFCL_ARG_LOCAL,    /**< __local pointer: only its size is given */
    REFCL_ARG_IMAGE,    /**< an image: `size` is that of the struct
                             refcl_abi_image its value points to */
    REFCL_ARG_SAMPLER,  /**< sampler_t: its REFCL_ABI_SAMPLER_* bits */
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
struct refcl_arg_desc {
    const char *name;                       /**< CL_KERNEL_ARG_NAME */
    const char *type_name;                  /**< CL_KERNEL_ARG_TYPE_NAME */
    enum refcl_arg_kind kind;
    cl_kernel_arg_type_qualifier qualifier; /**< CL_KERNEL_ARG_TYPE_QUALIFIER */
    size_t size;         /**< a scalar's size; a pointer's element size */
    enum refcl_arg_extent extent;
    size_t table;        /**< REFCL_EXTENT_TABLE: elements */
    /** CL_KERNEL_ARG_ACCESS_QUALIFIER of an image: read_only, write_only
     *  or read_write; 0 for every other argument (CL_KERNEL_ARG_ACCESS_NONE
     *  is reported then). */
    cl_kernel_arg_access_qualifier access;
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

/** What a kernel is, whatever made it: a built-in one (`items` or
 *  `group`), or one of a program built from source (neither: made by
 *  refcl_compiled_find, run through its executable's table). */
struct refcl_kernel_desc {
    const char *name;
    cl_uint num_args;
    const struct refcl_arg_desc *args;
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
extern const struct refcl_kernel_desc *const refcl_builtins[];
extern const size_t refcl_builtin_count;

/** refcl_args64 (exec/args64.c), last in refcl_builtins. */
extern const struct refcl_kernel_desc refcl_builtin_args64;

/** The built-in kernel called @p name (@p length characters), or NULL. */
const struct refcl_kernel_desc *refcl_builtin_find(const char *name,
                                               size_t length);

/** CL_DEVICE_BUILT_IN_KERNELS: the names, separated by ';'. */
const char *refcl_builtin_names(void);

/** CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION; @p count gets the entries. */
const cl_name_version *refcl_builtin_versions(size_t *count);

/** True if the value of an argument described by @p desc fits its union
 *  (pointers, __local sizes, by-value arguments of up to 8 bytes). */
static inline bool refcl_arg_inline(const struct refcl_arg_desc *desc)
{
    bool copied = desc->kind == REFCL_ARG_SCALAR ||
                  desc->kind == REFCL_ARG_IMAGE;
    return !copied || desc->size <= sizeof(union refcl_arg_value);
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

/* What kernels ask of memory objects beyond refcl/memory.h
 * (exec/memory.c). */

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

/** A fault caught in compiled code: the signal and the address it names. */
struct refcl_kernel_fault {
    int signal;    /**< SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP or SIGSYS */
    void *address; /**< siginfo's si_addr: the memory or the instruction */
};

/* ---- an ND-range command (exec/ndrange.c) ------------------------------ */

struct refcl_abi_kernel; /* refcl/kernel_abi.h */
struct refcl_abi_printf;
struct _cl_mem;

/**
 * A kernel-instance ready to run: the kernel's description, the range, a
 * snapshot of the argument values, the buffers it holds. One allocation
 * (refcl_launch_alloc) holds it, an entry per argument and the copies of
 * by-value arguments over 8 bytes.
 */
struct refcl_launch {
    const struct refcl_kernel_desc *desc;
    /** A compiled kernel: its entry in the executable of the device. */
    const struct refcl_abi_kernel *compiled;
    struct refcl_ndrange range;
    /* One entry per argument of the kernel, after the command itself. */
    union refcl_arg_value *args; /**< as the code sees them */
    struct _cl_mem **held;       /**< buffers held, or NULL */
    size_t *local_at;            /**< __local: scratch offset */
    size_t scratch;       /**< __local bytes of one work-group */
    size_t work;          /**< items (element-wise) or work-groups */
    size_t per_piece;     /**< of work */
    size_t pieces;
    atomic_bool out_of_memory; /**< a piece could not get its scratch */
    atomic_bool faulted;       /**< a compiled work-group faulted */
    struct refcl_kernel_fault fault; /**< the first fault, once faulted */
    size_t fault_group;        /**< the work-group it was in */
    /** Its work-items' printf records, if the kernel calls printf. */
    struct refcl_abi_printf *printf_buffer;
    /** What keeps desc and compiled alive (the kernel, held), and how to
     *  let go of it: the layer above owns it. */
    struct refcl_object *owner;
    void (*owner_release)(struct refcl_object *owner);
};

/** A zeroed command for a kernel described by @p desc, its argument
 *  entries in place, or NULL when out of memory. */
struct refcl_launch *refcl_launch_alloc(const struct refcl_kernel_desc *desc);

/** Frees @p launch, letting go of its buffers, its owner and its printf
 *  buffer (what is set of them). */
void refcl_launch_free(struct refcl_launch *launch);

/** The bytes of a compiled kernel's own __local variables, rounded up so
 *  that what follows them stays aligned; 0 for a built-in kernel. */
size_t refcl_launch_kernel_local_bytes(const struct refcl_launch *launch);

/** Whether one work-group of @p launch is worth handing to a thread: a
 *  compiled kernel whose work-items run loops of their own
 *  (refcl-jam-items took its work-item loop). Others are handed out
 *  16384 work-items at a time at least. */
bool refcl_launch_group_per_piece(const struct refcl_launch *launch);

/** Cuts the work into pieces for the compute units of @p device. */
void refcl_launch_plan(struct refcl_launch *launch,
                       const struct _cl_device_id *device);

/** The command ops of a launch (its payload): run it over the device of
 *  the queue, then free it. */
extern const struct refcl_command_ops refcl_launch_ops;

/* ---- printf of compiled kernels (exec/printf.c) -------------------- */

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

/* ---- faults in compiled code (exec/fault.c) -------------------------- */

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

/** The name of caught signal @p sig ("SIGSEGV", "SIGILL" ...). */
const char *refcl_fault_signal_name(int sig);

#endif /* REFCL_EXEC_H */
