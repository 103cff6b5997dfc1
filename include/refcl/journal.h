/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The call journal (REFCL_JOURNAL; cl_refcl_call_journal in
 * CL/cl_ext_refcl.h, docs/journal.md): what each call that reached refcl
 * received and answered, kept for ICD loader tests to read back.
 *
 * Every entry point has a journaling twin, refcl_journal_<name>
 * (instrumentation/journal_wrappers.inc, generated), built from the
 * helpers below. Like the tracing twins, they are handed out instead of
 * the entry points only when journaling is on, so with it off no call
 * passes through any of this.
 */
#ifndef REFCL_JOURNAL_H
#define REFCL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "refcl/api.h"
#include "refcl/notify.h"
#include "refcl/object.h"
#include "refcl/trace.h"

/** True when REFCL_JOURNAL=1. */
bool refcl_journaling(void);

/** True if refcl journals a function of this name (the journal's own
 *  control functions excluded). Defined with the name table, in
 *  api/dispatch.c. */
bool refcl_function_journaled(const char *name);

/** One call being journaled: its record, built on the caller's stack and
 *  added to the journal when the call returns. */
struct refcl_journal_call {
    cl_call_record_refcl record;
    bool forced;             /**< clSetNextResultREFCL chose the result */
    cl_ulong forced_result;
    cl_int forced_errcode;
    unsigned fills;          /**< outputs filled so far (varies the pattern) */
};

/** Starts the record of a call of @p function (dispatch slot @p slot, or
 *  CL_CALL_RECORD_NO_SLOT_REFCL) with @p num_args arguments. */
void refcl_journal_begin(struct refcl_journal_call *call, int slot,
                         const char *function, unsigned num_args);

/** Records argument @p index: the @p size bytes at @p value. */
void refcl_journal_arg(struct refcl_journal_call *call, unsigned index,
                       const void *value, size_t size);

/** Takes the call's platform from @p handle, if none was found yet and it
 *  is a live refcl object of @p type. */
void refcl_journal_handle(struct refcl_journal_call *call,
                          enum refcl_type type, const void *handle);

/** ... from the first entry of a handle list of @p count entries. */
void refcl_journal_handles(struct refcl_journal_call *call,
                           enum refcl_type type, const void *list,
                           cl_uint count);

/** ... from CL_CONTEXT_PLATFORM in a context property list. */
void refcl_journal_properties(struct refcl_journal_call *call,
                              const cl_context_properties *properties);

/** True if clSetNextResultREFCL armed a result for this call, which then
 *  is not performed; the arming is used up. */
bool refcl_journal_forced(struct refcl_journal_call *call);

/** Forced call: a byte pattern into the output @p out of @p size bytes. */
void refcl_journal_fill(struct refcl_journal_call *call, void *out,
                        size_t size);

/** Forced call: the forced error code into @p errcode_ret. */
void refcl_journal_fill_errcode(struct refcl_journal_call *call,
                                cl_int *errcode_ret);

/** Forced call: the forced result, @p size bytes of it, into @p result. */
void refcl_journal_forced_result(struct refcl_journal_call *call,
                                 void *result, size_t size);

/** Records output argument @p index: the @p size bytes at @p out. */
void refcl_journal_output(struct refcl_journal_call *call, unsigned index,
                          const void *out, size_t size);

/** Records the result (@p size bytes at @p result; NULL for void) and adds
 *  the record to the journal. */
void refcl_journal_end(struct refcl_journal_call *call, const void *result,
                       size_t size);

/* What a journaling twin calls: the tracing twin when tracing, else the
 * notifying one (refcl/notify.h; all have the entry point's type). */
#define REFCL_JOURNAL_INNER(name) \
    (refcl_tracing() ? refcl_trace_##name : refcl_notify_##name)

/* Typed like the entry point they wrap, so the generated definitions
 * (instrumentation/journal_wrappers.inc) are checked against it. */
#define REFCL_JOURNAL_DECLARE(name) \
    extern __typeof__(refcl_##name) refcl_journal_##name;
REFCL_DISPATCH_ENTRIES(REFCL_JOURNAL_DECLARE, REFCL_JOURNAL_DECLARE,
                       REFCL_JOURNAL_DECLARE)
REFCL_JOURNAL_DECLARE(clIcdGetPlatformIDsKHR)
REFCL_JOURNAL_DECLARE(clIcdGetFunctionAddressForPlatformKHR)
REFCL_JOURNAL_DECLARE(clIcdSetPlatformDispatchDataKHR)
REFCL_JOURNAL_DECLARE(clImportMemoryARM)
REFCL_JOURNAL_DECLARE(clEnqueueMarkerREFCL)
#undef REFCL_JOURNAL_DECLARE

#endif /* REFCL_JOURNAL_H */
