/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reasons behind REFCL_FAIL (refcl/error.h): the last one of each
 * thread. Nothing here is on a successful call's path.
 */
#include "refcl/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local struct refcl_reason last = {CL_SUCCESS, -1, NULL, ""};

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

void refcl_reason_restore(const struct refcl_reason *reason)
{
    last = *reason;
}
