// SPDX-License-Identifier: Apache-2.0
// Kernels with barriers. Every work-item runs from one barrier to the next
// before any runs on, so the kernel becomes a loop over regions: the
// region loop runs all work-items (the z, y, x loops) from the region's
// entry (the kernel's start or the point after a barrier) to the next
// barrier or the return, and then the region they stopped at. Barriers
// are uniform (OpenCL C 3.0, 6.15.12.1: all work-items reach the same
// one), so the next region is one value for the group.
//
// A sub-group barrier cuts the kernel the same way, in the sub-group nest
// (pass.h): its region loop is per sub-group, whose work-items all reach
// the same sub-group barrier ("if any work-item in a sub-group encounters
// a sub_group_barrier, the barrier must be encountered by all work-items
// in the sub-group", OpenCL C "Synchronization Functions"), so a sub-group
// runs on to its next region there, and the next sub-group runs from a
// work-group barrier or the return. Other sub-groups need not reach that
// sub-group barrier at all.
//
// A value defined in one region and used in another, or an alloca, is
// per work-item: it moves into the work-item's slot in group->frames.
// Unless it is uniform (uniform.cpp): computed again where used when it is
// a short expression of the group's fields and the arguments, else kept
// once for the group.
#include "pass.h"

#include "refcl/kernel_abi.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/CFG.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <map>

using namespace llvm;

namespace refcl {
namespace {

constexpr uint32_t RegionReturn = UINT32_MAX;
// The longest expression of uniform values computed again in a region.
constexpr unsigned RecomputeDepth = 8;

struct Frame {
    Nest &N;
    const DataLayout &DL;
    uint64_t Bytes = 0;
    IRBuilder<> B;

    explicit Frame(Nest &Nst)
        : N(Nst), DL(Nst.Run->getParent()->getDataLayout()),
          B(cast<Instruction>(Nst.FrameBase)->getNextNode())
    {}

    /** A slot of Size bytes aligned to A for the work-item. The group's
     *  frames are laid out slot by slot (slot k of all work-items, then
     *  slot k+1), so that consecutive work-items touch consecutive
     *  bytes; frame_bytes * items bytes hold them all. Where the group's
     *  size is required, each slot starts at a constant offset, and the
     *  back end addresses every slot from one register. */
    Value *slot(uint64_t Size, Align A)
    {
        // In this order: start() aligns Size, which the work-item's offset
        // then strides by (as arguments of one call, the two would run
        // in an order the compiler chooses). The row's part and the
        // step's in two GEPs: LLVM 15's scalar evolution sees Size *
        // (step + j) as Size * step + Size * j, but Size * (row + step)
        // and Size * (row + step + 1) as no constant apart, so the
        // vectorizer would leave consecutive work-items' slots scalar
        // (InstCombine factors one GEP's sum into that product).
        Value *Start = start(Size, A);
        Value *Row = B.CreateAdd(Start, B.CreateMul(N.LinRow, B.getInt64(Size)));
        Value *RowSlot = B.CreateInBoundsGEP(B.getInt8Ty(), N.FrameBase, Row);
        return B.CreateInBoundsGEP(B.getInt8Ty(), RowSlot,
                                   B.CreateMul(N.LinStep, B.getInt64(Size)));
    }

    /** The group's one slot of Size bytes (work-item 0's of a slot). */
    Value *groupSlot(uint64_t Size, Align A)
    {
        return groupSlotAt(B, N.FrameBase, reserve(Size, A));
    }

