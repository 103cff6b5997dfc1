// SPDX-License-Identifier: Apache-2.0
// The plugin's passes, each one step of making an OpenCL C module the
// work-group functions and the table of refcl/kernel_abi.h, each with the
// name opt's -passes= knows it by (plugin.cpp registers them; clang's
// pipeline runs refcl-program at its start and refcl-atomics at the
// vectorizer's start). Their parameters are constructor arguments, which
// the pipeline text gives as pass options (refcl-retarget<cpu=NAME>).
#ifndef REFCL_PASSES_H
#define REFCL_PASSES_H

#include <llvm/IR/PassManager.h>

#include <string>

namespace refcl {

/** refcl-retarget<cpu=NAME>: "target-cpu"=NAME on every function defined,
 *  for the vectorizer and code generation, while the front end (and so
 *  the calling convention the kernel shares with the builtin library) stays
 *  at the baseline. */
class RetargetPass : public llvm::PassInfoMixin<RetargetPass> {
public:
    explicit RetargetPass(std::string Cpu) : Cpu(std::move(Cpu)) {}
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }

private:
    std::string Cpu;
};

/** refcl-adapt-calls: each call of a function defined in the module whose
 *  function type is not the callee's made again with the callee's type,
 *  its values converted as the C ABI lowered the callee's (calls.cpp):
 *  SPIR-V's calls of the builtin library. The calling convention of a
 *  call of the callee's type becomes the callee's (spir_func to C). */
struct AdaptCallsPass : llvm::PassInfoMixin<AdaptCallsPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-spirv-names: each function whose Itanium name has SPIR's
 *  address spaces (PU3AS1, a bare P for private) renamed as clang and the
 *  library name it (PU8CLglobal, PU9CLprivate; names.cpp): SPIR-V's calls
 *  of builtins, before the library is linked; and linkonce_odr made
 *  weak_odr, which llvm-link keeps for another object. */
struct SpirvNamesPass : llvm::PassInfoMixin<SpirvNamesPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-strip-optnone: no function optnone, nor the noinline that
 *  optnone requires (clang's -O0 marks every function with both), so
 *  that the work-group functions can inline; a noinline of its own
 *  stays. */
struct StripOptNonePass : llvm::PassInfoMixin<StripOptNonePass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-guard-division: integer divisions and remainders never trap
 *  (division.cpp). */
struct GuardDivisionPass : llvm::PassInfoMixin<GuardDivisionPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-half-casts: each fptrunc of double to half made one of a
 *  double rounded to float to odd, then to half (half.cpp): rounded once,
 *  without libgcc's __truncdfhf2. */
struct HalfCastsPass : llvm::PassInfoMixin<HalfCastsPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-half-vectors: each vector fcmp, fneg and rounding, fabs, min,
 *  max or copysign intrinsic on half, which LLVM 15's x86 back end splits
 *  into lanes (or cannot select), made the float operation on the halves
 *  extended (halfvectors.cpp): the same values, whole vectors. */
struct HalfVectorsPass : llvm::PassInfoMixin<HalfVectorsPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-half-truncations: each call of the rounding that
 *  hideHalfTruncations put in a jammed function, or of a vector form the
 *  vectorizers made of it, an fptrunc again (halftrunc.cpp); run last. */
struct HalfTruncationsPass : llvm::PassInfoMixin<HalfTruncationsPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** Each fptrunc of a float to half in F made a call of a function whose
 *  vector forms the SLP vectorizer knows and prices right
 *  (halftrunc.cpp). */
void hideHalfTruncations(llvm::Function &F);

/** refcl-prefetch-strides: a prefetch, some iterations ahead, before
 *  each load of a work-group function's innermost loop whose stride the
 *  processor's prefetchers do not follow (prefetch.cpp); run last. */
struct StridePrefetchPass : llvm::PassInfoMixin<StridePrefetchPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

/** refcl-invariant-images: the loads of an image descriptor's fields,
 *  once the library is inlined, !invariant.load (images.cpp). */
struct InvariantImagesPass : llvm::PassInfoMixin<InvariantImagesPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

/** refcl-workgroup: each kernel's work-group function (workgroup.cpp),
 *  the kernel and what it calls inlined into its work-item loops, split at
 *  barriers; what the table says about each, in !refcl.kernels. */
struct WorkGroupPass : llvm::PassInfoMixin<WorkGroupPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-program-table: refcl_program_table from !refcl.kernels
 *  (table.cpp), which it consumes. */
struct ProgramTablePass : llvm::PassInfoMixin<ProgramTablePass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-global-bytes: the table's CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
 *  counted again at the end of the optimizer (table.cpp), from the
 *  __global variables the executable will still hold. */
struct GlobalBytesPass : llvm::PassInfoMixin<GlobalBytesPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-work-items-per-step: each kernel's work_items_per_step in the
 *  table, from the count refcl-jam-items left on its work-group function
 *  (the attribute WorkItemsPerStepAttribute); run last. */
struct WorkItemsPerStepPass : llvm::PassInfoMixin<WorkItemsPerStepPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** The work-group function's attribute holding the work-items
 *  refcl-jam-items runs at a time. */
constexpr const char *WorkItemsPerStepAttribute = "refcl-work-items-per-step";

/** refcl-internalize: everything defined but refcl_program_table
 *  internal, so that two programs loaded at once never bind to each
 *  other's symbols. */
struct InternalizePass : llvm::PassInfoMixin<InternalizePass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-remove-dead: the internal functions nothing uses removed (the
 *  kernels, inlined, still call work-item functions nothing defines). */
struct RemoveDeadFunctionsPass : llvm::PassInfoMixin<RemoveDeadFunctionsPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-verify: an invalid module ends the compile with the verifier's
 *  log (a fatal error) rather than miscompiling. */
struct VerifyPass : llvm::PassInfoMixin<VerifyPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

/** refcl-program<cpu=NAME;adapt-calls>: the module steps in their order
 *  (adapt-calls if asked, retarget if a CPU is given, strip-optnone, guard-division, workgroup,
 *  program-table, internalize, remove-dead, verify), on a module that has
 *  kernels and no table yet; any other module is left as it is. */
class ProgramPass : public llvm::PassInfoMixin<ProgramPass> {
public:
    ProgramPass(const std::string &Cpu, bool AdaptCalls);
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
    static bool isRequired() { return true; }

private:
    llvm::ModulePassManager Steps;
};

/** refcl-atomics: a work-group function's relaxed atomic additions, one
 *  per address and work-item loop where nothing could tell (atomics.cpp);
 *  run once the library's atomics are inlined, before the vectorizer. */
struct AtomicsPass : llvm::PassInfoMixin<AtomicsPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM);
};

/** refcl-jam-items: each work-item loop whose work-item has a loop of its
 *  own, every branch in it the same for neighbouring work-items, runs W
 *  work-items per step, each operation repeated for them side by side
 *  (jam.cpp), for the SLP vectorizer to make one vector of; run before the
 *  vectorizers. */
struct JamItemsPass : llvm::PassInfoMixin<JamItemsPass> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM);
};

} // namespace refcl

#endif
