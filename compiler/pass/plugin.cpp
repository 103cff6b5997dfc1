// SPDX-License-Identifier: Apache-2.0
// The plugin's entry. clang-15 loads it with -fpass-plugin= and runs
// refcl-program (the module steps, passes.h) at the start of its pipeline,
// before any optimisation, so that LLVM's own passes (SROA, LICM, the loop
// vectorizer) then optimise the work-item loops it makes;
// refcl-invariant-images before the loop passes, once the library's image
// functions are inlined; and refcl-atomics before the vectorizer, once the
// library's atomics are inlined; refcl-global-bytes and refcl-half-vectors
// last, when the __global variables left are the executable's and the
// vectorizer's half vectors are made. opt-15 -load-pass-plugin= runs any
// step alone by its name, with its options in the pipeline text:
// -passes='refcl-retarget<cpu=NAME>'.
//
// clang's pipeline takes the CPU from the LLVM option -refcl-target-cpu
// and refcl-adapt-calls from -refcl-adapt-calls (clang's -mllvm), leaves
// refcl-jam-items out with -refcl-no-jam; with
// -refcl-spirv-names it runs refcl-spirv-names alone (a module just read
// from SPIR-V, not yet linked with the library). These options exist once
// the plugin is loaded: the driver loads it with -Xclang -load too, before
// clang parses -mllvm.
#include "pass.h"
#include "passes.h"

#include "refcl/kernel_abi.h"

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>

#include <optional>

using namespace llvm;