    /** For a value of type T that a region both stores and reads: the
     *  group's slot the work-items read and the one they store to, which
     *  the region latch copies to the first once all have run. */
    std::pair<Value *, Value *> copiedGroupSlot(Type *T)
    {
        uint64_t Size = DL.getTypeAllocSize(T);
        Align A = DL.getABITypeAlign(T);
        uint64_t Read = reserve(Size, A), Stored = reserve(Size, A);
        // One at a time: as arguments of one call, the addresses would be
        // made in an order each C++ compiler chooses.
        IRBuilder<> Latch(N.RLatch->getTerminator());
        Value *Frames = loadField(Latch, N.Run->getArg(1), G_FRAMES, Latch.getPtrTy());
        Value *ReadAt = groupSlotAt(Latch, Frames, Read);
        Value *StoredAt = groupSlotAt(Latch, Frames, Stored);
        Latch.CreateStore(Latch.CreateLoad(T, StoredAt), ReadAt);
        Value *Slot = groupSlotAt(B, N.FrameBase, Read);
        return {Slot, groupSlotAt(B, N.FrameBase, Stored)};
    }

private:
    // Reserves the next slot of Size bytes (aligning Size to A); returns
    // its start in a work-item's frame.
    uint64_t reserve(uint64_t &Size, Align A)
    {
        Bytes = alignTo(Bytes, A);
        Size = alignTo(Size, A);
        uint64_t Start = Bytes;
        Bytes += Size;
        return Start;
    }

    // Where the next slot of Size bytes starts in the group's frames.
    Value *start(uint64_t &Size, Align A)
    {
        return B.CreateMul(N.FrameItems, B.getInt64(reserve(Size, A)));
    }

    // The group's slot at Start in a work-item's frame, in Frames, made
    // with To.
    Value *groupSlotAt(IRBuilderBase &To, Value *Frames, uint64_t Start)
    {
        return To.CreateInBoundsGEP(To.getInt8Ty(), Frames,
                                    To.CreateMul(N.FrameItems, To.getInt64(Start)));
    }
};

// The region entries: the kernel's start (region 0), then the point after
// each barrier; each barrier now records its region and ends the work-item.
// SubGroupEntries: the regions after a sub-group barrier.
std::vector<BasicBlock *> cutAtBarriers(Nest &N, std::vector<CallInst *> &Barriers,
                                        Value *Next, std::vector<unsigned> &SubGroupEntries)
{
    std::vector<BasicBlock *> Entries = {N.XBody};
    for (CallInst *Call : Barriers) {
        if (isSubGroupBarrier(Call->getCalledFunction()))
            SubGroupEntries.push_back(Entries.size());
        BasicBlock *Before = Call->getParent();
        BasicBlock *After = SplitBlock(Before, Call->getNextNode());
        Before->getTerminator()->eraseFromParent();
        IRBuilder<> B(Call);
        B.CreateStore(B.getInt32(Entries.size()), Next);
        B.CreateBr(N.XLatch);
        Call->eraseFromParent();
        Entries.push_back(After);
    }
    return Entries;
}

// The sub-group's own latch: each work-item has recorded where it stopped
// (N.LaneNext, frame slot 0). The sub-group runs next the earliest region
// after a sub-group barrier at which any of its work-items waits, with
// those work-items only (its active ones: a collective of non-uniform
// control flow sees the work-items that reached it); when none waits at
// one (all stopped at a work-group barrier or returned), the next
// sub-group runs, and the group goes on where its work-items stopped.
void scanSubGroup(Nest &N, AllocaInst *Next, const std::vector<unsigned> &SubGroupEntries)
{
    LLVMContext &C = N.Run->getContext();
    BasicBlock *Scan = BasicBlock::Create(C, "sub.region.scan", N.Run);
    BasicBlock *Done = BasicBlock::Create(C, "sub.region.done", N.Run);
    BasicBlock *Leave = BasicBlock::Create(C, "sub.region.leave", N.Run);
    BasicBlock *Again = BasicBlock::Create(C, "sub.region.again", N.Run);
    Instruction *Old = N.YLatch->getTerminator();
    IRBuilder<> B(Old);
    Value *Frames = loadField(B, N.Run->getArg(1), G_FRAMES, B.getPtrTy());
    B.CreateBr(Scan);
    Old->eraseFromParent();

    B.SetInsertPoint(Scan);
    Value *None = B.getInt32(RegionReturn);
    PHINode *Lane = B.CreatePHI(B.getInt64Ty(), 2, "refcl.scan.lane");
    PHINode *Min = B.CreatePHI(B.getInt32Ty(), 2, "refcl.scan.min");
    PHINode *Stop = B.CreatePHI(B.getInt32Ty(), 2, "refcl.scan.stop");
    Value *At = B.CreateMul(B.CreateAdd(N.SubGroupBase, Lane), B.getInt64(4));
    Value *V = B.CreateLoad(B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt8Ty(), Frames, At));
    Value *Waits = B.getFalse();
    for (unsigned I : SubGroupEntries)
        Waits = B.CreateOr(Waits, B.CreateICmpEQ(V, B.getInt32(I)));
    Value *NextMin = B.CreateSelect(B.CreateAnd(Waits, B.CreateICmpULT(V, Min)), V, Min);
    Value *NextStop = B.CreateSelect(B.CreateAnd(B.CreateNot(Waits), B.CreateICmpNE(V, None)),
                                     V, Stop);
    Value *NextLane = B.CreateNUWAdd(Lane, B.getInt64(1));
    B.CreateCondBr(B.CreateICmpULT(NextLane, N.SubGroupItems), Scan, Done);
    Lane->addIncoming(B.getInt64(0), N.YLatch);
    Lane->addIncoming(NextLane, Scan);
    Min->addIncoming(None, N.YLatch);
    Min->addIncoming(NextMin, Scan);
    Stop->addIncoming(None, N.YLatch);
    Stop->addIncoming(NextStop, Scan);

