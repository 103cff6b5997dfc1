/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one error path: why a call failed (docs/tracing.md, "Reasons").
 *
 * Every failure refcl returns goes through REFCL_FAIL, which evaluates to
 * its code. Only while the trace is on does it also format the reason, the
 * rule in the spec's words and the offending value, into a buffer of the
 * calling thread; the tracing twin of the entry point clears that buffer
 * before the call and prints it after a failed result. With the trace off a
 * failure costs one load of a flag, and a success nothing.
 *
 * The lowest layer: it calls nothing of refcl's; tracing reads it.
 */
#ifndef REFCL_ERROR_H
#define REFCL_ERROR_H

#include <stdatomic.h>
#include <stdbool.h>

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

/** True while reasons are recorded: set by the tracing setup (config). */
extern atomic_bool refcl_reasons_on __attribute__((visibility("hidden")));

/** Records @p code's reason, printf-style; returns @p code. Cold. */
cl_int refcl_reason_note(cl_int code, const char *format, ...)
    __attribute__((cold, noinline, format(printf, 2, 3)));

/** Records that @p handle, not a live object of @p handle_type (an enum
 *  refcl_type), made the call fail with @p code; returns @p code. Cold. */
cl_int refcl_reason_handle(cl_int code, int handle_type, const void *handle,
                           const char *what) __attribute__((cold, noinline));

/**
 * @p code, with the reason formatted from the printf-style arguments when
 * reasons are on (the arguments are not evaluated otherwise). One
 * expression: `return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if
 * param_name is not one of the supported values\"", param_name);`
 */
#define REFCL_FAIL(code, ...)                                        \
    (__builtin_expect(atomic_load_explicit(&refcl_reasons_on,          \
                                         memory_order_relaxed), 0)  \
         ? refcl_reason_note((code), __VA_ARGS__)                    \
         : (code))

/** Forgets the calling thread's reason (a traced call starts). */
void refcl_reason_clear(void);

/** The calling thread's reason since the last clear, or NULL. */
const struct refcl_reason *refcl_reason_last(void);

/** The calling thread's reason if it explains @p code, else NULL. */
const struct refcl_reason *refcl_reason_for(cl_int code);

/** Turns recording on or off (the tracing setup). */
void refcl_reasons_enable(bool on);

#endif /* REFCL_ERROR_H */
