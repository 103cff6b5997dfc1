// SPDX-License-Identifier: Apache-2.0
// Loop nests run a chunk at a time by every work-item of the group. A
// kernel without barriers runs each work-item from start to end before
// the next (the jam, jam.cpp, a few side by side). A work-item whose
// outer loop walks a long inner loop over memory the other work-items
// read too (a GEMM tile's k-loop: the group's rows share its strip of A)
// then reads the whole strip before the next work-item reads it again,
// from a cache level further out each time the strip outgrows one.
// A barrier at the top of the outer loop makes every work-item run one
// iteration of it before any runs the next: the group's reads of one
// iteration are near each other in time, and the barrier split
// (barrier.cpp) keeps what the work-items carry round the loop in their
// frames. Any order in which work-items interleave between barriers is
// one OpenCL allows them, so the barrier changes no result.
//
// The barrier goes only where every work-item reaches the loop and leaves
// it on the same iteration (barriers are uniform): the loop's header
// post-dominates the kernel's start and its exit tests are the group's
// values (uniform.cpp). Not where the work-items order their accesses
// between them (atomics, fences), nor round a loop of a few iterations,
// nor where no inner loop is long: a known count of LongTrips iterations
// at least, not one to unroll, and still a loop once the loops of
// constant count are unrolled (workgroup.cpp checks, and takes the
// barriers out again): a tile of straight code in a region, or of a few
// iterations of a count unknown here (a convolution's filter width), ran
// several times slower than the work-items one after the other.
#include "pass.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IRBuilder.h>

using namespace llvm;

namespace refcl {
namespace {

// The fewest iterations of an inner loop worth running a chunk at a
// time, and of the outer loop worth cutting into chunks.
constexpr unsigned LongTrips = 8, OuterTrips = 4;

// OpenCL C's CLK_LOCAL_MEM_FENCE.
constexpr uint64_t LocalMemFence = 1;

bool ordersMemory(const Function &F, std::set<const Function *> &Seen);

// Whether I, or what it calls, orders memory between work-items (an
// atomic, a fence; a call to an unknown function may).
bool ordersMemory(const Instruction &I, std::set<const Function *> &Seen)
{
    if (I.isAtomic() || isa<FenceInst>(I))
        return true;
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
        return false;
    const Function *Callee = Call->getCalledFunction();
    return !Callee || ordersMemory(*Callee, Seen);
}

bool ordersMemory(const Function &F, std::set<const Function *> &Seen)
{
    return Seen.insert(&F).second && any_of(instructions(F), [&Seen](const Instruction &I) {
               return ordersMemory(I, Seen);
           });
}

bool ordersMemory(const Loop &L)
{
    std::set<const Function *> Seen;
    for (const BasicBlock *BB : L.blocks())
        for (const Instruction &I : *BB)
            if (ordersMemory(I, Seen))
                return true;
    return false;
}

bool toUnroll(const Loop &L)
{
    return findOptionMDForLoop(&L, "llvm.loop.unroll.enable") ||
           findOptionMDForLoop(&L, "llvm.loop.unroll.full") ||
           findOptionMDForLoop(&L, "llvm.loop.unroll.count");
}

// At least Trips iterations, or a count unknown here.
bool runsAtLeast(const Loop &L, unsigned Trips, ScalarEvolution &SE)
{
    unsigned Most = SE.getSmallConstantMaxTripCount(&L);
    return !toUnroll(L) && (Most == 0 || Most >= Trips);
}

// An inner loop of a known count of LongTrips at least: a tile's worth of
// work for each work-item between two barriers. A count unknown here may
// be a few (a convolution's filter width), which the frames' traffic and
// the regions' loops would cost more than the tile saves.
bool holdsLongLoop(const Loop &L, ScalarEvolution &SE)
{
    for (const Loop *Sub : L.getLoopsInPreorder())
        if (Sub != &L && !toUnroll(*Sub) && SE.getSmallConstantTripCount(Sub) >= LongTrips)
            return true;
    return false;
}

// Whether the group's work-items all leave L on the same iteration.
bool leftTogether(const Loop &L, const UniformValues &Uniform)
{
    SmallVector<BasicBlock *, 4> Exiting;
    L.getExitingBlocks(Exiting);
    for (BasicBlock *BB : Exiting) {
        Instruction *Term = BB->getTerminator();
        if (auto *Br = dyn_cast<BranchInst>(Term); Br && Br->isConditional()) {
            if (!Uniform.isUniform(Br->getCondition()))
                return false;
        } else if (!isa<BranchInst>(Term)) {
            return false;
        }
    }
    return true;
}

// Where an iteration starts: the block the header's exit test enters
// the loop by, where the test comes first (the iteration that leaves
// then runs no region of its own), else the header.
BasicBlock *iterationStart(const Loop &L)
{
    BasicBlock *Header = L.getHeader();
    BasicBlock *Into = nullptr;
    for (BasicBlock *Succ : successors(Header))
        if (L.contains(Succ))
            Into = Into && Into != Succ ? Header : Succ;
    return Into && Into != Header && Into->getSinglePredecessor() == Header ? Into : Header;
}

} // namespace

bool chunkLoopNests(Nest &N, FunctionAnalysisManager &FAM)
{
    Function &Run = *N.Run;
    auto &LI = FAM.getResult<LoopAnalysis>(Run);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Run);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(Run);
    UniformValues Uniform(N);
    std::vector<BasicBlock *> Starts;
    if (Loop *X = LI.getLoopFor(N.XBody))
        for (Loop *L : X->getSubLoops())
            if (PDT.dominates(L->getHeader(), N.XBody) && leftTogether(*L, Uniform) &&
                runsAtLeast(*L, OuterTrips, SE) && holdsLongLoop(*L, SE) && !ordersMemory(*L))
                Starts.push_back(iterationStart(*L));
    if (Starts.empty())
        return false;
    Module &M = *Run.getParent();
    LLVMContext &C = M.getContext();
    FunctionCallee Barrier = M.getOrInsertFunction(
        "_Z7barrierj", FunctionType::get(Type::getVoidTy(C), {Type::getInt32Ty(C)}, false));
    for (BasicBlock *Start : Starts) {
        IRBuilder<> B(&*Start->getFirstInsertionPt());
        B.CreateCall(Barrier, {B.getInt32(LocalMemFence)})->setConvergent();
    }
    FAM.clear(Run, Run.getName());
    return true;
}

bool chunksHoldLoops(Nest &N, const std::vector<CallInst *> &Barriers,
                     FunctionAnalysisManager &FAM)
{
    Function &Run = *N.Run;
    auto &LI = FAM.getResult<LoopAnalysis>(Run);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Run);
    bool Hold = all_of(Barriers, [&](CallInst *Barrier) {
        Loop *L = LI.getLoopFor(Barrier->getParent());
        return L && holdsLongLoop(*L, SE);
    });
    FAM.clear(Run, Run.getName());
    return Hold;
}

} // namespace refcl