    B.SetInsertPoint(Done);
    B.CreateCondBr(B.CreateICmpNE(NextMin, None), Again, Leave);
    B.SetInsertPoint(Leave);
    B.CreateStore(NextStop, Next);
    B.CreateBr(N.ZLatch);
    B.SetInsertPoint(Again);
    B.CreateBr(N.YHead);
    N.Region->addIncoming(NextMin, Again);
    N.FirstPass->addIncoming(B.getFalse(), Again);
}

void dispatchRegions(Nest &N, const std::vector<BasicBlock *> &Entries, AllocaInst *Next,
                     const std::vector<unsigned> &SubGroupEntries)
{
    Instruction *Old = N.XHead->getTerminator();
    IRBuilder<> B(Old);
    SwitchInst *S = B.CreateSwitch(N.Region, Entries[0], Entries.size() - 1);
    for (unsigned I = 1; I < Entries.size(); I++)
        S->addCase(B.getInt32(I), Entries[I]);
    Old->eraseFromParent();

    // The region the work-group goes on with: the region phi's in the
    // work-group nest, the group region's (RHead's first phi) in the
    // sub-group nest.
    PHINode *GroupRegion = N.BySubGroup ? &*N.RHead->phis().begin() : N.Region;
    Instruction *Ret = N.RLatch->getTerminator();
    B.SetInsertPoint(Ret);
    Value *Region = B.CreateLoad(B.getInt32Ty(), Next, "refcl.next.region");
    BasicBlock *Exit = BasicBlock::Create(N.Run->getContext(), "exit", N.Run);
    B.CreateCondBr(B.CreateICmpEQ(Region, B.getInt32(RegionReturn)), Exit, N.RHead);
    Ret->eraseFromParent();
    ReturnInst::Create(N.Run->getContext(), Exit);
    GroupRegion->addIncoming(Region, N.RLatch);
    if (!N.BySubGroup)
        return;
    scanSubGroup(N, Next, SubGroupEntries);
}

// The kernel's allocas (private arrays, a byval argument's copy) are the
// work-item's own: each moves into its frame.
void moveAllocasToFrame(Frame &F, AllocaInst *Next)
{
    std::vector<AllocaInst *> Allocas;
    for (Instruction &I : instructions(F.N.Run))
        if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI != Next)
            Allocas.push_back(AI);
    for (AllocaInst *AI : Allocas) {
        for (User *U : make_early_inc_range(AI->users()))
            if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
                II->eraseFromParent();
        auto Bits = AI->getAllocationSizeInBits(F.DL);
        uint64_t Size = Bits ? uint64_t(*Bits) / 8 : 0;
        Value *P = F.slot(Size, AI->getAlign());
        AI->replaceAllUsesWith(F.B.CreateAddrSpaceCast(P, AI->getType()));
        AI->eraseFromParent();
    }
}

