// SPDX-License-Identifier: Apache-2.0
// Kernels with barriers. Every work-item runs from one barrier to the next
// before any runs on, so the kernel becomes a loop over regions: the
// region loop runs all work-items (the z, y, x loops) from the region's
// entry (the kernel's start or the point after a barrier) to the next
// barrier or the return, and then the region they stopped at. Barriers
// are uniform (OpenCL C 3.0, 6.15.12.1: all work-items reach the same
// one), so the next region is one value for the group.
//
// A value defined in one region and used in another, or an alloca, is
// per work-item: it moves into the work-item's frame (group->frames +
// lid_linear * frame_bytes).
#include "pass.h"

#include "refcl/kernel_abi.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace refcl {
namespace {

constexpr uint32_t RegionReturn = UINT32_MAX;

struct Frame {
    Nest &N;
    const DataLayout &DL;
    uint64_t Bytes = 0;
    IRBuilder<> B;

    explicit Frame(Nest &Nst)
        : N(Nst), DL(Nst.Run->getParent()->getDataLayout()),
          B(cast<Instruction>(Nst.FrameBase)->getNextNode())
    {}

    /** A slot of Size bytes aligned to A in the work-item's frame. */
    Value *slot(uint64_t Size, Align A)
    {
        Bytes = alignTo(Bytes, A);
        Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), N.FrameBase, Bytes);
        Bytes += Size;
        return P;
    }
};

// The region entries: the kernel's start (region 0), then the point after
// each barrier; each barrier now records its region and ends the work-item.
std::vector<BasicBlock *> cutAtBarriers(Nest &N, std::vector<CallInst *> &Barriers,
                                        AllocaInst *Next)
{
    std::vector<BasicBlock *> Entries = {N.XBody};
    for (CallInst *Call : Barriers) {
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

void dispatchRegions(Nest &N, const std::vector<BasicBlock *> &Entries, AllocaInst *Next)
{
    Instruction *Old = N.XHead->getTerminator();
    IRBuilder<> B(Old);
    SwitchInst *S = B.CreateSwitch(N.Region, Entries[0], Entries.size() - 1);
    for (unsigned I = 1; I < Entries.size(); I++)
        S->addCase(B.getInt32(I), Entries[I]);
    Old->eraseFromParent();

    Instruction *Ret = N.RLatch->getTerminator();
    B.SetInsertPoint(Ret);
    Value *Region = B.CreateLoad(B.getInt32Ty(), Next, "refcl.next.region");
    BasicBlock *Exit = BasicBlock::Create(N.Run->getContext(), "exit", N.Run);
    B.CreateCondBr(B.CreateICmpEQ(Region, B.getInt32(RegionReturn)), Exit, N.RHead);
    Ret->eraseFromParent();
    ReturnInst::Create(N.Run->getContext(), Exit);
    N.Region->addIncoming(Region, N.RLatch);
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

Instruction *useSite(const Use &U)
{
    auto *User = cast<Instruction>(U.getUser());
    if (auto *Phi = dyn_cast<PHINode>(User))
        return Phi->getIncomingBlock(U)->getTerminator();
    return User;
}

// SSA values that no longer dominate a use (they were defined in an
// earlier region) are stored in the frame where defined, loaded where used.
void spillCrossRegionValues(Frame &F)
{
    DominatorTree DT(*F.N.Run);
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
        Type *T = I->getType();
        Value *Slot = F.slot(F.DL.getTypeAllocSize(T), F.DL.getABITypeAlign(T));
        Instruction *At = I->getNextNode();
        if (isa<PHINode>(I))
            At = &*I->getParent()->getFirstInsertionPt();
        new StoreInst(I, Slot, At);
        for (Use *U : Uses)
            U->set(new LoadInst(T, Slot, I->getName() + ".reload", useSite(*U)));
    }
}

} // namespace

uint64_t splitAtBarriers(Nest &N, std::vector<CallInst *> &Barriers)
{
    BasicBlock *Return = N.XLatch->getSinglePredecessor();
    auto *Next = new AllocaInst(Type::getInt32Ty(N.Run->getContext()), 0, "refcl.next",
                                N.Entry->getTerminator());
    new StoreInst(ConstantInt::get(Next->getAllocatedType(), RegionReturn), Next,
                  Return->getTerminator());
    std::vector<BasicBlock *> Entries = cutAtBarriers(N, Barriers, Next);
    dispatchRegions(N, Entries, Next);
    Frame F(N);
    moveAllocasToFrame(F, Next);
    spillCrossRegionValues(F);
    return alignTo(F.Bytes, REFCL_ABI_ALIGN);
}

} // namespace refcl
