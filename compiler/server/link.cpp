/* SPDX-License-Identifier: Apache-2.0 */
#include "link.h"

#include "lld/Common/CommonLinkerContext.h"
#include "lld/Common/Driver.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

namespace refcl {

bool isLinker(llvm::StringRef Name) {
  return Name == "ld" || Name.startswith("ld.");
}

int runLinker(const std::vector<const char *> &Argv, bool &Trusted) {
  std::vector<const char *> Args(Argv);
  Args[0] = "ld.lld";
  /* A server runs one job at a time: no thread pool left behind. */
  Args.insert(Args.begin() + 1, "--threads=1");
  bool Linked = false;
  /* lld's fatal errors end in exitLld, which leaves through the current
   * recovery context (only when recovery is enabled) instead of ending the
   * process; so does a crash while it is enabled, for this call only. */
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext Recovery;
  Trusted = Recovery.RunSafely([&] {
    Linked = lld::elf::link(Args, llvm::outs(), llvm::errs(),
                            /*exitEarly=*/false, /*disableOutput=*/false);
  });
  llvm::CrashRecoveryContext::Disable();
  if (!Trusted)
    llvm::errs() << "refcl-compiler: the link did not finish (status "
                 << Recovery.RetCode << ")\n";
  /* Every link's state (its arena, symbol table, options) goes with it. */
  lld::CommonLinkerContext::destroy();
  return Trusted && Linked ? 0 : 1;
}

} // namespace refcl