// The blocks a work-item runs from those of From on until it stops at a
// barrier or returns (the x latch): From's, then the ones after them.
std::vector<BasicBlock *> blocksFrom(const Nest &N, ArrayRef<BasicBlock *> From)
{
    std::vector<BasicBlock *> Blocks;
    SmallPtrSet<BasicBlock *, 32> Seen = {N.XLatch};
    auto Visit = [&](BasicBlock *BB) {
        if (Seen.insert(BB).second)
            Blocks.push_back(BB);
    };
    for_each(From, Visit);
    for (size_t I = 0; I < Blocks.size(); I++)
        for_each(successors(Blocks[I]), Visit);
    return Blocks;
}

// The blocks of the region that starts at Entry.
std::vector<BasicBlock *> regionBlocks(const Nest &N, BasicBlock *Entry)
{
    return blocksFrom(N, {Entry});
}

Instruction *useSite(const Use &U)
{
    auto *User = cast<Instruction>(U.getUser());
    if (auto *Phi = dyn_cast<PHINode>(User))
        return Phi->getIncomingBlock(U)->getTerminator();
    return User;
}

// Whether V can be computed again anywhere: an expression of at most
// Depth instructions, without memory or effects, over constants and the
// entry's values (arguments, the group's fields), so the same in every
// work-item and every region.
bool recomputable(const Value *V, const Nest &N, unsigned Depth)
{
    auto *I = dyn_cast<Instruction>(V);
    if (!I || (I->getParent() == N.Entry && !isa<AllocaInst>(I)))
        return true;
    if (Depth == 0 || isa<PHINode>(I) || isa<CallBase>(I) || I->mayReadOrWriteMemory() ||
        !isSafeToSpeculativelyExecute(I))
        return false;
    for (const Use &Op : I->operands())
        if (!recomputable(Op.get(), N, Depth - 1))
            return false;
    return true;
}

Value *recompute(Value *V, Instruction *At, const Nest &N)
{
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == N.Entry)
        return V;
    Instruction *Copy = I->clone();
    for (Use &Op : Copy->operands())
        Op.set(recompute(Op.get(), At, N));
    Copy->insertBefore(At);
    Copy->setName(I->getName() + ".again");
    return Copy;
}

// The regions (indices of Entries) each block belongs to.
using RegionsOf = std::map<const BasicBlock *, std::set<unsigned>>;

RegionsOf regionsOfBlocks(const Nest &N, const std::vector<BasicBlock *> &Entries)
{
    RegionsOf Out;
    for (unsigned R = 0; R < Entries.size(); R++)
        for (BasicBlock *BB : regionBlocks(N, Entries[R]))
            Out[BB].insert(R);
    return Out;
}

// A uniform value can be kept once for the group when no region both
// defines and uses it: work-items run a region one after the other, so
// the first one's store would otherwise reach the next one's load of the
// value the region had before.
bool keptOnce(const Instruction *I, const std::vector<Use *> &Uses, const RegionsOf &Regions)
{
    auto Defs = Regions.find(I->getParent());
    if (Defs == Regions.end())
        return false;
    for (const Use *U : Uses) {
        auto At = Regions.find(useSite(*U)->getParent());
        if (At == Regions.end())
            return false;
        for (unsigned R : At->second)
            if (Defs->second.count(R))
                return false;
    }
    return true;
}

// Whether a work-item that runs I can reach one of Uses in the same run
// of the region, before it stops at a barrier or returns.
bool reachedInRegion(const Nest &N, Instruction *I, const std::vector<Use *> &Uses)
{
    SmallVector<BasicBlock *, 4> Next(successors(I->getParent()));
    std::vector<BasicBlock *> Reached = blocksFrom(N, Next);
    SmallPtrSet<BasicBlock *, 32> Blocks(Reached.begin(), Reached.end());
    return any_of(Uses, [&Blocks](const Use *U) { return Blocks.count(useSite(*U)->getParent()); });
}

/** Where I's value is stored to its slot: right after it (after the
 *  block's phis for a phi). */
