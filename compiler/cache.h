/* SPDX-License-Identifier: Apache-2.0 */
/* The build cache, private to the compiler layer (compiler/cache.c). */
#ifndef REFCL_COMPILER_CACHE_H
#define REFCL_COMPILER_CACHE_H

#include <limits.h>
#include <stdint.h>

#include "refcl/compiler.h"

/** An entry's file name: a 128-bit key in hex. */
#define REFCL_CACHE_NAME_LENGTH 32

struct refcl_toolchain;

struct refcl_cache_key {
    uint64_t hash[2];
    char dir[PATH_MAX];
    char name[REFCL_CACHE_NAME_LENGTH + 1]; /**< the entry's file name in
                                                dir: the key in hex */
};

/** The key of @p job; false when the cache is off (REFCL_CACHE=0) or has
 *  no directory. */
bool refcl_cache_key(const struct refcl_compile_job *job,
                     struct refcl_cache_key *key);

/** A hash of everything besides a job's own inputs that changes what the
 *  compiler makes: the kernel ABI, the target, @p tc's parts, librefcl. */
uint64_t refcl_cache_compiler_identity(const struct refcl_toolchain *tc);

/** The entry of @p key into @p result, if there is a whole one whose
 *  included files are unchanged. */
bool refcl_cache_lookup(const struct refcl_cache_key *key,
                        struct refcl_compile_result *result);

/** Stores a successful @p result with the files clang's dependency list
 *  @p deps (may be NULL) names; failures to store are ignored. */
void refcl_cache_store(const struct refcl_cache_key *key,
                       const struct refcl_compile_result *result,
                       const char *deps);

#endif /* REFCL_COMPILER_CACHE_H */
