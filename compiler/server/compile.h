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

#include <string>

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"

namespace refcl {

/* Whether @p Clang's job is one compileWithLibrary does: an object from
 * one source, linking one builtin bitcode file as -mlink-builtin-bitcode
 * does. */
bool usesKeptLibrary(const clang::CompilerInstance &Clang);

/* Runs that job. @return whether it succeeded; its diagnostics are on
 * stderr, as the plain job's. */
bool compileWithLibrary(clang::CompilerInstance &Clang);

/* llvm-link @p Input --only-needed --internalize @p LibraryPath -o @p Output
 * (clLinkProgram's job adding the builtins) with the library kept parsed,
 * rather than the whole library read and materialized for each job (about
 * 300 ms). @return whether it succeeded; diagnostics on stderr, as
 * llvm-link's. */
bool linkKeptLibrary(const std::string &Input, const std::string &LibraryPath,
                     const std::string &Output);

/* @p M as bitcode in @p Path, as llvm-link writes its output. @return
 * whether it was written; why not on stderr. */
bool writeBitcode(const llvm::Module &M, const std::string &Path);

} // namespace refcl

#endif