Instruction *afterDefinition(Instruction *I)
{
    return isa<PHINode>(I) ? &*I->getParent()->getFirstInsertionPt() : I->getNextNode();
}

/** In a kernel whose work-items run no loop of their own (none
 *  otherwise), the regions (by their index in Entries) whose straight
 *  code the jam will run with the work-items as lanes, asked of each
 *  region's blocks in the x loop before they become loops of their own:
 *  those where the lanes cost less (jam.cpp, elements.cpp), and those
 *  with no vector work but the values kept across barriers, which the
 *  loop vectorizer takes once those are kept an element a slot. */
std::vector<bool> regionsAsLanes(const Nest &N, const std::vector<BasicBlock *> &Entries,
                                 FunctionAnalysisManager &FAM)
{
    std::vector<bool> AsLanes(Entries.size(), false);
    if (!N.ElementSlots)
        return AsLanes;
    Function &Run = *N.Run;
    FAM.clear(Run, Run.getName());
    unsigned VectorBits = vectorRegisterBits(FAM, Run);
    Loop *X = FAM.getResult<LoopAnalysis>(Run).getLoopFor(N.XHead);
    if (X && narrowVectorsOnly(Run, VectorBits)) {
        auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Run);
        for (unsigned R = 0; R < Entries.size(); R++) {
            LaneCosts Cost = laneCosts(regionBlocks(N, Entries[R]), *X, SE, VectorBits);
            AsLanes[R] = Cost.lanesPay() || Cost.Whole == 0;
        }
    }
    FAM.clear(Run, Run.getName());
    return AsLanes;
}

/** Whether a work-item's value I, read at Uses, is kept an element a slot:
 *  a vector of 128 bits at most (float4, int2) of whole bytes per element
 *  that only regions run with the work-items as lanes define and read.
 *  There element e of consecutive work-items is then consecutive in
 *  memory, where in one slot of vectors a region reading only some
 *  elements (a complex value's real part) gathered them. A region that
 *  keeps its work-items' vectors whole would store and load each element
 *  apart instead of the vector at once. */
bool keptByElement(const Instruction *I, const std::vector<Use *> &Uses, const RegionsOf &Regions,
                   const std::vector<bool> &AsLanes)
{
    auto *Vector = dyn_cast<FixedVectorType>(I->getType());
    if (!Vector || Vector->getPrimitiveSizeInBits() > 128 ||
        !packedElements(Vector, I->getModule()->getDataLayout()))
        return false;
    // The nest's blocks (the x loop's head and latch, which carry a value
    // from one work-item's run to the next's) are in no region.
    auto InLanes = [&](const BasicBlock *BB) {
        auto At = Regions.find(BB);
        return At == Regions.end() ||
               all_of(At->second, [&AsLanes](unsigned R) { return AsLanes[R]; });
    };
    return InLanes(I->getParent()) &&
           all_of(Uses, [&InLanes](const Use *U) { return InLanes(useSite(*U)->getParent()); });
}

/** Keeps I for Uses, an element per slot of the work-item's frame. */
void spillByElement(Frame &F, Instruction *I, const std::vector<Use *> &Uses)
{
    auto *Vector = cast<FixedVectorType>(I->getType());
    Type *Element = Vector->getElementType();
    uint64_t Size = F.DL.getTypeAllocSize(Element);
    Align A = F.DL.getABITypeAlign(Element);
    std::vector<Value *> Slots;
    for (unsigned E = 0; E < Vector->getNumElements(); E++)
        Slots.push_back(F.slot(Size, A));
    IRBuilder<> Store(afterDefinition(I));
    for (unsigned E = 0; E < Slots.size(); E++)
        Store.CreateStore(Store.CreateExtractElement(I, E), Slots[E]);
    for (Use *U : Uses) {
        IRBuilder<> Load(useSite(*U));
        Value *Whole = PoisonValue::get(Vector);
        for (unsigned E = 0; E < Slots.size(); E++)
            Whole = Load.CreateInsertElement(Whole, Load.CreateLoad(Element, Slots[E]), E);
        U->set(Whole);
    }
}

