/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one info-return helper behind every clGet*Info entry point.
 *
 * Each query is a switch that picks (value, size); this helper then applies
 * the spec's two-call rule once: CL_INVALID_VALUE "if size in bytes
 * specified by param_value_size is < size of return type ... and
 * param_value is not a NULL value"; otherwise copy and report the size.
 */
#ifndef REFCL_INFO_H
#define REFCL_INFO_H

#include <stddef.h>
#include <string.h>

#include "refcl/compat.h"
#include "refcl/error.h"

/**
 * refcl_info_return's copy, inline: the 4- and 8-byte answers (cl_uint,
 * cl_ulong, size_t, handles) take one move, others of up to 32 bytes (most
 * strings) two moves of 8 or 16 bytes, overlapping, instead of a call to
 * memcpy. A size known at compile time keeps only its own branch.
 */
static inline void refcl_info_copy(void *to, const void *from, size_t size)
{
    char *d = to;
    const char *s = from;
    if (size == 4) {
        memcpy(d, s, 4);
    } else if (size == 8) {
        memcpy(d, s, 8);
    } else if (size < 8 || size > 32) {
        if (size)
            memcpy(d, s, size);
    } else if (size >= 16) {
        memcpy(d, s, 16);
        memcpy(d + size - 16, s + size - 16, 16);
    } else {
        memcpy(d, s, 8);
        memcpy(d + size - 8, s + size - 8, 8);
    }
}

/**
 * Returns @p size bytes at @p value through the OpenCL info-query outputs.
 * Outputs are left untouched on error. A NULL @p value reports the size
 * and copies nothing (CL_PROGRAM_BINARIES when there is no binary).
 * Inline: most queries then make no call at all.
 */
static inline cl_int refcl_info_return(const void *value, size_t size,
                                       size_t param_value_size,
                                       void *param_value,
                                       size_t *param_value_size_ret)
{
    if (param_value) {
        if (param_value_size < size)
            return REFCL_FAIL(CL_INVALID_VALUE,
                              "param_value_size %zu < %zu: \"if size in bytes "
                              "specified by param_value_size is < size of "
                              "return type\"",
                              param_value_size, size);
        if (value)
            refcl_info_copy(param_value, value, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

/** refcl_info_return for a NUL-terminated string (size includes the NUL). */
static inline cl_int refcl_info_string(const char *value,
                                       size_t param_value_size,
                                       void *param_value,
                                       size_t *param_value_size_ret)
{
    return refcl_info_return(value, strlen(value) + 1, param_value_size,
                             param_value, param_value_size_ret);
}

/**
 * Writes the names of @p count entries of @p list into @p buf, separated by
 * single spaces (the form of CL_*_EXTENSIONS), truncating to @p size - 1.
 */
void refcl_names_join(const cl_name_version *list, size_t count, char *buf,
                      size_t size);

#endif /* REFCL_INFO_H */
