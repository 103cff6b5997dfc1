/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's program objects: a program holds the source or the binaries it
 * was created with and a record of each device's last build (with its
 * executable, loaded, when it has one), or built-in kernels
 * (refcl/kernel.h), which are built from the start. Without the compiler
 * (refcl/toolchain.h) builds from source are refused.
 */
#ifndef REFCL_PROGRAM_H
#define REFCL_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refcl/compiler.h"
#include "refcl/spirv.h"
#include "refcl/object.h"

struct refcl_kernel_desc; /* refcl/kernel.h */

/** The build options of an executable that change how its kernels run. */
struct refcl_run_options {
    bool uniform_work_groups; /**< -cl-uniform-work-group-size, or an
                                   OpenCL C 1.x build (non-uniform
                                   work-groups are an OpenCL C 2.0 feature) */
    bool arg_info;            /**< -cl-kernel-arg-info, from source */
};

/** The last build, compile or link of a program for one device, or the
 *  binary it was created with. */
struct refcl_build {
    cl_build_status status;   /**< CL_BUILD_NONE, _SUCCESS or _ERROR */
    char *log;                /**< owned; NULL while CL_BUILD_NONE */
    char *options;            /**< owned; NULL while CL_BUILD_NONE */
    cl_program_binary_type binary_type; /**< of `binary` */
    /** The shared object (executable), or bitcode (compiled object,
     *  library); owned. Empty with CL_PROGRAM_BINARY_TYPE_NONE. */
    struct refcl_blob binary;
    struct refcl_executable *executable; /**< the loaded binary, or NULL */
    struct refcl_run_options run;        /**< of the executable */
};

/** Forgets everything @p build holds (back to CL_BUILD_NONE). */
void refcl_build_clear(struct refcl_build *build);

struct _cl_program {
    struct refcl_object obj;     /**< obj.parent: the context */
    struct _cl_context *context; /**< retained */
    /** CL_PROGRAM_DEVICES: from source, "the devices associated with
     *  context" (the context's array); with built-in kernels, "the list of
     *  devices specified by device_list" (owned, duplicates dropped). */
    cl_uint num_devices;
    cl_device_id *devices;
    char *source;                /**< CL_PROGRAM_SOURCE, NUL-terminated */
    bool from_binary;            /**< clCreateProgramWithBinary's */
    struct refcl_blob il;        /**< CL_PROGRAM_IL: clCreateProgramWithIL's
                                      SPIR-V (owned), else empty */
    bool linked;                 /**< clLinkProgram's: nothing to build */
    /** clSetProgramSpecializationConstant's values, one per SpecId
     *  (owned); guarded by build_lock. */
    struct refcl_spec_value *spec_values;
    size_t spec_count;
    size_t source_size;          /**< bytes, NUL included */
    pthread_mutex_t build_lock;  /**< guards builds */
    struct refcl_build *builds;  /**< one per device of the program */
    /** Built-in kernels, in the order kernel_names gave them (owned);
     *  NULL for a program from source. */
    const struct refcl_kernel_desc **kernels;
    size_t kernel_count;
    char *kernel_names;          /**< CL_PROGRAM_KERNEL_NAMES, owned */
    /** Kernel objects made from the program and not yet destroyed:
     *  "clBuildProgram and clCompileProgram return CL_INVALID_OPERATION if
     *  there are kernel objects attached to a program object". */
    atomic_uint kernels_attached;
};
REFCL_OBJECT_LAYOUT(REFCL_PROGRAM, struct _cl_program);


/**
 * The (num_devices, device_list) pair of program calls: CL_INVALID_VALUE
 * "if device_list is NULL and num_devices is greater than zero, or if
 * device_list is not NULL and num_devices is zero"; with @p required, also
 * "if device_list is NULL or num_devices is zero".
 */
cl_int refcl_device_list_shape(cl_uint num_devices,
                               const cl_device_id *device_list,
                               bool required);

/** CL_INVALID_DEVICE "if any device in device_list is not in the list of
 *  devices associated with" @p context, else CL_SUCCESS. */
cl_int refcl_device_list_members(const struct _cl_context *context,
                                 cl_uint num_devices,
                                 const cl_device_id *device_list);

/** The index of @p device in @p program's devices, or -1. */
long refcl_program_device_index(const struct _cl_program *program,
                                const struct _cl_device_id *device);

/** True for a program of built-in kernels: built from the start, with no
 *  source to build. */
static inline bool refcl_program_builtin(const struct _cl_program *program)
{
    return program->kernels != NULL;
}

/** True if @p program has an executable for @p device: a program of
 *  built-in kernels, or a built one, for the device or one of its
 *  ancestors ("If a program
 *  binary has not been built for a sub-device, the program binary
 *  associated with the parent device will be used"). */
bool refcl_program_runs_on(const struct _cl_program *program,
                           const struct _cl_device_id *device);

/* ---- what the kernel layer asks of a program built from source ---- */

struct refcl_abi_kernel; /* refcl/kernel_abi.h */

/**
 * The kernels of the executable built for the program's device
 * @p device_index (an index into program->devices), in the order of the
 * executable's table, through @p kernels; 0 and NULL when that device has
 * no executable (never built, failed, or only compiled). The table lives
 * until the program is destroyed or built again, which the kernels
 * attached to it forbid.
 */
size_t refcl_program_executable_kernels(const struct _cl_program *program,
                                        cl_uint device_index,
                                        const struct refcl_abi_kernel **kernels);

/** The run options of device @p device_index's executable. */
struct refcl_run_options refcl_program_run_options(
    const struct _cl_program *program, cl_uint device_index);

/**
 * A new program of @p context for @p num_devices devices of
 * @p device_list (0 and NULL: the context's), every build CL_BUILD_NONE,
 * with an empty source (clLinkProgram's). NULL when out of memory.
 */
struct _cl_program *refcl_program_new(struct _cl_context *context,
                                      cl_uint num_devices,
                                      const cl_device_id *device_list);

/** Releases one reference on @p program (kernels let go of theirs). */
void refcl_program_release(struct _cl_program *program);

#endif /* REFCL_PROGRAM_H */
