/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one error path: why a call failed (docs/tracing.md, "Reasons").
 *
 * Every failure refcl returns goes through REFCL_FAIL, which evaluates to
 * its code after formatting the reason, the rule in the spec's words and
 * the offending value, into a buffer of the calling thread (a cold
 * function: failures only). Two readers: the tracing twin of the entry
 * point clears that buffer before the call and prints it after a failed
 * result; the notifying twin (refcl/notify.h) hands it to the pfn_notify
 * of the call's context. A success costs nothing.
 *
 * The lowest layer: it calls nothing of refcl's; the entry boundary reads
 * it.
 */
#ifndef REFCL_ERROR_H
#define REFCL_ERROR_H

#include "refcl/compat.h"

/** Bytes of a reason, its NUL included; a longer one is cut. */
#define REFCL_REASON_SIZE 256

/** Why the last failure of the calling thread happened. */
struct refcl_reason {
    cl_int code;          /**< the code it explains; CL_SUCCESS: none */
    int handle_type;      /**< enum refcl_type of handle, or -1 */
    const void *handle;   /**< the handle refused, printed before text */
    char text[REFCL_REASON_SIZE];
};

/** Records @p code's reason, printf-style; returns @p code. Cold. */
cl_int refcl_reason_note(cl_int code, const char *format, ...)
    __attribute__((cold, noinline, format(printf, 2, 3)));

/** Records that @p handle, not a live object of @p handle_type (an enum
 *  refcl_type), made the call fail with @p code; returns @p code. Cold. */
cl_int refcl_reason_handle(cl_int code, int handle_type, const void *handle,
                           const char *what) __attribute__((cold, noinline));

/**
 * @p code, with its reason formatted from the printf-style arguments. One
 * expression: `return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if
 * param_name is not one of the supported values\"", param_name);`
 */
#define REFCL_FAIL(code, ...) refcl_reason_note((code), __VA_ARGS__)

/** Forgets the calling thread's reason (a traced call starts). */
void refcl_reason_clear(void);

/** The calling thread's reason since the last clear, or NULL. */
const struct refcl_reason *refcl_reason_last(void);

/** The calling thread's reason if it explains @p code, else NULL. */
const struct refcl_reason *refcl_reason_for(cl_int code);

/** Makes @p reason the calling thread's again (after a callback that may
 *  have called refcl). */
void refcl_reason_restore(const struct refcl_reason *reason);

#endif /* REFCL_ERROR_H */
