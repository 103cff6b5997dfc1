/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The link of program.o to program.so in-process (where refcl-compiler is
 * built with lld's libraries): lld's ELF linker on the very arguments
 * compiler/driver.c gives ld. Spawning ld.gold costs a build about 19 ms
 * (its start-up and the reading of the link stubs); lld here, 2-3 ms.
 */
#ifndef REFCL_SERVER_LINK_H
#define REFCL_SERVER_LINK_H

#include <vector>

#include "llvm/ADT/StringRef.h"

namespace refcl {

/* Whether @p Name (an argv[0]'s file name) is ld: ld, ld.bfd, ld.gold. */
bool isLinker(llvm::StringRef Name);

/* Runs ld's @p Argv with lld. @return its exit status (0: linked); its
 * diagnostics are on stderr, as ld's. @p Trusted is false when lld did not
 * return (a fatal error or a crash): the process then ends. */
int runLinker(const std::vector<const char *> &Argv, bool &Trusted);

} // namespace refcl

#endif
