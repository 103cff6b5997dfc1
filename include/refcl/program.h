/*
 * refcl's program objects. refcl has no compiler: a program holds the
 * source it was created with and the record of the builds it refused.
 */
#ifndef REFCL_PROGRAM_H
#define REFCL_PROGRAM_H

#include <pthread.h>

#include "refcl/object.h"

/** The last build or compile of a program for one device. */
struct refcl_build {
    cl_build_status status; /**< CL_BUILD_NONE, or CL_BUILD_ERROR */
    const char *log;        /**< static text; NULL while CL_BUILD_NONE */
    char *options;          /**< owned; NULL while CL_BUILD_NONE */
};

struct _cl_program {
    struct refcl_object obj;     /**< obj.parent: the context */
    /** Retained; "The devices associated with the program object are the
     *  devices associated with context." */
    struct _cl_context *context;
    char *source;                /**< CL_PROGRAM_SOURCE, NUL-terminated */
    size_t source_size;          /**< bytes, NUL included */
    pthread_mutex_t build_lock;  /**< guards builds */
    struct refcl_build *builds;  /**< one per device of the context */
};
REFCL_OBJECT_LAYOUT(struct _cl_program);

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

#endif /* REFCL_PROGRAM_H */
