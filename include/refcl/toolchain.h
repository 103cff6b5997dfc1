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
 *   REFCL_CLANG, REFCL_LLVM_LINK  the programs.
 */
#ifndef REFCL_TOOLCHAIN_H
#define REFCL_TOOLCHAIN_H

/** File names in the compiler directory. */
#define REFCL_PLUGIN_NAME "librefcl-workgroup.so"
#define REFCL_BUILTINS_NAME "refcl-builtins.bc"

struct refcl_toolchain {
    const char *clang;     /**< absolute path, executable */
    const char *llvm_link; /**< absolute path, executable */
    const char *plugin;    /**< the work-group pass plugin */
    const char *builtins;  /**< the builtin library, LLVM bitcode */
    const char *version;   /**< what the build cache keys on: refcl's
                                version, the clang path and LLVM's major */
};

/** The compiler, or NULL where it is not installed (or REFCL_COMPILER=0). */
const struct refcl_toolchain *refcl_toolchain(void);

#endif /* REFCL_TOOLCHAIN_H */
