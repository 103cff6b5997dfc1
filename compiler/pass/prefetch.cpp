// SPDX-License-Identifier: Apache-2.0
// refcl-prefetch-strides: a load in an innermost loop of a work-group
// function whose address steps, from one iteration to the next, by a
// stride the processor's prefetchers do not follow (one not known when the
// kernel is built, or a page or more) is preceded by a prefetch of the
// address it reads some iterations later.
//
// The prefetchers follow a stream within a 4 KiB page. A GEMM kernel
// reading a column-major matrix a column at a time (CLBlast's, without
// local memory) reads 128 bytes per iteration, the matrix's row length
// apart: with 2048 floats, 8 KiB. Every load then waits for the cache
// level the line is in, and a loop of 32 FMAs spent most of its time on
// its 4 loads. A prefetch never faults and reads nothing into a register:
// an address past the loop's last iteration, or past the buffer, only
// costs a line of cache.
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <vector>

using namespace llvm;

namespace refcl {
namespace {

// A stride of a page or more: the prefetchers stop at a page's end.
constexpr uint64_t PageBytes = 4096;
// Loads this close to one prefetched share its line.
constexpr int64_t LineBytes = 64;
// How far ahead, in instructions of the loop: a line from the last level
// of cache or memory takes some hundred cycles. At most MostAhead
// iterations: lines a multiple of 4 KiB apart share one set of the first
// level's (8 to 12 ways), and prefetched further ahead they evicted each
// other before their loads (the naive SGEMM's column of B, 1.7 times
// slower with 51 iterations ahead).
constexpr unsigned AheadInstructions = 1024;
constexpr uint64_t MostAhead = 8;
// The most prefetches per loop.
constexpr size_t MostPrefetches = 16;

/** A load of L whose address steps by Step per iteration. */
struct Strided {
    LoadInst *Load;
    const SCEV *Address;
    const SCEV *Step;
};

/** The loads of L whose stride the prefetchers do not follow, one per
 *  line, whose address Expander can compute at Top. */
std::vector<Strided> stridedLoads(Loop &L, ScalarEvolution &SE, SCEVExpander &Expander,
                                  Instruction *Top)
{
    std::vector<Strided> Found;
    Instruction *Preheader = L.getLoopPreheader()->getTerminator();
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB) {
            auto *Load = dyn_cast<LoadInst>(&I);
            if (!Load || !Load->isSimple() || Found.size() == MostPrefetches)
                continue;
            const SCEV *Address = SE.getSCEV(Load->getPointerOperand());
            auto *Rec = dyn_cast<SCEVAddRecExpr>(Address);
            if (!Rec || Rec->getLoop() != &L || !Rec->isAffine())
                continue;
            const SCEV *Step = Rec->getStepRecurrence(SE);
            if (auto *Bytes = dyn_cast<SCEVConstant>(Step))
                if (Bytes->getAPInt().abs().ult(PageBytes))
                    continue;
            if (!Expander.isSafeToExpandAt(Step, Preheader) ||
                !Expander.isSafeToExpandAt(Address, Top))
                continue;
            auto SameLine = [&](const Strided &S) {
                auto *Apart = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Address, S.Address));
                return Apart && Apart->getAPInt().abs().slt(LineBytes);
            };
            if (none_of(Found, SameLine))
                Found.push_back({Load, Address, Step});
        }
    return Found;
}

bool prefetchStrides(Loop &L, ScalarEvolution &SE)
{
    SCEVExpander Expander(SE, L.getHeader()->getModule()->getDataLayout(), "refcl.prefetch");
    Instruction *Top = &*L.getHeader()->getFirstInsertionPt();
    std::vector<Strided> Loads = stridedLoads(L, SE, Expander, Top);
    if (Loads.empty())
        return false;
    size_t Size = 0;
    for (BasicBlock *BB : L.blocks())
        Size += BB->size();
    uint64_t Ahead = std::clamp<uint64_t>(AheadInstructions / Size, 1, MostAhead);
    for (const Strided &S : Loads) {
        const SCEV *Offset = SE.getMulExpr(S.Step, SE.getConstant(S.Step->getType(), Ahead));
        Value *At = Expander.expandCodeFor(SE.getAddExpr(S.Address, Offset),
                                           S.Load->getPointerOperandType(), Top);
        // A read, kept in every level of cache, of data.
        IRBuilder<> B(Top);
        B.CreateIntrinsic(Intrinsic::prefetch, {At->getType()},
                          {At, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
    }
    return true;
}

} // namespace

PreservedAnalyses StridePrefetchPass::run(Function &F, FunctionAnalysisManager &AM)
{
    if (!F.getName().startswith("refcl.run."))
        return PreservedAnalyses::all();
    auto &LI = AM.getResult<LoopAnalysis>(F);
    auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    bool Changed = false;
    for (Loop *L : LI.getLoopsInPreorder())
        if (L->isInnermost() && L->getLoopPreheader())
            Changed |= prefetchStrides(*L, SE);
    if (!Changed)
        return PreservedAnalyses::all();
    PreservedAnalyses Kept;
    Kept.preserveSet<CFGAnalyses>();
    return Kept;
}

} // namespace refcl
