// SPDX-License-Identifier: Apache-2.0
// The plugin's entry: clang-15 loads it with -fpass-plugin= and it adds the
// work-group pass at the start of the pipeline, before any optimisation, so
// that LLVM's own passes (SROA, LICM, the loop vectorizer) then optimise
// the work-item loops it makes; and before the vectorizer, once the
// library's atomics are inlined, it combines their additions (atomics.cpp).
// At -O0 clang marks every function optnone and noinline; the pass removes
// both so that it can inline.
#include "pass.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace refcl {
namespace {

std::vector<Function *> collectKernels(Module &M)
{
    std::vector<Function *> Kernels;
    for (Function &F : M)
        if (!F.isDeclaration() && F.getCallingConv() == CallingConv::SPIR_KERNEL)
            Kernels.push_back(&F);
    return Kernels;
}

void stripOptNone(Module &M)
{
    for (Function &F : M) {
        F.removeFnAttr(Attribute::OptimizeNone);
        F.removeFnAttr(Attribute::NoInline);
    }
}

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE counts the program-scope
// __global variables (address space 1 in clang's OpenCL map).
uint64_t globalVariableBytes(const Module &M)
{
    uint64_t Bytes = 0;
    for (const GlobalVariable &G : M.globals())
        if (G.getAddressSpace() == 1 && !G.isDeclaration())
            Bytes += M.getDataLayout().getTypeAllocSize(G.getValueType());
    return Bytes;
}

// The table is the object's only export: everything else internal, so
// that two programs loaded at once never bind to each other's symbols.
void internalize(Module &M)
{
    for (GlobalValue &G : M.global_values()) {
        if (G.isDeclaration() || G.getName() == "refcl_program_table")
            continue;
        G.setLinkage(GlobalValue::InternalLinkage);
        G.setVisibility(GlobalValue::DefaultVisibility);
    }
}

// The kernels and the helpers inlined into work-group functions still call
// work-item functions that nothing defines: drop every dead definition.
void removeDeadFunctions(Module &M)
{
    for (bool Changed = true; Changed;) {
        Changed = false;
        for (Function &F : make_early_inc_range(M)) {
            if (F.isDeclaration() || !F.hasLocalLinkage())
                continue;
            F.removeDeadConstantUsers();
            if (F.use_empty()) {
                F.eraseFromParent();
                Changed = true;
            }
        }
    }
}

// The CPU the code is for (refcl's driver sets REFCL_TARGET_CPU, an x86-64
// psABI level): set on every function, it reaches the vectorizer and code
// generation, while the front end, and so the calling convention of the
// kernel and of the builtin library (bitcode made once, for the baseline),
// stay the baseline's, which the two share. A -march= for clang instead
// would pass 32-byte vectors in registers to library functions that take
// them in memory.
void retarget(Module &M)
{
    const char *Cpu = getenv("REFCL_TARGET_CPU");
    if (!Cpu || !*Cpu)
        return;
    for (Function &F : M)
        if (!F.isDeclaration())
            F.addFnAttr("target-cpu", Cpu);
}

struct WorkGroupPass : PassInfoMixin<WorkGroupPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
    {
        std::vector<Function *> Kernels = collectKernels(M);
        if (Kernels.empty() || M.getNamedValue("refcl_program_table"))
            return PreservedAnalyses::all();
        uint64_t GlobalBytes = globalVariableBytes(M);
        retarget(M);
        stripOptNone(M);
        guardDivisions(M);
        std::set<Function *> Inline = functionsToInline(M);
        std::vector<KernelInfo> Infos;
        for (Function *K : Kernels)
            Infos.push_back(buildWorkGroup(*K, Inline));
        emitTable(M, Infos, GlobalBytes);
        internalize(M);
        removeDeadFunctions(M);
        // A pass bug stops the build with a log rather than miscompiling.
        if (verifyModule(M, &errs()))
            report_fatal_error("refcl-workgroup: the work-group pass made invalid IR");
        return PreservedAnalyses::none();
    }
    static bool isRequired() { return true; }
};

// After inlining, before the vectorizer: the library's atomic_add is an
// atomicrmw in the work-item loop by then.
struct AtomicsPass : PassInfoMixin<AtomicsPass> {
    PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM)
    {
        if (!F.getName().startswith("refcl.run.") ||
            !combineAtomics(F, AM.getResult<LoopAnalysis>(F), AM.getResult<AAManager>(F)))
            return PreservedAnalyses::all();
        return PreservedAnalyses::none();
    }
};

} // namespace
} // namespace refcl

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "refcl-workgroup", "1",
            [](PassBuilder &PB) {
                PB.registerPipelineStartEPCallback(
                    [](ModulePassManager &MPM, OptimizationLevel) {
                        MPM.addPass(refcl::WorkGroupPass());
                    });
                PB.registerVectorizerStartEPCallback(
                    [](FunctionPassManager &FPM, OptimizationLevel) {
                        FPM.addPass(refcl::AtomicsPass());
                    });
            }};
}
