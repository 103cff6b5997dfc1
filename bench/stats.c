/* SPDX-License-Identifier: Apache-2.0 */
#include "stats.h"

#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear interpolation between the closest ranks of sorted @p v. */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)pos;
    int hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

struct stats bench_summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), compare_doubles);
    return (struct stats){quantile(v, n, 0.5), quantile(v, n, 0.75) - quantile(v, n, 0.25)};
}
