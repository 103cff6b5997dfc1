/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl-loader-check's common types: the vendor setups (scenarios) it
 * runs a loader with, the checks of each, and what a check reports.
 *
 * The parent process plans every check and prints the report; each
 * scenario runs in child processes (runner.c) that load the loader under
 * test, so that a crashing loader costs one check, not the report.
 */
#ifndef LOADERCHECK_CHECK_H
#define LOADERCHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "entry.h"

/** Most vendors one scenario loads at once. */
#define MAX_VENDORS 4
/** Most platforms one vendor shows. */
#define MAX_VENDOR_PLATFORMS 2

/** One copy of librefcl that a scenario installs as a vendor. */
struct vendor_spec {
    const char *tag;        /**< "a": library librefcl-a.so, refcl-check-a.icd */
    int icd_version;        /**< 1 (classic) or 2 */
    const char *suffix;     /**< CL_PLATFORM_ICD_SUFFIX_KHR ("" for none) */
    int platforms;          /**< REFCL_PLATFORMS */
    const char *fault;      /**< REFCL_FAULT, or NULL */
};

/** A set of vendors a loader is run with, in the order the loader finds
 *  their .icd files. */
struct scenario {
    const char *name;
    const char *summary;
    int vendor_count;
    struct vendor_spec vendors[MAX_VENDORS];
};

enum status { STATUS_OK, STATUS_FAIL, STATUS_SKIP };

/** What a check found. */
struct outcome {
    enum status status;
    unsigned long long micros;  /**< how long the check ran */
    char detail[1024];
};

struct check;
struct session;

/** Runs @p check in a child process whose loader has been set up. */
typedef void check_fn(struct session *session, const struct check *check,
                      struct outcome *outcome);

/** Check groups whose results form the per-entry-point table. */
enum column { COLUMN_NONE, COLUMN_ROUTE, COLUMN_FORCED, COLUMN_NULL };

struct check {
    char id[128];                   /**< "mixed/route/clGetDeviceInfo@b" */
    const struct scenario *scenario;
    check_fn *run;
    const struct entry *entry;      /**< for per-entry-point checks */
    int vendor;                     /**< index in the scenario, or -1 */
    enum column column;
};

/** Sets @p outcome, printf-style. */
void outcome_set(struct outcome *outcome, enum status status,
                 const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/** Appends to outcome->detail, printf-style. */
void outcome_append(struct outcome *outcome, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/** Marks @p outcome failed (an ok detail is dropped) and appends to its
 *  detail, so that every failure found is listed. */
void outcome_fail(struct outcome *outcome, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/** The scenarios, in the order they run; *count set to their number. */
const struct scenario *scenarios_all(int *count);

/** Builds the plan: every check of every scenario, in run order. */
struct check *plan_build(size_t *count);

/** The name of error code @p code ("CL_INVALID_VALUE"), or its number. */
const char *code_name(cl_int code);

#endif /* LOADERCHECK_CHECK_H */
