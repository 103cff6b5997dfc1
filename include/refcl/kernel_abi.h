/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The contract between refcl's runtime and the code its compiler makes.
 *
 * A program executable is a shared object. The work-group pass
 * (compiler/pass/) gives each kernel K of it one function that runs a
 * whole work-group, and describes the program in one table, the symbol
 * REFCL_ABI_TABLE_SYMBOL, of type struct refcl_abi_program. The runtime
 * dlopens the object, checks the table's version, and runs each
 * work-group through its kernel's `run` on one of the device's threads.
 *
 * Everything here is plain data of fixed layout (C on both sides: the pass
 * emits the same layout as LLVM IR constants), so that a change of layout
 * is a change of REFCL_ABI_VERSION, which the runtime refuses and the
 * build cache keys on.
 */
#ifndef REFCL_KERNEL_ABI_H
#define REFCL_KERNEL_ABI_H

#include <stdint.h>

/** Layout version of everything in this header. */
#define REFCL_ABI_VERSION 5u

/** The name of the program's table in the shared object. */
#define REFCL_ABI_TABLE_SYMBOL "refcl_program_table"

/**
 * One work-group as its code sees it, filled by the runtime before each
 * call of `run`. Work-item functions read it: for dimension d < dims,
 *   get_global_id(d)   = global_offset[d] + group_id[d] *
 *                        enqueued_local_size[d] + get_local_id(d)
 *   get_local_size(d)  = local_size[d] (the last group of a dimension may
 *                        be smaller than enqueued_local_size[d])
 * and every array holds its neutral value (0 for ids and offsets, 1 for
 * sizes and counts) at d >= dims, so that code reading them needs no
 * special case below 3.
 */
struct refcl_abi_group {
    uint32_t work_dim;                /**< get_work_dim() */
    /** Bytes of __local memory at local_mem: the kernel's own __local
     *  variables and then its __local arguments' memory, which is how
     *  to_local() and get_fence() tell a generic pointer to __local memory
     *  from others (at most CL_DEVICE_LOCAL_MEM_SIZE). */
    uint32_t local_bytes;
    uint64_t global_offset[3];        /**< get_global_offset(d) */
    uint64_t global_size[3];          /**< get_global_size(d) */
    uint64_t enqueued_local_size[3];  /**< get_enqueued_local_size(d) */
    uint64_t num_groups[3];           /**< get_num_groups(d) */
    uint64_t group_id[3];             /**< get_group_id(d) */
    uint64_t local_size[3];           /**< get_local_size(d), this group */
    /** The kernel's own __local variables (kernel-scope `__local`
     *  declarations): local_bytes of the kernel, aligned to
     *  REFCL_ABI_ALIGN, private to this work-group while it runs. */
    void *local_mem;
    /** Storage of the work-items' values that live across a barrier:
     *  frame_bytes of the kernel times the work-items of an enqueued
     *  group (a remainder group's are fewer),
     *  aligned to REFCL_ABI_ALIGN, private to this work-group while it
     *  runs; the compiled code chooses its layout (slot by slot across
     *  the work-items). NULL when frame_bytes is 0. */
    void *frames;
    /** The command's printf buffer, shared by all its work-groups; NULL
     *  unless the kernel's uses_printf (printf then returns -1). */
    struct refcl_abi_printf *printf_buffer;
};

/**
 * Where printf calls leave their records for the host to format when the
 * command's work is done. A call reserves its record's bytes with an
 * atomic add to `cursor`; a record fits if it ends at or before
 * `capacity`, and then it is written whole and printf returns 0. Else
 * printf returns -1, writes nothing, except that the one call whose
 * reservation straddles `capacity` writes a record size of 0 there: the
 * records that fit are a prefix of the buffer, and the host reads them up
 * to min(cursor, capacity) or a size of 0.
 */
struct refcl_abi_printf {
    unsigned char *base;     /**< REFCL_ABI_ALIGN-aligned */
    uint64_t capacity;       /**< bytes at base, a multiple of 8 */
    uint64_t cursor;         /**< bytes reserved (atomic, may pass
                                  capacity) */
};

