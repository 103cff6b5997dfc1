/* SPDX-License-Identifier: Apache-2.0 */
/* The median and interquartile range every bench program prints. */
#ifndef REFCL_BENCH_STATS_H
#define REFCL_BENCH_STATS_H

struct stats {
    double median;
    double iqr;
};

/** Median and interquartile range of @p n samples (sorts them). */
struct stats bench_summarize(double *v, int n);

#endif
