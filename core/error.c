/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reasons behind REFCL_FAIL (refcl/error.h): one per thread, kept only
 * while the trace is on. Nothing here is on a successful call's path.
 */
#include "refcl/error.h"

#include <stdarg.h>
#include <stdio.h>

atomic_bool refcl_reasons_on;

static _Thread_local struct refcl_reason last = {CL_SUCCESS, -1, NULL, ""};

void refcl_reasons_enable(bool on)
{
    atomic_store_explicit(&refcl_reasons_on, on, memory_order_relaxed);
}

cl_int refcl_reason_note(cl_int code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last.text, sizeof(last.text), format, args);
    va_end(args);
    last.code = code;
    last.handle_type = -1;
    last.handle = NULL;
    return code;
}

cl_int refcl_reason_handle(cl_int code, int handle_type, const void *handle,
                           const char *what)
{
    if (!atomic_load_explicit(&refcl_reasons_on, memory_order_relaxed))
        return code;
    snprintf(last.text, sizeof(last.text), "%s", what);
    last.code = code;
    last.handle_type = handle_type;
    last.handle = handle;
    return code;
}

void refcl_reason_clear(void)
{
    last.code = CL_SUCCESS;
}

const struct refcl_reason *refcl_reason_last(void)
{
    return last.code != CL_SUCCESS ? &last : NULL;
}

const struct refcl_reason *refcl_reason_for(cl_int code)
{
    return code != CL_SUCCESS && last.code == code ? &last : NULL;
}
