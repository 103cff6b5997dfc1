/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A library that icd/lazy-hwloc-incomplete puts where refcl looks for
 * hwloc's soname: it loads, but has none of hwloc's functions.
 */
int refcl_test_not_hwloc(void);

int refcl_test_not_hwloc(void)
{
    return 0;
}
