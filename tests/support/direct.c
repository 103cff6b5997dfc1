/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "direct" side of every test: the same test source, linked to librefcl
 * instead of an ICD loader. refcl exports only the three ICD symbols, so this
 * file supplies the rest of the API the way a loader would, by calling
 * through refcl's dispatch table — but it never looks at the handles, so
 * bad handles reach refcl untouched (no loader NULL checks in between).
 */
#include "check.h"

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdlib.h>

static const struct _cl_icd_dispatch *table;

static void table_init(void)
{
    cl_platform_id platform;
    if (clIcdGetPlatformIDsKHR(1, &platform, NULL) != CL_SUCCESS) {
        fprintf(stderr, "direct: refcl offers no platform\n");
        exit(1);
    }
    table = *(const struct _cl_icd_dispatch **)platform;
}

static const struct _cl_icd_dispatch *refcl(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, table_init);
    return table;
}

/* clGetPlatformIDs has no handle to dispatch on; a loader answers it with
 * clIcdGetPlatformIDsKHR, and so does this file. */
cl_int clGetPlatformIDs(cl_uint n, cl_platform_id *platforms, cl_uint *count)
{
    return clIcdGetPlatformIDsKHR(n, platforms, count);
}

/* Every other function of the API: one call through refcl's table each. */
#include "direct_wrappers.inc"
