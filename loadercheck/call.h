/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One call of an entry point through the loader, and what refcl's journal
 * says arrived: the arguments are built from the entry's parameter table,
 * with real objects of the vendor, and compared bit for bit with the
 * journal's record of the call, as are the result and every output.
 */
#ifndef LOADERCHECK_CALL_H
#define LOADERCHECK_CALL_H

#include "session.h"
#include "values.h"

#define MAX_PARAMS CL_CALL_RECORD_MAX_ARGS_REFCL
/** The byte the checker fills every output with before a call: a value
 *  made of it was never written (refcl's forced pattern is 0x40-0x7F). */
#define CHECKER_FILL 0xEE
/** What a forced call of dispatch slot s returns: FORCED_RESULT_BASE - s
 *  (a code no OpenCL function has), FORCED_POINTER_BASE + 16 s for a
 *  pointer, and FORCED_ERRCODE_BASE - s in errcode_ret. */
#define FORCED_RESULT_BASE (-55000)
#define FORCED_ERRCODE_BASE (-56000)
#define FORCED_POINTER_BASE 0x7E5700000000u
/** Bytes of each output buffer the checker passes. */
#define OUTPUT_BYTES 512
/** Records read from a vendor's journal after one call. */
#define MAX_RECORDS 64

/** How the arguments are chosen. */
enum pass {
    PASS_REAL,   /**< values refcl can act on: the call is performed */
    PASS_FORCED, /**< distinctive values; refcl is told the result to give */
    PASS_NULL,   /**< real values but a NULL handle to dispatch on */
};

struct call {
    const struct entry *entry;
    enum pass pass;
    int vendor;                 /**< whose objects the arguments hold */
    int number;                 /**< which call of the check (call_count) */
    int varied;                 /**< forced: the parameter whose choice
                                     this call takes, or -1 */
    cl_ulong choice[MAX_PARAMS]; /**< each parameter's choice (values.h) */
    bool varies[MAX_PARAMS];    /**< the parameter has choices */
    cl_ulong args[MAX_PARAMS];
    cl_ulong result;            /**< as the loader returned it */
    cl_ulong forced_result;     /**< PASS_FORCED: what refcl was told */
    cl_int forced_errcode;
    /* What the arguments point to; aligned for any type refcl writes. */
    _Alignas(16) unsigned char outputs[MAX_PARAMS][OUTPUT_BYTES];
    _Alignas(16) unsigned char scratch[MAX_PARAMS][256];
    void *handles[MAX_PARAMS][4];
    intptr_t properties[MAX_PARAMS][4];
    const char *strings[MAX_PARAMS][2];
    /* What each vendor's journal received meanwhile. */
    cl_call_record_refcl records[MAX_VENDORS][MAX_RECORDS];
    cl_uint record_count[MAX_VENDORS];
};

/** How many calls of @p entry a check makes in @p pass: a real check
 *  walks every parameter's choices in step, a forced one takes each
 *  choice of each parameter in turn, after a call of random values. */
int call_count(const struct entry *entry, enum pass pass, int kernel_args);

/** Builds the arguments of call @p number (below call_count) of @p entry
 *  for vendor @p v; forced calls draw their random values from
 *  @p random. */
void call_prepare(struct call *call, struct session *session,
                  const struct entry *entry, int v, enum pass pass,
                  int number, struct random *random);

/** "arg_index=1, arg_size=8, errcode_ret=NULL": the values call @p call
 *  passed that vary from call to call, into @p text. */
void call_describe(const struct call *call, char *text, size_t size);

/** Calls @p function (the loader's) with the prepared arguments, after
 *  telling refcl the result to give when forced; reads the journals. */
void call_invoke(struct call *call, struct session *session, void *function);

/**
 * Checks that exactly the prepared call reached vendor @p v's platform
 * @p platform, with every argument bit-identical, and that the result and
 * every output the application saw are those refcl gave. Failures go to
 * @p outcome (the first one kept, the rest appended).
 */
void call_compare(const struct call *call, const struct session *session,
                  int v, cl_platform_id platform, struct outcome *outcome);

/** The record of @p name in vendor @p v's journal since the call, or NULL. */
const cl_call_record_refcl *call_record(const struct call *call, int v,
                                        const char *name);

/** Where the call went instead: "vendor b" or "no vendor". */
const char *call_destination(const struct call *call,
                             const struct session *session, char *text,
                             size_t size);

/**
 * After a real call that succeeded: every object it returned is released
 * through the loader, and that release must reach vendor @p v with the
 * object (the objects a vendor makes must be routed back to it; in ICD2
 * that means they carry the loader's dispatch data).
 */
void call_release_created(struct call *call, struct session *session, int v,
                          struct outcome *outcome);

#endif /* LOADERCHECK_CALL_H */