// SSA values that no longer dominate a use (they were defined in an
// earlier region) are stored in the frame where defined, loaded where
// used; uniform ones computed again or stored once for the group.
// A uniform value that a region both defines and reads (the counter of a
// loop that holds a barrier) is kept once all the same, in two slots:
// work-items run a region one after the other, so each must read the
// value the region had before, not the one the work-item before it
// stored. Kept once, it stays scalar in the work-item vectorizer. In the
// work-group nest only, whose region latch runs once after all the
// group's work-items; and only where a barrier lies on every path from
// the value to its uses (a barrier under a branch in the loop leaves a
// path on which the use would read the value of the run before). A
// work-item's vector in a kernel whose work-items run no loop is kept an
// element a slot where the regions that define and use it run their
// work-items as lanes.
void spillCrossRegionValues(Frame &F, const UniformValues &Uniform,
                            const std::vector<BasicBlock *> &Entries,
                            const std::vector<bool> &AsLanes)
{
    DominatorTree DT(*F.N.Run);
    RegionsOf Regions = regionsOfBlocks(F.N, Entries);
    std::vector<std::pair<Instruction *, std::vector<Use *>>> Spills;
    for (Instruction &I : instructions(F.N.Run)) {
        std::vector<Use *> Far;
        for (Use &U : I.uses())
            if (!DT.dominates(&I, U))
                Far.push_back(&U);
        if (!Far.empty())
            Spills.push_back({&I, Far});
    }
    for (auto &[I, Uses] : Spills) {
        bool IsUniform = Uniform.isUniform(I);
        if (IsUniform && recomputable(I, F.N, RecomputeDepth)) {
            for (Use *U : Uses)
                U->set(recompute(I, useSite(*U), F.N));
            continue;
        }
        Type *T = I->getType();
        if (!IsUniform && keptByElement(I, Uses, Regions, AsLanes)) {
            spillByElement(F, I, Uses);
            continue;
        }
        uint64_t Size = F.DL.getTypeAllocSize(T);
        Align A = F.DL.getABITypeAlign(T);
        Value *Slot, *Stored;
        if (IsUniform && keptOnce(I, Uses, Regions))
            Slot = Stored = F.groupSlot(Size, A);
        else if (IsUniform && !F.N.BySubGroup && !reachedInRegion(F.N, I, Uses))
            std::tie(Slot, Stored) = F.copiedGroupSlot(T);
        else
            Slot = Stored = F.slot(Size, A);
        new StoreInst(I, Stored, afterDefinition(I));
        for (Use *U : Uses)
            U->set(new LoadInst(T, Slot, I->getName() + ".reload", useSite(*U)));
    }
}

// A cloned block keeps only the phi entries of the edges its region has.
void dropForeignIncoming(BasicBlock *BB)
{
    SmallPtrSet<BasicBlock *, 8> Preds(pred_begin(BB), pred_end(BB));
    for (PHINode &Phi : BB->phis())
        for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
            if (!Preds.count(Phi.getIncomingBlock(I)))
                Phi.removeIncomingValue(I, false);
}