namespace refcl {

ProgramPass::ProgramPass(const std::string &Cpu, bool AdaptCalls)
{
    if (AdaptCalls)
        Steps.addPass(AdaptCallsPass());
    if (!Cpu.empty())
        Steps.addPass(RetargetPass(Cpu));
    Steps.addPass(StripOptNonePass());
    Steps.addPass(createModuleToFunctionPassAdaptor(GuardDivisionPass()));
    Steps.addPass(createModuleToFunctionPassAdaptor(HalfCastsPass()));
    Steps.addPass(WorkGroupPass());
    Steps.addPass(ProgramTablePass());
    Steps.addPass(InternalizePass());
    Steps.addPass(RemoveDeadFunctionsPass());
    Steps.addPass(VerifyPass());
}

// A module without kernels, or one made already (the table in it), is
// not a program to make.
PreservedAnalyses ProgramPass::run(Module &M, ModuleAnalysisManager &MAM)
{
    if (kernelsOf(M).empty() || M.getNamedValue(REFCL_ABI_TABLE_SYMBOL))
        return PreservedAnalyses::all();
    return Steps.run(M, MAM);
}

namespace {

cl::opt<std::string> TargetCpu(
    "refcl-target-cpu", cl::value_desc("cpu"),
    cl::desc("The CPU refcl's pipeline sets on every function (refcl-retarget)"));

cl::opt<bool> SpirvNames(
    "refcl-spirv-names",
    cl::desc("Only the library's names for SPIR-V's calls, no program made (refcl-spirv-names)"));

cl::opt<bool> AdaptCalls(
    "refcl-adapt-calls",
    cl::desc("Calls of the builtin library from SPIR-V made to match its ABI (refcl-adapt-calls)"));

cl::opt<bool> NoJam(
    "refcl-no-jam",
    cl::desc("Work-items one at a time: refcl-jam-items left out (REFCL_VECTORIZE=0)"));

// Name as Pass or as Pass<options>: the options ("" if none); nothing if
// Name is another pass's.
std::optional<StringRef> optionsOf(StringRef Name, StringRef Pass)
{
    if (!Name.consume_front(Pass))
        return std::nullopt;
    if (Name.empty())
        return StringRef();
    if (Name.consume_front("<") && Name.consume_back(">"))
        return Name;
    return std::nullopt;
}

// Options "cpu=NAME" (refcl-retarget, refcl-program) and "adapt-calls"
// (refcl-program: Adapt not null).
bool parseOptions(StringRef Pass, StringRef Options, std::string &Cpu, bool *Adapt)
{
    SmallVector<StringRef, 2> Parts;
    Options.split(Parts, ';', -1, false);
    for (StringRef Part : Parts) {
        StringRef Value = Part;
        if (Adapt && Part == "adapt-calls") {
            *Adapt = true;
            continue;
        }
        if (!Value.consume_front("cpu=") || Value.empty()) {
            errs() << Pass << ": unknown option '" << Part << "' (it takes cpu=NAME"
                   << (Adapt ? ";adapt-calls" : "") << ")\n";
            return false;
        }
        Cpu = Value.str();
    }
    return true;
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM)
{
    std::string Cpu;
    if (auto Options = optionsOf(Name, "refcl-retarget")) {
        if (!parseOptions("refcl-retarget", *Options, Cpu, nullptr))
            return false;
        if (Cpu.empty()) {
            errs() << "refcl-retarget: needs a CPU: refcl-retarget<cpu=NAME>\n";
            return false;
        }
        MPM.addPass(RetargetPass(Cpu));
        return true;
    }
    if (auto Options = optionsOf(Name, "refcl-program")) {
        bool Adapt = false;
        if (!parseOptions("refcl-program", *Options, Cpu, &Adapt))
            return false;
        MPM.addPass(ProgramPass(Cpu, Adapt));
        return true;
    }
    if (Name == "refcl-adapt-calls")
        MPM.addPass(AdaptCallsPass());
    else if (Name == "refcl-spirv-names")
        MPM.addPass(SpirvNamesPass());
    else if (Name == "refcl-strip-optnone")
        MPM.addPass(StripOptNonePass());
    else if (Name == "refcl-workgroup")
        MPM.addPass(WorkGroupPass());
    else if (Name == "refcl-program-table")
        MPM.addPass(ProgramTablePass());
    else if (Name == "refcl-global-bytes")
        MPM.addPass(GlobalBytesPass());
    else if (Name == "refcl-work-items-per-step")
        MPM.addPass(WorkItemsPerStepPass());
    else if (Name == "refcl-half-truncations")
        MPM.addPass(HalfTruncationsPass());
    else if (Name == "refcl-internalize")
        MPM.addPass(InternalizePass());
    else if (Name == "refcl-remove-dead")
        MPM.addPass(RemoveDeadFunctionsPass());
    else if (Name == "refcl-verify")
        MPM.addPass(VerifyPass());
    else
        return false;
    return true;
}

bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM)
{
    if (Name == "refcl-guard-division")
        FPM.addPass(GuardDivisionPass());
    else if (Name == "refcl-half-casts")
        FPM.addPass(HalfCastsPass());
    else if (Name == "refcl-half-vectors")
        FPM.addPass(HalfVectorsPass());
    else if (Name == "refcl-atomics")
        FPM.addPass(AtomicsPass());
    else if (Name == "refcl-jam-items")
        FPM.addPass(JamItemsPass());
    else if (Name == "refcl-invariant-images")
        FPM.addPass(InvariantImagesPass());
    else if (Name == "refcl-prefetch-strides")
        FPM.addPass(StridePrefetchPass());
    else
        return false;
    return true;
}

/** OpenCL C's generic address space in clang's -ffake-address-space-map. */
constexpr unsigned GenericAddressSpace = 4;

void registerPasses(PassBuilder &PB)
{
    PB.registerPipelineParsingCallback(
        [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
            return parseModulePass(Name, MPM);
        });
    PB.registerPipelineParsingCallback(
        [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
            return parseFunctionPass(Name, FPM);
        });
    PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
        if (SpirvNames)
            MPM.addPass(SpirvNamesPass());
        else
            MPM.addPass(ProgramPass(TargetCpu, AdaptCalls));
    });
    // After the inliner's first simplification of a function, before its
    // loop passes: the image descriptors' loads are there by then.
    PB.registerPeepholeEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(InvariantImagesPass());
    });
    // After inlining, before the vectorizer: the library's atomic_add is an
    // atomicrmw in the work-item loop by then. A generic pointer that is a
    // named one converted (a helper taking generic pointers, inlined)
    // becomes the named one again: scalar evolution does not look through
    // addrspacecast, so the vectorizer would see no consecutive access and
    // leave the loop scalar. x86-64 has no flat address space of its own
    // for the pass to find: it is told OpenCL's generic one.
    PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(InferAddressSpacesPass(GenericAddressSpace));
        FPM.addPass(AtomicsPass());
        if (!NoJam)
            FPM.addPass(JamItemsPass());
    });
    // Last: the __global variables the optimizer left are the executable's;
    // the vectorizer's half vectors are made, InstCombine is done narrowing.
    PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(HalfTruncationsPass());
        MPM.addPass(createModuleToFunctionPassAdaptor(StridePrefetchPass()));
        MPM.addPass(GlobalBytesPass());
        MPM.addPass(WorkItemsPerStepPass());
        if (!SpirvNames)
            MPM.addPass(createModuleToFunctionPassAdaptor(HalfVectorsPass()));
    });
}

} // namespace
} // namespace refcl

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "refcl", "1", refcl::registerPasses};
}
