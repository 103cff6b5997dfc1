/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report (report.c) and the comparison with a loader's expectations
 * (expect.c).
 */
#ifndef LOADERCHECK_REPORT_H
#define LOADERCHECK_REPORT_H

#include <stdio.h>

#include "check.h"

/** The results of a run: outcomes[i] of checks[i], when done[i]. */
struct report_data {
    const struct check *checks;
    const struct outcome *outcomes;
    const bool *done;
    size_t count;
    const char *loader;     /**< --loader, as given */
    cl_ulong seed;          /**< --seed */
    bool filtered;          /**< --only: the table shows the checks run */
};

/** "ok   <id>: <detail>", "FAIL ..." or "skip ..."; a failure is followed
 *  by the command that runs it alone with the same values. */
void report_line(FILE *out, const struct report_data *data, size_t index);

/** The closing list of the checks that failed. */
void report_failures(FILE *out, const struct report_data *data);

/** The table per entry point. */
void report_table(FILE *out, const struct report_data *data);

/** Which entry points were checked with real objects, and why not. */
void report_coverage(FILE *out, const struct report_data *data);

/** Passed, failed and skipped checks per scenario. */
void report_scenarios(FILE *out, const struct report_data *data);

/** Counts the checks that ran, by status. */
void report_counts(FILE *out, const struct report_data *data, int *passed,
                   int *failed, int *skipped);

/** Writes JUnit XML to @p path, with each check's time and the seed;
 *  false if it cannot. */
bool report_junit(const char *path, const struct report_data *data,
                  const char *loader);

/**
 * Compares the failures with the expectations file at @p path (its format
 * is in refcl-loader-check(1)) and prints the differences: failures it does
 * not list, and listed failures that no longer fail. True when there is
 * none; false, with a message, also when the file cannot be read.
 */
bool expect_compare(FILE *out, const char *path,
                    const struct report_data *data, bool filtered);

#endif /* LOADERCHECK_REPORT_H */