// Gives region R its own copy of the z, y, x loops with only its blocks
// in the x loop, added to Clones; returns the copy's z header.
BasicBlock *cloneRegionLoops(Nest &N, BasicBlock *Entry, unsigned R,
                             std::vector<BasicBlock *> &Clones)
{
    std::vector<BasicBlock *> Blocks = N.Heads;
    std::vector<BasicBlock *> Body = regionBlocks(N, Entry);
    Blocks.insert(Blocks.end(), Body.begin(), Body.end());
    Blocks.insert(Blocks.end(), N.Latches.begin(), N.Latches.end());
    ValueToValueMapTy VMap;
    size_t First = Clones.size();
    for (BasicBlock *BB : Blocks) {
        Clones.push_back(CloneBasicBlock(BB, VMap, ".r" + Twine(R), N.Run));
        VMap[BB] = Clones.back();
    }
    for (size_t I = First; I < Clones.size(); I++)
        for (Instruction &Inst : *Clones[I])
            RemapInstruction(&Inst, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    std::vector<BasicBlock *> BodyClones;
    for (BasicBlock *BB : Body)
        BodyClones.push_back(cast<BasicBlock>(VMap[BB]));
    markParallel(BodyClones, cast<BasicBlock>(VMap[N.XLatch]));
    auto *XHead = cast<BasicBlock>(VMap[N.XHead]);
    XHead->getTerminator()->eraseFromParent();
    if (N.BySubGroup) {
        // Only the sub-group's work-items stopped before this region run
        // it (all of them at the sub-group's first).
        IRBuilder<> B(XHead);
        Value *Mine = B.CreateLoad(B.getInt32Ty(), VMap[N.LaneNext], "refcl.lane.region");
        Value *Active = B.CreateOr(N.FirstPass, B.CreateICmpEQ(Mine, B.getInt32(R)));
        B.CreateCondBr(Active, cast<BasicBlock>(VMap[Entry]),
                       cast<BasicBlock>(VMap[N.XLatch]));
    } else {
        BranchInst::Create(cast<BasicBlock>(VMap[Entry]), XHead);
    }
    return cast<BasicBlock>(VMap[N.Heads.front()]);
}

// Each region gets its own work-item loops, chosen once per region rather
// than once per work-item, so that LLVM optimises each loop on its own.
void loopPerRegion(Nest &N, const std::vector<BasicBlock *> &Entries)
{
    std::vector<BasicBlock *> Heads, Clones;
    for (unsigned R = 0; R < Entries.size(); R++)
        Heads.push_back(cloneRegionLoops(N, Entries[R], R, Clones));
    Instruction *Old = N.Dispatch->getTerminator();
    IRBuilder<> B(Old);
    SwitchInst *S = B.CreateSwitch(N.Region, Heads[0], Heads.size() - 1);
    for (unsigned R = 1; R < Heads.size(); R++)
        S->addCase(B.getInt32(R), Heads[R]);
    Old->eraseFromParent();
    for (BasicBlock *BB : Clones)
        dropForeignIncoming(BB);
    removeUnreachableBlocks(*N.Run);
}

// The work-group functions' scratch (compiler/lib/src/workgroup.cl): 16
// bytes per work-item, all the group's in one array; the sub-group
// functions' (subgroup.cl) 48, for a sub-group of 4 to broadcast a long16.
// The calls lose their uses here and go once the uniform values' set,
// which may name them, is no longer read.
constexpr uint64_t ScratchBytes = 16, SubGroupScratchBytes = 48;

std::vector<CallInst *> groupScratchCalls(Function *Run)
{
    std::vector<CallInst *> Calls;
    for (Instruction &I : instructions(Run))
        if (auto *Call = dyn_cast<CallInst>(&I); Call && isGroupScratch(Call->getCalledFunction()))
            Calls.push_back(Call);
    return Calls;
}

// The work-group functions' scratch and the sub-group functions' are two:
// in a kernel with sub-group barriers, a sub-group runs on past a
// work-group collective's last step, to its sub-group collectives, before
// the next sub-group has read the work-group collective's result.
// The sub-group flags (subgroup_nu.cl) are a byte per work-item, which
// the group's entry clears.
void placeGroupScratch(Frame &F)
{
    std::map<Function *, Value *> Scratch;
    for (CallInst *Call : groupScratchCalls(F.N.Run)) {
        // A group slot of ScratchBytes per work-item is their array.
        Value *&Slot = Scratch[Call->getCalledFunction()];
        StringRef Name = Call->getCalledFunction()->getName();
        if (!Slot && Name == "__refcl_sub_group_flags") {
            uint64_t Start = alignTo(F.Bytes, ScratchBytes);
            Slot = F.groupSlot(1, Align(ScratchBytes));
            IRBuilder<> B(F.N.Entry->getTerminator());
            Value *Frames = loadField(B, F.N.Run->getArg(1), G_FRAMES, B.getPtrTy());
            Value *At = B.CreateInBoundsGEP(B.getInt8Ty(), Frames,
                                            B.CreateMul(F.N.FrameItems, B.getInt64(Start)));
            B.CreateMemSet(At, B.getInt8(0), F.N.Items, MaybeAlign(1));
        } else if (!Slot) {
            bool Sub = Name == "__refcl_sub_group_scratch";
            Slot = F.groupSlot(Sub ? SubGroupScratchBytes : ScratchBytes, Align(ScratchBytes));
        }
        Call->replaceAllUsesWith(Slot);
    }
}

} // namespace