/**
 * One printf record, 8-byte aligned, all its fields multiples of 8 bytes:
 *   u32 bytes      the whole record's size (0: the end, see above)
 *   u32 num_args   arguments that follow
 *   u64 format     the address of the format string, a literal of the
 *                  loaded executable
 * then per argument:
 *   u64 size       bytes of the value
 *   the value's bytes as the compiled code holds them (clang's variadic
 *   promotions: int for char and short, double for float and half
 *   scalars; vectors whole, their elements in order; a %s argument the
 *   address of a string literal, or 0 when it is none), padded to 8.
 * Which argument is what is the format's to say (the host parses it):
 * the record gives only sizes, which the host checks against what each
 * conversion reads.
 */
#define REFCL_ABI_PRINTF_HEADER 16u

/** The alignment of local_mem, frames and of every argument copy. */
#define REFCL_ABI_ALIGN 128u

/**
 * An argument's value, one 8-byte slot per argument, in argument order:
 * - a __global or __constant pointer: its address (NULL if set NULL);
 * - a __local pointer: the address of its own memory in the work-group's
 *   __local storage, as large as clSetKernelArg asked;
 * - a value of at most 8 bytes: its bytes, from the slot's first byte;
 * - a larger value (a vector, a struct): the address of a copy of it,
 *   aligned as refcl_arg_align (refcl/kernel.h) says;
 * - an image: the address of its struct refcl_abi_image, valid while the
 *   command runs;
 * - a sampler: its REFCL_ABI_SAMPLER_* bits (the value OpenCL C's
 *   CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_* and CLK_FILTER_* constants
 *   give it), zero-extended; compiled code sees a sampler_t whose address
 *   is that number.
 * It is the runtime's union refcl_arg_value, seen as bytes.
 */
typedef uint64_t refcl_abi_slot;

/** Runs work-group @p group of one kernel with @p args. */
typedef void refcl_abi_run(const refcl_abi_slot *args,
                           const struct refcl_abi_group *group);

/** What an argument is, which decides how its slot is filled. */
enum refcl_abi_arg_kind {
    REFCL_ABI_ARG_VALUE = 0,    /**< by value: `size` bytes */
    REFCL_ABI_ARG_GLOBAL = 1,   /**< __global pointer */
    REFCL_ABI_ARG_CONSTANT = 2, /**< __constant pointer */
    REFCL_ABI_ARG_LOCAL = 3,    /**< __local pointer */
    REFCL_ABI_ARG_IMAGE = 4,    /**< an image: `access` says read_only,
                                     write_only or read_write, `type_name`
                                     its type ("image2d_t") */
    REFCL_ABI_ARG_SAMPLER = 5,  /**< sampler_t */
    REFCL_ABI_ARG_UNSUPPORTED = 6 /**< a pipe: the kernel cannot be
                                       created */
};

/**
 * An image as compiled code reads and writes it: the argument slot of an
 * image holds the address of one, which the runtime fills at enqueue.
 * The texel at (x, y, z) of a 3D image, at (x, y) of layer z of a 2D array
 * and at x of layer y of a 1D array starts at
 *   data + x * element_size + y * row_pitch + z * slice_pitch
 * (for a 1D array the layer is at y * slice_pitch: its slice_pitch is the
 * bytes of one layer and row_pitch equals it). Its channels are stored in
 * the order channel_order names them (CL_BGRA: blue first), each of
 * channel_data_type, packed formats (CL_UNORM_SHORT_565, ...) as one
 * integer whose most significant field is the first channel.
 * width, height, depth and array_size are each at least 1 and below 2^31.
 * Kernels never write a descriptor (compiled code relies on it).
 */
struct refcl_abi_image {
    unsigned char *data;        /**< the texel at (0, 0, 0) */
    uint64_t row_pitch;         /**< bytes from a row to the next */
    uint64_t slice_pitch;       /**< bytes from a slice or layer to the
                                     next (0 for 1D and 2D images) */
    uint32_t width;             /**< texels */
    uint32_t height;            /**< rows; 1 for 1D images and arrays */
    uint32_t depth;             /**< slices; 1 unless 3D */
    uint32_t array_size;        /**< layers; 1 unless an array */
    uint32_t channel_data_type; /**< CL_UNORM_INT8 ... (= CLK_ values) */
    uint32_t channel_order;     /**< CL_RGBA ... (= CLK_ values) */
    uint32_t element_size;      /**< bytes of one texel */
    uint32_t num_channels;      /**< channels the order names (CL_RGBx:
                                     4, CL_sRGBx: 4, CL_DEPTH: 1) */
    uint32_t type;              /**< CL_MEM_OBJECT_IMAGE2D ... */
    uint32_t reserved;          /**< 0 */
};

