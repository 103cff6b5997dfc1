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

#include "refcl/compat.h"

/**
 * Returns @p size bytes at @p value through the OpenCL info-query outputs.
 * Outputs are left untouched on error.
 */
cl_int refcl_info_return(const void *value, size_t size,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret);

/** refcl_info_return for a NUL-terminated string (size includes the NUL). */
cl_int refcl_info_string(const char *value, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret);

/**
 * Writes the names of @p count entries of @p list into @p buf, separated by
 * single spaces (the form of CL_*_EXTENSIONS), truncating to @p size - 1.
 */
void refcl_names_join(const cl_name_version *list, size_t count, char *buf,
                      size_t size);

#endif /* REFCL_INFO_H */