// A private array that lives across a barrier gets a frame slot whole, so
// element k of consecutive work-items is an array's size apart and the
// work-item vectorizer sees no consecutive access; its accumulators stay
// in memory. Indexed by the counter of a loop the optimizer would unroll
// anyway (GEMM's tile of accumulators), the array becomes values once
// that loop is unrolled: each value then gets a slot of its own, element
// k of consecutive work-items side by side, and lives in registers
// between barriers. Only the kernel's own loops unroll (or are peeled):
// the nest's are marked not to be for the while.
void scalarizePrivateArrays(Nest &N, FunctionAnalysisManager &FAM)
{
    Function &Run = *N.Run;
    LLVMContext &C = Run.getContext();
    MDNode *Disable = MDNode::get(C, MDString::get(C, "llvm.loop.unroll.disable"));
    for (BasicBlock *Latch : {N.XLatch, N.YLatch, N.ZLatch})
        Latch->getTerminator()->setMetadata(LLVMContext::MD_loop,
                                            makePostTransformationMetadata(C, nullptr, {}, {Disable}));
    FunctionPassManager Unroll;
    Unroll.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(3)));
    Unroll.run(Run, FAM);
    FAM.clear(Run, Run.getName());
    for (BasicBlock *Latch : {N.XLatch, N.YLatch, N.ZLatch})
        Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
    // The unrolled copies end in constant branches, past the last to an
    // unreachable copy indexing beyond the array, which SROA would not
    // split. Folded here without merging blocks: the nest's are named.
    for (BasicBlock &BB : Run)
        ConstantFoldTerminator(&BB, true);
    removeUnreachableBlocks(Run);
    // LCSSA again for the values SROA made: one that a loop computes and
    // a later region uses (an accumulator) is then a phi after the loop,
    // stored to its frame slot once, not in every iteration.
    FunctionPassManager Split;
    Split.addPass(SROAPass());
    Split.addPass(LCSSAPass());
    Split.run(Run, FAM);
    FAM.clear(Run, Run.getName());
}

uint64_t splitAtBarriers(Nest &N, std::vector<CallInst *> &Barriers,
                         FunctionAnalysisManager &FAM)
{
    BasicBlock *Return = N.XLatch->getSinglePredecessor();
    auto *Next = new AllocaInst(Type::getInt32Ty(N.Run->getContext()), 0, "refcl.next",
                                N.Entry->getTerminator());
    Frame F(N);
    // Where a work-item stopped: the group's one value in the work-group
    // nest (barriers are uniform), each work-item's in the sub-group nest
    // (frame slot 0, which scanSubGroup reads).
    Value *Stop = Next;
    if (N.BySubGroup)
        Stop = N.LaneNext = F.slot(4, Align(4));
    if (Return) // else the kernel never returns
        new StoreInst(ConstantInt::get(Next->getAllocatedType(), RegionReturn), Stop,
                      Return->getTerminator());
    UniformValues Uniform(N);
    std::vector<unsigned> SubGroupEntries;
    std::vector<BasicBlock *> Entries = cutAtBarriers(N, Barriers, Stop, SubGroupEntries);
    dispatchRegions(N, Entries, Next, SubGroupEntries);
    F.B.SetInsertPoint(N.XHead->getTerminator()); // the one it made
    placeGroupScratch(F);
    moveAllocasToFrame(F, Next);
    spillCrossRegionValues(F, Uniform, Entries, regionsAsLanes(N, Entries, FAM));
    uint64_t Bytes = alignTo(F.Bytes, REFCL_ABI_ALIGN);
    loopPerRegion(N, Entries); // the nest's blocks are copies from here on
    for (CallInst *Call : groupScratchCalls(N.Run))
        Call->eraseFromParent();
    return Bytes;
}

} // namespace refcl