/** A sampler's bits (the argument slot; the values of OpenCL C's CLK_
 *  constants): normalized coordinates, one addressing mode, one filter. */
#define REFCL_ABI_SAMPLER_NORMALIZED 0x1u
#define REFCL_ABI_SAMPLER_ADDRESS_NONE 0x0u
#define REFCL_ABI_SAMPLER_CLAMP_TO_EDGE 0x2u
#define REFCL_ABI_SAMPLER_CLAMP 0x4u
#define REFCL_ABI_SAMPLER_REPEAT 0x6u
#define REFCL_ABI_SAMPLER_MIRRORED_REPEAT 0x8u
#define REFCL_ABI_SAMPLER_ADDRESS_MASK 0xEu
#define REFCL_ABI_SAMPLER_NEAREST 0x10u
#define REFCL_ABI_SAMPLER_LINEAR 0x20u
#define REFCL_ABI_SAMPLER_FILTER_MASK 0x30u

/** One argument of a kernel, and what clGetKernelArgInfo reports. */
struct refcl_abi_arg {
    uint32_t kind;           /**< enum refcl_abi_arg_kind */
    uint32_t size;           /**< by value: bytes (sizeof the type, a
                                  3-vector counts 4); pointers: 8 */
    uint32_t align;          /**< by value: the type's alignment; pointers:
                                  the pointee's (1 for void) */
    uint32_t access;         /**< CL_KERNEL_ARG_ACCESS_* */
    uint64_t type_qualifier; /**< CL_KERNEL_ARG_TYPE_* bits */
    const char *type_name;   /**< CL_KERNEL_ARG_TYPE_NAME, e.g. "float4*" */
    /** CL_KERNEL_ARG_NAME, or NULL when built without
     *  -cl-kernel-arg-info. */
    const char *name;
};

/** One kernel of the program. */
struct refcl_abi_kernel {
    const char *name;
    refcl_abi_run *run;
    uint32_t num_args;
    uint32_t has_barrier;          /**< 1 if any work-item may wait at a
                                        barrier */
    const struct refcl_abi_arg *args;
    uint64_t local_bytes;          /**< kernel-scope __local variables */
    uint64_t frame_bytes;          /**< per work-item, a multiple of
                                        REFCL_ABI_ALIGN; 0 without barrier */
    uint64_t private_bytes;        /**< CL_KERNEL_PRIVATE_MEM_SIZE */
    uint32_t reqd_work_group_size[3]; /**< all 0 if not given */
    uint32_t work_group_size_hint[3]; /**< all 0 if not given */
    const char *vec_type_hint;     /**< "float4", or NULL if not given */
    /** CL_KERNEL_ATTRIBUTES: the attributes as the source spelled them,
     *  separated by spaces ("" if none). */
    const char *attributes;
    uint32_t uses_printf;          /**< 1 if a work-item may call printf:
                                        the runtime gives the command a
                                        printf buffer */
    /** Work-items per sub-group: runs of this many consecutive local
     *  linear ids, the group's last sub-group possibly shorter (4, 8 or
     *  16: the 32-bit lanes of the CPU the kernel was compiled for). */
    uint32_t sub_group_size;
    /** Work-items the work-item loop runs at a time, their operations
     *  side by side in vector registers (refcl-jam-items): the kernel's
     *  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; 0 where the loop
     *  vectorizer has the loop (16: AVX-512's floats fill any host's). */
    uint32_t work_items_per_step;
};

/** The table of a program executable. */
struct refcl_abi_program {
    uint32_t version;              /**< REFCL_ABI_VERSION */
    uint32_t num_kernels;
    const struct refcl_abi_kernel *kernels;
    /** CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: bytes of the
     *  program-scope __global variables. */
    uint64_t global_variable_bytes;
};

#endif /* REFCL_KERNEL_ABI_H */
