/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A build's cc1 job with the library kept parsed (library.h): clang's front
 * end without its -mlink-builtin-bitcode file, the library's needed part
 * linked as clang would link that file, then clang's own back end
 * (EmitBackendOutput: the -O3 pipeline with the work-group pass, code
 * generation). The object is what the plain cc1 job writes.
 */
#ifndef REFCL_SERVER_COMPILE_H
#define REFCL_SERVER_COMPILE_H

#include "clang/Frontend/CompilerInstance.h"

namespace refcl {

/* Whether @p Clang's job is one compileWithLibrary does: an object from
 * one source, linking one builtin bitcode file as -mlink-builtin-bitcode
 * does. */
bool usesKeptLibrary(const clang::CompilerInstance &Clang);

/* Runs that job. @return whether it succeeded; its diagnostics are on
 * stderr, as the plain job's. */
bool compileWithLibrary(clang::CompilerInstance &Clang);

} // namespace refcl

#endif
