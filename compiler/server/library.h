/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The builtin library a server keeps parsed between jobs (docs/compiler.md,
 * "Build speed"). clang's -mlink-builtin-bitcode reads the whole library
 * (2 MB of bitcode, ~10k functions) for every job and links it with
 * --only-needed: 30-40 ms of a small program's 100. A server reads it once,
 * materializes a function the first time a job needs it, and gives each job
 * a small module holding only what the job calls, directly or not.
 *
 * Jobs build their modules in the library's LLVMContext (a module can only
 * take functions from its own context). A context keeps every constant and
 * metadata node a job made until it is destroyed, so the library and its
 * context are dropped and read again every few hundred jobs, and whenever
 * the file changes.
 */
#ifndef REFCL_SERVER_LIBRARY_H
#define REFCL_SERVER_LIBRARY_H

#include <memory>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace refcl {

class BuiltinLibrary {
public:
  /* The context a job at @p Path builds its module in: the library's, read
   * (again) first if need be. nullptr, with a message on stderr, if the
   * file cannot be read. */
  llvm::LLVMContext *prepare(const std::string &Path);

  /* A module of the library's definitions that @p Job declares, and all
   * they use, with @p Defaults (the job's default function attributes, as
   * clang gives a linked builtin module's functions). nullptr, with a
   * message on stderr, if a function cannot be read. */
  std::unique_ptr<llvm::Module> extract(const llvm::Module &Job,
                                        const llvm::AttrBuilder &Defaults);

private:
  using Uses = std::vector<llvm::GlobalValue *>;

  bool load(const std::string &Path, const struct stat &St);
  void drop();
  const Uses *usesOf(llvm::GlobalValue *GV);
  bool neededBy(const llvm::Module &Job, llvm::SetVector<llvm::GlobalValue *> &Needed);

  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> Library;
  /* What each definition of the library uses, found once. */
  llvm::DenseMap<const llvm::GlobalValue *, Uses> UsesCache;
  std::string LoadedPath;
  struct stat Loaded = {};
  unsigned Jobs = 0;
};

} // namespace refcl

#endif
