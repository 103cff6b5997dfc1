/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where refcl's OpenCL C compiler is, found without loading anything: the
 * clang that runs as refcl's front end and code generator (a subprocess;
 * librefcl never maps LLVM), llvm-link for clLinkProgram, and the
 * compiler package's own parts: the work-group pass plugin, which clang
 * loads, and the builtin library's bitcode. docs/compiler.md.
 *
 * The compiler is there when every part is (a few access() calls, made
 * once): the device then reports FULL_PROFILE and a compiler; without it
 * refcl is what it was before it had one (EMBEDDED_PROFILE, builds
 * refused).
 *
 * Environment (tests and the curious):
 *   REFCL_COMPILER=0       behave as if the compiler were not installed;
 *   REFCL_COMPILER_DIR     the directory of the plugin and the library
 *                          (the build tree's compiler/ in tests);
 *   REFCL_CLANG, REFCL_LLVM_LINK, REFCL_LD  the programs;
 *   REFCL_LIBC, REFCL_LIBM, REFCL_LIBMVEC  the C libraries ld links programs with;
 *   REFCL_COMPILER_SERVER=0  no persistent compiler process: every job
 *                          runs clang, llvm-link and ld as subprocesses;
 *   REFCL_LLVM_SPIRV       the SPIR-V translator (optional: without it,
 *                          no clCreateProgramWithIL).
 */
#ifndef REFCL_TOOLCHAIN_H
#define REFCL_TOOLCHAIN_H

#include <stdbool.h>

/** File names in the compiler directory. */
#define REFCL_PLUGIN_NAME "librefcl-workgroup.so"
#define REFCL_BUILTINS_NAME "refcl-builtins.bc"
#define REFCL_SERVER_NAME "refcl-compiler"

struct refcl_toolchain {
    const char *clang;     /**< absolute path, executable */
    const char *llvm_link; /**< absolute path, executable */
    const char *ld;        /**< the linker clang would run; absolute */
    const char *libc;      /**< the C and math libraries as ld reads */
    const char *libm;      /**< them (link stubs, compiler/link/), named */
    const char *libmvec;   /**< so --no-undefined holds; libmvec: glibc's
                                vector math (x86-64), or NULL */
    const char *server;    /**< refcl-compiler, the persistent compiler
                                process; NULL where it is not installed
                                or REFCL_COMPILER_SERVER=0 */
    bool server_links;     /**< the server links programs itself (lld
                                built in): ld's jobs go to it too */
    const char *plugin;    /**< the work-group pass plugin */
    const char *builtins;  /**< the builtin library, LLVM bitcode */
    const char *llvm_spirv; /**< absolute path, executable; NULL where the
                                 SPIR-V translator is not installed */
    const char *version;   /**< what the build cache keys on: refcl's
                                version, the clang path and LLVM's major */
};

/** The compiler, or NULL where it is not installed (or REFCL_COMPILER=0). */
const struct refcl_toolchain *refcl_toolchain(void);


/** Whether programs can be made from SPIR-V: the compiler with its
 *  translator. */
static inline bool refcl_toolchain_reads_il(void)
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    return tc && tc->llvm_spirv;
}

#endif /* REFCL_TOOLCHAIN_H */
