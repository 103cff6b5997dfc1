/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Call tracing (REFCL_TRACE; the line format is in docs/tracing.md).
 *
 * Every entry point has a tracing twin, refcl_trace_<name>, that calls
 * refcl_notify_<name> (refcl/notify.h) and then writes one line describing the call. The twins are
 * handed out instead of the entry points only when tracing is on: the
 * dispatch table, clIcdGetFunctionAddressForPlatformKHR and
 * clGetExtensionFunctionAddress* choose once, so with tracing off no call
 * passes through any of this.
 */
#ifndef REFCL_TRACE_H
#define REFCL_TRACE_H

#include <stdbool.h>

#include "refcl/api.h"

/** True when REFCL_TRACE asked for a trace and its file could be opened. */
bool refcl_tracing(void);

/** The name of error code @p code (CL_INVALID_VALUE, ...), or NULL. */
const char *refcl_trace_code_name(cl_int code);

/* Typed like the entry point they wrap, so the generated definitions
 * (instrumentation/trace_wrappers.inc) are checked against it. */
#define REFCL_TRACE_DECLARE(name) \
    extern __typeof__(refcl_##name) refcl_trace_##name;
REFCL_DISPATCH_ENTRIES(REFCL_TRACE_DECLARE, REFCL_TRACE_DECLARE,
                       REFCL_TRACE_DECLARE)
REFCL_TRACE_DECLARE(clIcdGetPlatformIDsKHR)
REFCL_TRACE_DECLARE(clIcdGetFunctionAddressForPlatformKHR)
REFCL_TRACE_DECLARE(clIcdSetPlatformDispatchDataKHR)
REFCL_TRACE_DECLARE(clImportMemoryARM)
REFCL_TRACE_DECLARE(clGetCallJournalREFCL)
REFCL_TRACE_DECLARE(clSetNextResultREFCL)
REFCL_TRACE_DECLARE(clEnqueueMarkerREFCL)
#undef REFCL_TRACE_DECLARE

#endif /* REFCL_TRACE_H */
