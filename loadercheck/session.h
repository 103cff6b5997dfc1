/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One child process's view of a scenario: the loader under test, loaded
 * with dlopen, and each vendor the scenario installed, reached both through
 * the loader and directly (its library instance, its own dispatch table and
 * its call journal), so that what the loader did can be told apart from
 * what the application asked.
 */
#ifndef LOADERCHECK_SESSION_H
#define LOADERCHECK_SESSION_H

#include <limits.h>

#include "check.h"

/** Objects of one vendor platform, made through the vendor's own dispatch
 *  table (not the loader's), with the reason for each one missing. */
struct fixture {
    void *objects[OBJ_COUNT];       /**< [OBJ_EVENT]: a completed event */
    cl_event user_event;            /**< for clSetUserEventStatus */
    int kernel_args;                /**< the kernel's CL_KERNEL_NUM_ARGS */
    char missing[OBJ_COUNT][192];   /**< why objects[i] is NULL */
};

struct vendor {
    const struct vendor_spec *spec;
    char library[PATH_MAX];         /**< the copy of librefcl it is */
    void *handle;                   /**< that instance, if the loader loaded it */
    cl_platform_id platforms[MAX_VENDOR_PLATFORMS]; /**< as refcl lists them */
    cl_uint platform_count;
    bool listed[MAX_VENDOR_PLATFORMS]; /**< the loader lists platforms[i] */
    clGetCallJournalREFCL_fn journal;
    clSetNextResultREFCL_fn force;
    cl_ulong seen;                  /**< journal read up to this sequence */
    struct fixture fixture;         /**< on platforms[0] */
    /* What the loader did while it loaded the vendor (from the journal). */
    cl_uint set_count[MAX_VENDOR_PLATFORMS]; /**< clIcdSetPlatformDispatchDataKHR */
    cl_ulong set_data[MAX_VENDOR_PLATFORMS]; /**< the last disp_data set */
    cl_uint lookups;    /**< clIcdGetFunctionAddressForPlatformKHR calls */
    cl_uint start_records; /**< journaled while loading (a gap: more) */
};

/** Platforms a loader may list in one scenario. */
#define MAX_LISTED 16

struct session {
    const struct scenario *scenario;
    void *loader;                   /**< the loader under test */
    struct vendor vendors[MAX_VENDORS];
    cl_platform_id listed[MAX_LISTED]; /**< clGetPlatformIDs, through it */
    cl_uint listed_count;
    cl_int listed_status;           /**< what that clGetPlatformIDs returned */
    cl_ulong seed;                  /**< --seed: forced calls' random values */
};

/**
 * Sets the process up for @p scenario, whose vendors are installed under
 * @p dir: the environment, the loader at @p loader_path, then each vendor
 * and its objects. Returns false, with a reason in @p why, if the loader
 * cannot be loaded at all.
 */
bool session_open(struct session *session, const struct scenario *scenario,
                  const char *dir, const char *loader_path, char *why,
                  size_t why_size);

/** The loader's function @p name (exported, else NULL). */
void *loader_symbol(const struct session *session, const char *name);

/**
 * How the application reaches @p name for vendor @p v: the loader's export,
 * else what the loader's clGetExtensionFunctionAddressForPlatform returns
 * for the vendor's platform; NULL if neither.
 */
void *loader_function(const struct session *session, int v,
                      const char *name);

/** The vendor whose library holds @p address (dladdr), or -1. */
int vendor_of_address(const struct session *session, const void *address);

/** The vendor that owns refcl platform @p platform, or -1. */
int vendor_of_platform(const struct session *session,
                       cl_platform_id platform);

/** True if vendor @p v's first platform is listed by the loader. */
bool vendor_usable(const struct session *session, int v);

/** Symbol @p name of the vendor's library instance. */
void *dlsym_vendor(const struct vendor *vendor, const char *name);

/** The vendor's own dispatch table (that of its platform objects). */
const struct _cl_icd_dispatch *vendor_table(const struct vendor *vendor);

/** Records the vendor's journal holds after what was read; reads at most
 *  @p max into @p records (num_records_ret semantics of the journal). */
cl_uint journal_read(struct vendor *vendor, cl_call_record_refcl *records,
                     cl_uint max);

/** Notes, from vendor @p v's journal, what the loader did while it loaded
 *  the vendor; the journal is then read up to now. */
void vendor_note_start(struct session *session, int v);

/** Reads and forgets every vendor's new records. */
void journals_drain(struct session *session);

/** Makes vendor @p v's objects (fixture.c), through its own table. */
void fixture_build(struct session *session, int v);

#endif /* LOADERCHECK_SESSION_H */
