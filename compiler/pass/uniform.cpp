// SPDX-License-Identifier: Apache-2.0
// Which of a kernel's values are the same in every work-item of a group.
// A value is uniform when it is computed, without reading memory other
// work-items may write, from the kernel's arguments, the group's fields
// (get_group_id, get_local_size ...: loaded in the nest's entry) and
// constants, along control flow that does not diverge. It is divergent
// when it depends on a local id (get_local_id, get_global_id ...), on a
// load of shared memory, on a call with effects, or is a phi that joins
// paths a divergent branch chose between (pessimistic: every phi between
// the branch and the point where its paths meet again).
#include "pass.h"

#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace refcl {
namespace {

bool isNestBlock(const Nest &N, const BasicBlock *BB)
{
    return BB == N.Entry || BB == N.RHead || BB == N.ZHead || BB == N.YHead ||
           BB == N.XHead || BB == N.XLatch || BB == N.YLatch || BB == N.ZLatch ||
           BB == N.RLatch;
}

// Constant memory is read-only while a kernel runs (address space 2 in
// clang's fake map): a uniform address reads one value in every work-item.
bool readsConstantMemory(const LoadInst &L)
{
    return L.getPointerAddressSpace() == 2 && !L.isVolatile() && L.isUnordered();
}

struct Divergence {
    const Nest &N;
    std::set<const Value *> Divergent;
    std::set<const BasicBlock *> JoinBlocks; // whose phis are divergent
    std::vector<const Instruction *> Work;

    explicit Divergence(const Nest &Nst) : N(Nst) {}

    void mark(const Value *V)
    {
        auto *I = dyn_cast<Instruction>(V);
        if (I && Divergent.insert(I).second)
            Work.push_back(I);
    }

    // Whether I is divergent whatever its operands are.
    bool divergentBySelf(const Instruction &I) const
    {
        if (isa<AllocaInst>(I) || I.isAtomic())
            return true;
        if (auto *L = dyn_cast<LoadInst>(&I))
            return !readsConstantMemory(*L);
        if (auto *Call = dyn_cast<CallBase>(&I))
            return !Call->doesNotAccessMemory() || Call->isConvergent();
        return false; // a phi: markJoins says
    }

    void seed(Function &Run)
    {
        for (Value *Lid : N.Lid)
            mark(Lid);
        mark(N.Lin);
        // The kernel's allocas are in the entry (the inliner put them there).
        for (Instruction &I : instructions(Run))
            if (isa<AllocaInst>(I) || (!isNestBlock(N, I.getParent()) && divergentBySelf(I)))
                mark(&I);
    }

    // The blocks a divergent branch at BB reaches before its paths meet
    // again at its immediate post-dominator (that one included): their
    // phis choose by the work-item.
    void markJoins(const BasicBlock *BB, const PostDominatorTree &PDT)
    {
        const DomTreeNode *Node = PDT.getNode(BB);
        const DomTreeNode *IDom = Node ? Node->getIDom() : nullptr;
        const BasicBlock *Meet = IDom ? IDom->getBlock() : nullptr;
        std::vector<const BasicBlock *> Blocks(succ_begin(BB), succ_end(BB));
        SmallPtrSet<const BasicBlock *, 32> Seen(Blocks.begin(), Blocks.end());
        for (size_t K = 0; K < Blocks.size(); K++) {
            const BasicBlock *B = Blocks[K];
            if (isNestBlock(N, B))
                continue;
            if (JoinBlocks.insert(B).second)
                for (const PHINode &Phi : B->phis())
                    mark(&Phi);
            if (B == Meet)
                continue;
            for (const BasicBlock *S : successors(B))
                if (Seen.insert(S).second)
                    Blocks.push_back(S);
        }
    }

    void propagate(const PostDominatorTree &PDT)
    {
        while (!Work.empty()) {
            const Instruction *I = Work.back();
            Work.pop_back();
            if (I->isTerminator() && !isNestBlock(N, I->getParent()))
                markJoins(I->getParent(), PDT);
            for (const User *U : I->users())
                if (auto *UI = dyn_cast<Instruction>(U); UI && !isNestBlock(N, UI->getParent()))
                    mark(UI);
        }
    }
};

} // namespace

UniformValues::UniformValues(const Nest &N)
{
    Divergence D(N);
    PostDominatorTree PDT(*N.Run);
    D.seed(*N.Run);
    D.propagate(PDT);
    // Instructions made later (the barrier split's) are not uniform.
    for (Instruction &I : instructions(*N.Run))
        if ((I.getParent() == N.Entry || !isNestBlock(N, I.getParent())) &&
            !D.Divergent.count(&I))
            Uniform.insert(&I);
}

bool UniformValues::isUniform(const Value *V) const
{
    return !isa<Instruction>(V) || Uniform.count(V);
}

} // namespace refcl
