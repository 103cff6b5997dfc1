/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failed calls reported to the application (docs/tracing.md, "Reasons in
 * pfn_notify").
 *
 * Every entry point has a notifying twin, refcl_notify_<name>
 * (instrumentation/notify_wrappers.inc, generated), and the twin is what
 * the dispatch table and the address lookups hand out; the tracing and
 * journaling twins call it in turn. A twin calls refcl_<name>; only when
 * the call failed does it look for the call's context, the one of its
 * first live handle argument (a context, or a queue, memory object,
 * program, kernel, event or sampler of one), and hand that context's
 * pfn_notify the entry point's name, the code's name and the reason
 * REFCL_FAIL kept (refcl/error.h). A successful call pays a call and a
 * comparison; a call that can have no context is passed on as it is.
 */
#ifndef REFCL_NOTIFY_H
#define REFCL_NOTIFY_H

#include "refcl/api.h"
#include "refcl/context.h"

/** A handle argument of a failed call, which may name its context. */
struct refcl_notify_handle {
    enum refcl_type type;
    const void *handle;
};

/**
 * Reports that @p function failed with @p code (CL_SUCCESS: the code the
 * calling thread's reason explains, for a function without an error code)
 * to the pfn_notify of the context of the first live one of @p handles,
 * if any has a context with a pfn_notify. Never called for a failure of a
 * call made from within a pfn_notify on the same thread.
 */
void refcl_notify_failed(const char *function, cl_int code,
                         const struct refcl_notify_handle *handles,
                         size_t count) __attribute__((cold, noinline));

/** Reports that @p function, creating a context, failed with @p code, to
 *  the @p notify the call was given (clCreateContext's pfn_notify). */
void refcl_notify_creation_failed(const char *function, cl_int code,
                                  refcl_notify_fn notify, void *user_data)
    __attribute__((cold, noinline));

/* Typed like the entry point they wrap, so the generated definitions
 * (instrumentation/notify_wrappers.inc) are checked against it. */
#define REFCL_NOTIFY_DECLARE(name) \
    extern __typeof__(refcl_##name) refcl_notify_##name;
REFCL_DISPATCH_ENTRIES(REFCL_NOTIFY_DECLARE, REFCL_NOTIFY_DECLARE,
                       REFCL_NOTIFY_DECLARE)
REFCL_NOTIFY_DECLARE(clIcdGetPlatformIDsKHR)
REFCL_NOTIFY_DECLARE(clIcdGetFunctionAddressForPlatformKHR)
REFCL_NOTIFY_DECLARE(clIcdSetPlatformDispatchDataKHR)
REFCL_NOTIFY_DECLARE(clImportMemoryARM)
REFCL_NOTIFY_DECLARE(clGetCallJournalREFCL)
REFCL_NOTIFY_DECLARE(clSetNextResultREFCL)
REFCL_NOTIFY_DECLARE(clEnqueueMarkerREFCL)
#undef REFCL_NOTIFY_DECLARE

#endif /* REFCL_NOTIFY_H */
