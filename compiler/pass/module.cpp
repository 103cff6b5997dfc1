// SPDX-License-Identifier: Apache-2.0
// The small module steps around the work-group functions: the CPU and the
// attributes the others need before them, the symbols and the dead
// functions after, and the verifier at the end.
#include "passes.h"

#include "refcl/kernel_abi.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace refcl {

// Set on every function rather than given to clang as -march=, which
// would pass 32-byte vectors in registers to library functions (bitcode
// made once, for the baseline) that take them in memory.
PreservedAnalyses RetargetPass::run(Module &M, ModuleAnalysisManager &)
{
    bool Changed = false;
    for (Function &F : M)
        if (!F.isDeclaration() && F.getFnAttribute("target-cpu").getValueAsString() != Cpu) {
            F.addFnAttr("target-cpu", Cpu);
            Changed = true;
        }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses StripOptNonePass::run(Module &M, ModuleAnalysisManager &)
{
    bool Changed = false;
    for (Function &F : M) {
        if (!F.hasFnAttribute(Attribute::OptimizeNone))
            continue;
        F.removeFnAttr(Attribute::OptimizeNone);
        F.removeFnAttr(Attribute::NoInline);
        Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses InternalizePass::run(Module &M, ModuleAnalysisManager &)
{
    bool Changed = false;
    for (GlobalValue &G : M.global_values()) {
        if (G.isDeclaration() || G.getName() == REFCL_ABI_TABLE_SYMBOL)
            continue;
        Changed |= G.getLinkage() != GlobalValue::InternalLinkage || !G.hasDefaultVisibility();
        G.setLinkage(GlobalValue::InternalLinkage);
        G.setVisibility(GlobalValue::DefaultVisibility);
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses RemoveDeadFunctionsPass::run(Module &M, ModuleAnalysisManager &)
{
    bool Removed = false;
    for (bool Changed = true; Changed;) {
        Changed = false;
        for (Function &F : make_early_inc_range(M)) {
            if (F.isDeclaration() || !F.hasLocalLinkage())
                continue;
            F.removeDeadConstantUsers();
            if (F.use_empty()) {
                F.eraseFromParent();
                Changed = Removed = true;
            }
        }
    }
    return Removed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses VerifyPass::run(Module &M, ModuleAnalysisManager &)
{
    if (verifyModule(M, &errs()))
        report_fatal_error("refcl: the work-group passes made invalid IR");
    return PreservedAnalyses::all();
}

} // namespace refcl
