/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The work-group pass's test harness: compiles OpenCL C with clang-15 and
 * the plugin exactly as refcl's driver does, dlopens the result, and runs
 * its kernels' work-groups itself, as the runtime would.
 */
#ifndef REFCL_TEST_PASS_HARNESS_H
#define REFCL_TEST_PASS_HARNESS_H

#include "refcl/kernel_abi.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** A check the test cannot go on without. */
#define REQUIRE(cond)                                                        \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: REQUIRE(%s) failed\n", __FILE__,         \
                    __LINE__, #cond);                                        \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/** A program the harness compiled and loaded. */
struct pass_program {
    void *handle;
    const struct refcl_abi_program *table;
};

/** Compiles tests/compiler/kernels/<name>.cl with @p extra options
 *  (space-separated, may be "") and loads it; exits the test on failure. */
void pass_build(struct pass_program *p, const char *name, const char *extra);
/** Compiles like pass_build and returns clang's stderr (free it). */
char *pass_compile_log(const char *name, const char *extra);
void pass_unload(struct pass_program *p);
const struct refcl_abi_kernel *pass_kernel(const struct pass_program *p,
                                           const char *name);

/** One argument as clSetKernelArg would give it. */
struct pass_arg {
    const void *value; /**< NULL for a __local pointer */
    size_t size;       /**< bytes of value, or of the __local memory */
};

/** An ND-range, as clEnqueueNDRangeKernel takes it. */
struct pass_range {
    uint32_t dims;
    uint64_t offset[3], global[3], local[3];
};

/** Runs every work-group of @p k over @p r on @p threads threads. */
void pass_run(const struct refcl_abi_kernel *k, const struct pass_arg *args,
              const struct pass_range *r, unsigned threads);

/** Seconds of a monotonic clock. */
double pass_now(void);

#endif
