// SPDX-License-Identifier: Apache-2.0
// refcl-jam-items: the work-item loop of a kernel whose work-item runs a
// loop of its own, unrolled by W work-items and jammed, so that the SLP
// vectorizer makes one vector lane of each work-item.
//
// LLVM's loop vectorizer widens innermost loops only. The x loop of a
// work-group function is innermost when the kernel has no loop (saxpy),
// and the vectorizer runs its work-items in SIMD lanes; when the work-item
// has a loop (a multiply-add chain, a GEMM's k loop), the x loop is an
// outer loop and each work-item's loop ran alone, one scalar chain at a
// time. Here each instruction of the x loop's body that differs from
// work-item to work-item, or acts on memory, is repeated for W
// consecutive work-items, each copy right after the one before (the
// blocks and branches stay one: every branch in the body must be the
// same for all W work-items), and the x loop steps by W, the work-items
// left over running in a copy of the loop as before. The W copies of an
// operation are side by side and isomorphic: the SLP vectorizer, which
// runs after the loop vectorizer, makes vector operations of them.
//
// The work-items of one x loop run between two barriers: nothing orders
// one's memory operations against another's (OpenCL C 3.0 s6.15.12 and
// the memory model: without a barrier or an atomic, a conflict between
// work-items is a data race), so interleaving their instructions is one
// of the schedules they may run in. An atomic keeps its place within its
// own work-item. Each private variable still in memory (an alloca)
// gets one copy per lane.
//
// An inner loop whose exit test differs from work-item to work-item (a
// trip count of each work-item's own, a search) runs until the last of
// the W work-items leaves it: a work-item whose test said leave runs its
// last iteration again, from the same values, each round after, so that
// what it computed in that iteration is what it leaves the loop with.
// That takes a loop which computes only: no store, no atomic, no call
// with an effect (run again, they would happen twice), and whose only
// exit is its latch's. Where a test before such a loop lets a work-item
// skip it, and the loop computes nothing that may fault (no load: it
// might read out of bounds), the work-item enters it anyway, leaves after
// one iteration, and keeps the values it would have had without it.
//
// A kernel's `int i = get_global_id(0)` narrows the work-item's 64-bit
// index to 32 bits, and its addresses widen i back (a sext or zext, or a
// shl and ashr pair, or an and with a mask): work-item k's widened i is
// not provably i + k, as i might wrap, and the SLP vectorizer makes
// gathers of loads and scatters of stores that are consecutive. Where the
// narrow values all fit their type over the loop (tested once before it,
// which otherwise runs as it was, a copy of it, each work-item alone),
// work-item k's widened value is made work-item 0's plus k steps, and the
// accesses are vector loads and stores.
//
// The work-items left over after the steps of W (a group of 64 where W is
// 128) run W/2, W/4, ... at a time, down to a vector register of them.
//
// A work-item's narrow vectors (float4) are made scalars first. One it
// carries round whose components do not mix (an accumulator times a
// scalar all work-items share) has its copies ordered work-item by
// work-item, so that a register holds whole work-items' vectors, not one
// component of many work-items.
#include "pass.h"
#include "passes.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <vector>

using namespace llvm;

namespace refcl {
namespace {

// Registers of chains carried round the work-item's loop: 4 cycles of FMA
// latency on 2 FMA units need 8 independent vectors, as many as fit in
// this many registers (a float4's three accumulators: 4 vectors each).
constexpr unsigned ChainRegisters = 16;
constexpr unsigned MaxInterleave = 8;
// The most work-items jammed, and the most instructions the body may
// grow to (compile time).
constexpr unsigned MaxLanes = 128;
constexpr unsigned MaxInstructions = 16384;

/** Whether L is a work-group function's x loop (markParallel's). */
bool isWorkItemLoop(const Loop &L)
{
    MDNode *Id = L.getLoopID();
    if (!Id)
        return false;
    for (const MDOperand &Op : Id->operands())
        if (auto *Node = dyn_cast_or_null<MDNode>(Op.get()))
            if (Node->getNumOperands() > 0)
                if (auto *S = dyn_cast<MDString>(Node->getOperand(0)))
                    if (S->getString() == "llvm.loop.parallel_accesses")
                        return true;
    return false;
}

/** Whether L computes vectors (a float4 kernel's): the loop vectorizer
 *  leaves such a loop as it is. */
bool computesVectors(const Loop &L)
{
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB)
            if (I.getType()->isVectorTy() && !isa<ShuffleVectorInst>(I) &&
                !isa<InsertElementInst>(I))
                return true;
    return false;
}

/** The scalar phis the Scalarizer made of one vector phi, component 0
 *  first. */
using Components = std::vector<PHINode *>;

/** The body of one x loop and what is repeated per work-item. */
class Jam {
public:
    explicit Jam(Loop &L) : L(L) {}

    /** Why the loop cannot be jammed, or "" if it can (and then the
     *  varying instructions and the loops to replay are known). */
    std::string check();
    /** Repeats the varying instructions for lanes 1 .. Lanes-1; the loop
     *  then steps by Lanes (its trip count a multiple of them). */
    void apply(unsigned Lanes, const MapVector<Instruction *, APInt> &Steps = {},
               const std::vector<Components> &Whole = {});
    /** The instructions of the body. */
    size_t size() const { return Instructions; }
    /** The inner loops run until every work-item has left them. */
    size_t replayed() const { return Replayed.size(); }
    /** The block whose branch on a work-item's own value check refused. */
    BasicBlock *varyingBranch() const { return VaryingBranch; }
    /** Whether V differs from work-item to work-item. */
    bool varies(const Value *V) const { return Varying.count(V) != 0; }
    /** Whether the work-items compute vectors (widestValue is one). */
    bool computesVectors() const { return WidestIsVector; }
    /** The values the work-item's inner loops carry round (their
     *  headers' phis that differ between work-items), at least 1. */
    unsigned carriedChains() const;
    /** Of Vectors (the scalar phis the Scalarizer made of vector phis,
     *  by component), those in L's body whose component c is made of
     *  component c of the others and of the work-item's vector loads,
     *  besides values all work-items share (a float4 accumulator times a
     *  shared scalar), not of its other components. */
    std::vector<Components> laneWise(const std::vector<Components> &Vectors) const;
    /** The most values one inner loop carries round (its header's phis
     *  that differ between work-items). */
    unsigned widestCarry() const;
    /** The widest value (a scalar, or a vector whole) the work-items
     *  compute in floating point or as an integer vector, else load or
     *  store, in bits. Integer scalars do not count: most are addresses
     *  and indices (64-bit), not the work-item's data. */
    unsigned widestValue();

private:
    Loop &L;
    unsigned Lanes = 1;
    size_t Instructions = 0;
    std::set<const Value *> Varying;
    // Inner loops whose exit test varies, run until every lane is done.
    std::vector<const Loop *> Replayed;
    BasicBlock *VaryingBranch = nullptr;
    bool WidestIsVector = false;
    // Private memory made outside the loop (an alloca, and the addresses
    // into it LICM took out), operands before their users: one per lane.
    std::vector<Instruction *> Privates;
    // Copy[V][k]: work-item k's value of V (Copy[V][0] is V).
    std::map<const Value *, std::vector<Value *>> Copy;

    bool addPrivate(Value *V);
    bool mustRepeat(const Instruction &I) const;
    void propagate();
    const Loop *divergentLoop() const;
    bool isReplayed(const BasicBlock *Latch) const;
    Value *lane(Value *V, unsigned K) const;
    void laneHeaderPhis();
    void repeat(Instruction &I);
    void replay(const Loop &Sub);
    void stepNarrowed(const MapVector<Instruction *, APInt> &Steps);
    /** The phis that differ between work-items in the header of each
     *  loop inside L. */
    std::vector<unsigned> carriedPerLoop() const;
    bool componentOfItsOwn(Value *V, unsigned C,
                           const std::map<const PHINode *, unsigned> &ComponentOf) const;
    void orderByWorkItem(const std::vector<Components> &Whole);
};

bool Jam::mustRepeat(const Instruction &I) const
{
    if (I.isTerminator() || isa<DbgInfoIntrinsic>(I))
        return false;
    if (I.mayHaveSideEffects())
        return true;
    if (auto *Load = dyn_cast<LoadInst>(&I))
        if (!Load->isSimple())
            return true;
    for (const Use &Op : I.operands())
        if (varies(Op.get()))
            return true;
    return false;
}

// Whether V, made outside the loop, is an alloca or an address into one;
// if so it and the chain to the alloca become the lanes' own.
bool Jam::addPrivate(Value *V)
{
    auto *I = dyn_cast<Instruction>(V);
    if (!I || L.contains(I))
        return false;
    if (varies(I))
        return true;
    Value *Base = nullptr;
    if (auto *Gep = dyn_cast<GetElementPtrInst>(I))
        Base = Gep->getPointerOperand();
    else if (isa<CastInst>(I) && I->getType()->isPointerTy())
        Base = I->getOperand(0);
    else if (!isa<AllocaInst>(I))
        return false;
    if (Base && !addPrivate(Base))
        return false;
    Varying.insert(I);
    Privates.push_back(I);
    return true;
}

// Marks varying every instruction of the body that must be repeated per
// work-item, until no more are.
void Jam::propagate()
{
    for (bool Changed = true; Changed;) {
        Changed = false;
        Instructions = 0;
        for (BasicBlock *BB : L.blocks())
            for (Instruction &I : *BB) {
                Instructions++;
                if (!varies(&I) && mustRepeat(I)) {
                    Varying.insert(&I);
                    Changed = true;
                }
            }
    }
}

/** Whether Term is a conditional branch or switch on a value V for
 *  which Varies(V). */
template <typename Pred> bool branchesOn(const Instruction *Term, Pred Varies)
{
    if (auto *Br = dyn_cast<BranchInst>(Term))
        return Br->isConditional() && Varies(Br->getCondition());
    if (auto *Sw = dyn_cast<SwitchInst>(Term))
        return Varies(Sw->getCondition());
    return false;
}

/** An inner loop, not yet to be replayed, left by a test that differs
 *  between work-items; nullptr if there is none. */
const Loop *Jam::divergentLoop() const
{
    auto Varies = [this](const Value *V) { return varies(V); };
    for (const Loop *Sub : L.getLoopsInPreorder()) {
        if (Sub == &L || is_contained(Replayed, Sub))
            continue;
        SmallVector<BasicBlock *, 4> Exiting;
        Sub->getExitingBlocks(Exiting);
        for (const BasicBlock *BB : Exiting)
            if (branchesOn(BB->getTerminator(), Varies))
                return Sub;
    }
    return nullptr;
}

/** Why Sub, whose exit test varies, cannot run again for the work-items
 *  that are done, or "" if it can. */
std::string unreplayable(const Loop &Sub)
{
    if (!Sub.getSubLoops().empty())
        return "holds a loop";
    if (!Sub.getLoopLatch() || Sub.getExitingBlock() != Sub.getLoopLatch() ||
        !Sub.getExitBlock())
        return "has more than one exit";
    for (const BasicBlock *BB : Sub.blocks())
        for (const Instruction &I : *BB) {
            if (I.mayHaveSideEffects())
                return "writes memory";
            if (auto *Load = dyn_cast<LoadInst>(&I))
                if (!Load->isSimple())
                    return "reads memory atomically";
        }
    return "";
}

bool Jam::isReplayed(const BasicBlock *Latch) const
{
    return any_of(Replayed, [Latch](const Loop *Sub) { return Sub->getLoopLatch() == Latch; });
}

std::string Jam::check()
{
    if (!L.getLoopPreheader() || !L.getLoopLatch() || !L.getExitBlock() ||
        L.getExitingBlock() != L.getLoopLatch())
        return "the work-item loop is not in a simple form";
    // The work-item index and the other counters stepping with it.
    for (PHINode &Phi : L.getHeader()->phis()) {
        auto *Step = dyn_cast<BinaryOperator>(
            Phi.getIncomingValueForBlock(L.getLoopLatch()));
        if (!Step || Step->getOpcode() != Instruction::Add ||
            Step->getOperand(0) != &Phi ||
            !L.isLoopInvariant(Step->getOperand(1)))
            return "a value carried from one work-item to the next";
        Varying.insert(&Phi);
    }
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB)
            for (Use &Op : I.operands())
                addPrivate(Op.get());
    propagate();
    // Each work-item leaves a replayed loop with values of its own: what
    // the loop carries varies, and so what uses it.
    while (const Loop *Sub = divergentLoop()) {
        std::string Why = unreplayable(*Sub);
        if (!Why.empty())
            return "a loop whose exit test is the work-item's own " + Why;
        Replayed.push_back(Sub);
        for (const PHINode &Phi : Sub->getHeader()->phis())
            Varying.insert(&Phi);
        propagate();
    }
    auto Varies = [this](const Value *V) { return varies(V); };
    for (BasicBlock *BB : L.blocks()) {
        for (Instruction &I : *BB) {
            if (isa<InvokeInst>(I) || isa<CallBrInst>(I))
                return "an invoke";
            if (I.getType()->isTokenTy())
                return "a token";
        }
        Instruction *Term = BB->getTerminator();
        if (BB == L.getLoopLatch() || isReplayed(BB))
            continue;
        if (!isa<BranchInst>(Term) && !isa<SwitchInst>(Term) && !isa<UnreachableInst>(Term))
            return "a terminator other than a branch";
        if (branchesOn(Term, Varies)) {
            VaryingBranch = BB;
            return "a branch on a value of the work-item's own";
        }
    }
    return "";
}

/** Whether values of type Ty are a work-item's data for widestValue. */
bool isData(Type *Ty)
{
    return Ty->isFPOrFPVectorTy() || (Ty->isVectorTy() && Ty->isIntOrIntVectorTy());
}

unsigned Jam::widestValue()
{
    unsigned Arithmetic = 0, Memory = 0;
    // The body in order, not the set's order of addresses: of two values
    // as wide, the first decides whether the widest is a vector.
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB) {
            if (!varies(&I))
                continue;
            Type *Ty = nullptr;
            bool IsMemory = isa<LoadInst>(I) || isa<StoreInst>(I);
            if (auto *Store = dyn_cast<StoreInst>(&I))
                Ty = Store->getValueOperand()->getType();
            else if (IsMemory || (isData(I.getType()) &&
                                  (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) ||
                                   isa<CallInst>(I) || isa<CastInst>(I) || isa<PHINode>(I))))
                Ty = I.getType();
            if (!Ty || !(Ty->isIntOrIntVectorTy() || Ty->isFPOrFPVectorTy()))
                continue;
            unsigned Bits = Ty->getPrimitiveSizeInBits().getFixedSize();
            unsigned &Widest = IsMemory ? Memory : Arithmetic;
            if (Bits > Widest && !IsMemory)
                WidestIsVector = Ty->isVectorTy();
            Widest = std::max(Widest, Bits);
        }
    if (!Arithmetic)
        WidestIsVector = false;
    return Arithmetic ? Arithmetic : Memory ? Memory : 32;
}

std::vector<unsigned> Jam::carriedPerLoop() const
{
    std::vector<unsigned> Carried;
    for (const Loop *Sub : L.getLoopsInPreorder())
        if (Sub != &L)
            Carried.push_back(count_if(Sub->getHeader()->phis(),
                                       [this](const PHINode &P) { return varies(&P); }));
    return Carried;
}

unsigned Jam::carriedChains() const
{
    std::vector<unsigned> Carried = carriedPerLoop();
    return std::max(1u, std::accumulate(Carried.begin(), Carried.end(), 0u));
}

unsigned Jam::widestCarry() const
{
    std::vector<unsigned> Carried = carriedPerLoop();
    return Carried.empty() ? 1u : std::max(1u, *std::max_element(Carried.begin(), Carried.end()));
}

// Whether V, component C of a vector phi's value, is made of component C
// of the vector phis of ComponentOf and of the work-item's vector loads
// only, besides values all work-items share.
bool Jam::componentOfItsOwn(Value *V, unsigned C,
                            const std::map<const PHINode *, unsigned> &ComponentOf) const
{
    std::vector<Value *> Work{V};
    std::set<Value *> Seen;
    while (!Work.empty()) {
        Value *U = Work.back();
        Work.pop_back();
        if (!varies(U) || !Seen.insert(U).second)
            continue;
        if (auto *Phi = dyn_cast<PHINode>(U)) {
            if (Phi->getNumIncomingValues() == 1) { // LCSSA's
                Work.push_back(Phi->getIncomingValue(0));
                continue;
            }
            auto It = ComponentOf.find(Phi);
            if (It == ComponentOf.end() || It->second != C)
                return false;
            continue;
        }
        if (auto *Extract = dyn_cast<ExtractElementInst>(U)) {
            auto *Index = dyn_cast<ConstantInt>(Extract->getIndexOperand());
            if (!Index || Index->getZExtValue() != C ||
                !isa<LoadInst>(Extract->getVectorOperand()))
                return false;
            continue;
        }
        auto *I = dyn_cast<Instruction>(U);
        if (!I || !L.contains(I) || I->getType()->isVectorTy() || I->mayReadOrWriteMemory())
            return false;
        for (Value *Op : I->operands())
            Work.push_back(Op);
    }
    return true;
}

std::vector<Components> Jam::laneWise(const std::vector<Components> &Vectors) const
{
    std::vector<const Components *> Kept;
    for (const Components &V : Vectors)
        if (L.contains(V[0]) && V[0]->getParent() != L.getHeader())
            Kept.push_back(&V);
    // A vector counts only while those it is made of do.
    for (bool Dropped = true; Dropped;) {
        std::map<const PHINode *, unsigned> ComponentOf;
        for (const Components *V : Kept)
            for (unsigned C = 0; C < V->size(); C++)
                ComponentOf[(*V)[C]] = C;
        auto Mixed = [&](const Components *V) {
            for (unsigned C = 0; C < V->size(); C++) {
                if (!varies((*V)[C]))
                    return true;
                for (Value *In : (*V)[C]->incoming_values())
                    if (!componentOfItsOwn(In, C, ComponentOf))
                        return true;
            }
            return false;
        };
        size_t Before = Kept.size();
        erase_if(Kept, Mixed);
        Dropped = Kept.size() != Before;
    }
    std::vector<Components> Found;
    for (const Components *V : Kept)
        Found.push_back(*V);
    return Found;
}

Value *Jam::lane(Value *V, unsigned K) const
{
    auto It = Copy.find(V);
    return It == Copy.end() ? V : It->second[K];
}

// Work-item k's counters: the header's phis plus k steps, at the top of
// the header, before anything that uses them.
void Jam::laneHeaderPhis()
{
    BasicBlock *Header = L.getHeader();
    IRBuilder<> B(&*Header->getFirstInsertionPt());
    for (PHINode &Phi : Header->phis()) {
        auto *Step = cast<BinaryOperator>(Phi.getIncomingValueForBlock(L.getLoopLatch()));
        std::vector<Value *> &C = Copy[&Phi];
        C.assign(Lanes, &Phi);
        for (unsigned K = 1; K < Lanes; K++)
            C[K] = B.CreateAdd(&Phi, B.CreateMul(Step->getOperand(1),
                                                 ConstantInt::get(Phi.getType(), K)),
                               Phi.getName() + ".lane" + Twine(K));
    }
}

// I's copies for lanes 1 .. Lanes-1, right after I (a phi's among the
// block's phis, its incoming values set once every copy exists).
void Jam::repeat(Instruction &I)
{
    std::vector<Value *> &C = Copy[&I];
    C.assign(Lanes, &I);
    Instruction *After = &I;
    for (unsigned K = 1; K < Lanes; K++) {
        Instruction *New = I.clone();
        if (!New->getType()->isVoidTy())
            New->setName(I.getName() + ".lane" + Twine(K));
        New->insertAfter(After);
        After = New;
        C[K] = New;
    }
}

void Jam::apply(unsigned Count, const MapVector<Instruction *, APInt> &Steps,
                const std::vector<Components> &Whole)
{
    Lanes = Count;
    for (Instruction *P : Privates) {
        repeat(*P);
        for (unsigned K = 1; K < Lanes; K++)
            for (Use &Op : cast<Instruction>(Copy[P][K])->operands())
                Op.set(lane(Op.get(), K));
    }
    laneHeaderPhis();
    std::vector<Instruction *> Repeated;
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB)
            if (varies(&I) && !(isa<PHINode>(I) && BB == L.getHeader()))
                Repeated.push_back(&I);
    for (Instruction *I : Repeated)
        repeat(*I);
    // Operands, now that every copy exists.
    for (Instruction *I : Repeated)
        for (unsigned K = 1; K < Lanes; K++) {
            auto *New = cast<Instruction>(Copy[I][K]);
            for (Use &Op : New->operands())
                Op.set(lane(Op.get(), K));
        }
    // The loop steps by Lanes work-items: each header phi takes the last
    // lane's step; the latch's exit test and the values used after the
    // loop (LCSSA phis in the exit block) are the last lane's.
    unsigned Last = Lanes - 1;
    BasicBlock *Latch = L.getLoopLatch();
    for (PHINode &Phi : L.getHeader()->phis()) {
        Value *Step = Phi.getIncomingValueForBlock(Latch);
        Phi.setIncomingValueForBlock(Latch, lane(Step, Last));
    }
    auto *Exit = cast<BranchInst>(Latch->getTerminator());
    Exit->setCondition(lane(Exit->getCondition(), Last));
    for (PHINode &Phi : L.getExitBlock()->phis())
        Phi.setIncomingValueForBlock(Latch, lane(Phi.getIncomingValueForBlock(Latch), Last));
    for (const Loop *Sub : Replayed)
        replay(*Sub);
    stepNarrowed(Steps);
    orderByWorkItem(Whole);
}

// The copies of each phi of a vector in Whole, made component by
// component (work-items 0 .. Lanes-1 of component 0, then of component
// 1, ...), put in the order of the work-items, each work-item's
// components together: LLVM 15's SLP vectorizer bundles a block's phis
// in their order, a register at a time, and a register then holds whole
// work-items' vectors (4 float4s), each multiplied by a scalar they share
// without a shuffle, instead of component c of 16 work-items, which the
// vector loads and stores must transpose.
void Jam::orderByWorkItem(const std::vector<Components> &Whole)
{
    for (const Components &V : Whole) {
        Instruction *At = V[0]->getParent()->getFirstNonPHI();
        for (unsigned K = 0; K < Lanes; K++)
            for (PHINode *Phi : V)
                cast<Instruction>(lane(Phi, K))->moveBefore(At);
    }
}

// Work-item k's value of each narrowed index I that steps by Steps[I]
// per work-item, within its type: I plus k steps, with no signed wrap.
void Jam::stepNarrowed(const MapVector<Instruction *, APInt> &Steps)
{
    for (const auto &[I, Step] : Steps) {
        if (!varies(I))
            continue;
        for (unsigned K = 1; K < Lanes; K++) {
            auto *Old = cast<Instruction>(Copy[I][K]);
            Constant *Offset = ConstantInt::get(I->getType(), Step * K);
            auto *New = BinaryOperator::CreateNSWAdd(I, Offset, "", Old);
            New->takeName(Old);
            Old->replaceAllUsesWith(New);
            Old->eraseFromParent();
            Copy[I][K] = New;
        }
    }
}

// Sub goes round again while any lane's test says so; a lane whose test
// said leave keeps the values its header's phis had, and so computes its
// last iteration again, the same.
void Jam::replay(const Loop &Sub)
{
    BasicBlock *Latch = Sub.getLoopLatch();
    auto *Br = cast<BranchInst>(Latch->getTerminator());
    bool LeavesOnTrue = !Sub.contains(Br->getSuccessor(0));
    IRBuilder<> B(Br);
    std::vector<Value *> Again(Lanes);
    for (unsigned K = 0; K < Lanes; K++) {
        Value *Test = lane(Br->getCondition(), K);
        Again[K] = LeavesOnTrue ? B.CreateNot(Test, "again" + Twine(K)) : Test;
    }
    // The phis this pass made for lanes 1 .. Lanes-1 are no keys of Copy.
    for (PHINode &Phi : Sub.getHeader()->phis()) {
        if (!Copy.count(&Phi))
            continue;
        for (unsigned K = 0; K < Lanes; K++) {
            auto *Mine = cast<PHINode>(lane(&Phi, K));
            Value *Next = Mine->getIncomingValueForBlock(Latch);
            Mine->setIncomingValueForBlock(
                Latch, B.CreateSelect(Again[K], Next, Mine, Mine->getName() + ".kept"));
        }
    }
    Value *Any = Again[0];
    for (unsigned K = 1; K < Lanes; K++)
        Any = B.CreateOr(Any, Again[K], "again");
    Br->setCondition(LeavesOnTrue ? B.CreateNot(Any, "done") : Any);
}

/** Whether every instruction of the blocks Blocks may run where the
 *  program would not have run it: nothing that faults, nothing that
 *  writes. */
bool speculatable(ArrayRef<BasicBlock *> Blocks)
{
    for (BasicBlock *BB : Blocks)
        for (Instruction &I : *BB)
            if (!I.isTerminator() && !isa<PHINode>(I) && !isa<DbgInfoIntrinsic>(I) &&
                !isSafeToSpeculativelyExecute(&I))
                return false;
    return true;
}

/** The innermost loop G's conditional branch guards, entering it through
 *  one successor (its preheader) and skipping to where its exit leads
 *  through the other; nullptr if G's branch is no such guard. */
Loop *guardedLoop(BasicBlock *G, LoopInfo &LI)
{
    auto *Br = dyn_cast_or_null<BranchInst>(G ? G->getTerminator() : nullptr);
    if (!Br || !Br->isConditional())
        return nullptr;
    for (unsigned Enter = 0; Enter < 2; Enter++) {
        BasicBlock *Pre = Br->getSuccessor(Enter), *Skip = Br->getSuccessor(1 - Enter);
        Loop *Sub = Pre->getSingleSuccessor() ? LI.getLoopFor(Pre->getSingleSuccessor()) : nullptr;
        if (!Sub || !Sub->getSubLoops().empty() || Sub->getLoopPreheader() != Pre ||
            Pre->getSinglePredecessor() != G || !Sub->getExitBlock() ||
            Sub->getExitBlock()->getSingleSuccessor() != Skip ||
            !unreplayable(*Sub).empty())
            continue;
        SmallVector<BasicBlock *, 8> Blocks(Sub->blocks());
        Blocks.push_back(Sub->getLoopPreheader());
        if (speculatable(Blocks))
            return Sub;
    }
    return nullptr;
}

/** Sub, guarded by G's branch, entered by every work-item: one whose
 *  guard said skip leaves after one iteration, and the values it takes
 *  past the loop are those it had when it skipped. */
void unguard(BasicBlock *G, Loop &Sub, DominatorTree &DT)
{
    auto *Guard = cast<BranchInst>(G->getTerminator());
    BasicBlock *Pre = Sub.getLoopPreheader(), *Exit = Sub.getExitBlock();
    BasicBlock *Skip = Exit->getSingleSuccessor();
    IRBuilder<> B(Guard);
    Value *Enters = Guard->getSuccessor(0) == Pre ? Guard->getCondition()
                                                  : B.CreateNot(Guard->getCondition(), "enters");
    auto *Test = cast<BranchInst>(Sub.getLoopLatch()->getTerminator());
    B.SetInsertPoint(Test);
    bool LeavesOnTrue = !Sub.contains(Test->getSuccessor(0));
    Test->setCondition(LeavesOnTrue ? B.CreateOr(Test->getCondition(),
                                                 B.CreateNot(Enters, "skipped"), "leaves")
                                    : B.CreateAnd(Test->getCondition(), Enters, "stays"));
    B.SetInsertPoint(Exit->getTerminator());
    for (PHINode &Phi : Skip->phis()) {
        Value *Skipped = Phi.getIncomingValueForBlock(G);
        Value *Run = Phi.getIncomingValueForBlock(Exit);
        Phi.setIncomingValueForBlock(Exit, B.CreateSelect(Enters, Run, Skipped,
                                                          Phi.getName() + ".entered"));
        Phi.removeIncomingValue(G, false);
    }
    BranchInst::Create(Pre, Guard);
    Guard->eraseFromParent();
    DT.deleteEdge(G, Skip);
}

/** Says in the build log (clang's -Rpass-analysis=refcl-jam-items, which
 *  -cl-refcl-vectorize-report gives) what became of kernel K's work-item
 *  loop L. */
void report(OptimizationRemarkEmitter &ORE, const Loop &L, StringRef Kernel,
            const Twine &What)
{
    ORE.emit([&] {
        return OptimizationRemarkAnalysis("refcl-jam-items", "WorkItems",
                                          L.getStartLoc(), L.getHeader())
               << "kernel " << Kernel << ": " << What.str();
    });
}

/** Keeps on F the most work-items one of its loops runs at a time, for
 *  the table (refcl-work-items-per-step). */
void recordLanes(Function &F, unsigned Lanes)
{
    unsigned Before = 0;
    Attribute Old = F.getFnAttribute(WorkItemsPerStepAttribute);
    if (Old.isStringAttribute() && !Old.getValueAsString().getAsInteger(10, Before) &&
        Before >= Lanes)
        return;
    F.addFnAttr(WorkItemsPerStepAttribute, utostr(Lanes));
}

/** How many of the work-items J checked fill a vector register (16
 *  floats with AVX-512; one float16). */
unsigned perVector(Jam &J, unsigned VectorBits)
{
    // The SLP vectorizer packs scalars, never vectors: a float8 work-item
    // keeps a register of its own, however wide the machine's.
    if (J.computesVectors())
        return 1;
    return std::max(1u, VectorBits / J.widestValue());
}

/** How many work-items to run at a time in the loop J checked: a vector
 *  register of them per chain, as many registers per chain as fit. */
unsigned lanesFor(Jam &J, unsigned VectorBits)
{
    unsigned Interleave = std::min(MaxInterleave, std::max(2u, ChainRegisters / J.carriedChains()));
    // A loop of a trip count of each work-item's own runs as long as the
    // longest of them: two vectors of work-items, not more, wait for it.
    if (J.replayed())
        Interleave = 2;
    return std::min(MaxLanes, perVector(J, VectorBits) * (1u << Log2_32(Interleave)));
}

/** How many work-items to run at a time where each carries vectors of
 *  Width components whole, Elements of them to a register: a register
 *  holds Elements / Width work-items, and as many run as the chain
 *  registers hold of what one inner loop carries round. */
unsigned wholeLanesFor(Jam &J, unsigned Elements, unsigned Width)
{
    return std::clamp<unsigned>(PowerOf2Floor(ChainRegisters * Elements / J.widestCarry()),
                                Elements / Width, MaxLanes);
}

/** Of Whole, the vectors of the first one's width and element type, if
 *  a register (VectorBits) holds a whole number of them, else none; and
 *  in Elements, how many of their elements a register holds. */
std::vector<Components> sameWidth(std::vector<Components> Whole, unsigned VectorBits,
                                  unsigned &Elements)
{
    if (Whole.empty() || Whole[0].size() < 2)
        return {};
    size_t Width = Whole[0].size();
    Type *Element = Whole[0][0]->getType();
    Elements = VectorBits / Element->getPrimitiveSizeInBits();
    if (Elements < Width || Elements % Width)
        return {};
    erase_if(Whole, [Width, Element](const Components &V) {
        return V.size() != Width || V[0]->getType() != Element;
    });
    return Whole;
}

/** The analyses jamLoop keeps up to date. */
struct Analyses {
    LoopInfo &LI;
    ScalarEvolution &SE;
    DominatorTree &DT;
    AssumptionCache &AC;
    const TargetTransformInfo &TTI;
};

/** A 64-bit index made of a narrower integer, signed or not, which steps
 *  by a constant from one work-item to the next while it fits: I steps so
 *  too where the narrow values all fit their type. */
struct Narrowed {
    bool Signed;
    unsigned Bits;
    const SCEV *Start; // I's value for the loop's first work-item, 64-bit
    APInt Step;        // from one work-item to the next, 64-bit
};

/** The narrow value I widens to 64 bits (sext or zext, or as a shl and
 *  ashr pair, or an and with a mask, once LLVM widened it again), its
 *  bits and whether signed; nullptr if I is none. */
Value *widened(Instruction &I, unsigned &Bits, bool &Signed)
{
    using namespace PatternMatch;
    Value *X;
    const APInt *C, *D;
    if (!I.getType()->isIntegerTy(64))
        return nullptr;
    if (match(&I, m_SExt(m_Value(X))) || match(&I, m_ZExt(m_Value(X)))) {
        Bits = X->getType()->getScalarSizeInBits();
        Signed = isa<SExtInst>(I);
        return X;
    }
    if (match(&I, m_AShr(m_Shl(m_Value(X), m_APInt(C)), m_APInt(D))) && *C == *D && C->ult(64)) {
        Bits = 64 - unsigned(C->getZExtValue());
        Signed = true;
        return X;
    }
    if (match(&I, m_And(m_Value(X), m_APInt(C))) && C->isMask()) {
        Bits = C->countTrailingOnes();
        Signed = false;
        return X;
    }
    return nullptr;
}

/** L's 64-bit indices made of narrower values that step by a constant
 *  (at most 2^31) from one work-item to the next. */
MapVector<Instruction *, Narrowed> narrowedIndices(Loop &L, ScalarEvolution &SE)
{
    MapVector<Instruction *, Narrowed> Found;
    Type *I64 = Type::getInt64Ty(L.getHeader()->getContext());
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB) {
            unsigned Bits = 0;
            bool Signed = false;
            Value *X = widened(I, Bits, Signed);
            auto *Rec = X && Bits <= 32 ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(X)) : nullptr;
            if (!Rec || Rec->getLoop() != &L || !Rec->isAffine())
                continue;
            auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
            if (!Step || Step->getAPInt().getBitWidth() > 64)
                continue;
            // The narrow value's steps, within its type: the index's too.
            APInt Wide = Step->getAPInt().sextOrTrunc(64);
            if (Wide.abs().ugt(uint64_t(1) << 31))
                continue;
            const SCEV *Start = Rec->getStart();
            if (Start->getType() != I64)
                Start = Signed ? SE.getSignExtendExpr(Start, I64) : SE.getZeroExtendExpr(Start, I64);
            Found.insert({&I, Narrowed{Signed, Bits, Start, Wide}});
        }
    return Found;
}

/** The test, made at L's preheader, that every index of Indices L takes
 *  fits its narrow type; nullptr if it cannot be made. */
Value *indicesFit(Loop &L, const MapVector<Instruction *, Narrowed> &Indices,
                  ScalarEvolution &SE)
{
    const SCEV *Last = SE.getBackedgeTakenCount(&L);
    Instruction *At = L.getLoopPreheader()->getTerminator();
    SCEVExpander Expander(SE, At->getModule()->getDataLayout(), "refcl.fits");
    if (isa<SCEVCouldNotCompute>(Last) || !Last->getType()->isIntegerTy(64) ||
        !Expander.isSafeToExpandAt(Last, At))
        return nullptr;
    IRBuilder<> B(At);
    Type *I64 = B.getInt64Ty();
    // At most 2^31 work-items: the steps to the last index do not wrap.
    Value *Test = B.CreateICmpULE(Expander.expandCodeFor(Last, I64, At),
                                  B.getInt64(uint64_t(1) << 31));
    for (const auto &[I, N] : Indices) {
        if (!Expander.isSafeToExpandAt(N.Start, At))
            return nullptr;
        const SCEV *End = SE.getAddExpr(N.Start, SE.getMulExpr(SE.getConstant(N.Step), Last));
        APInt Min = N.Signed ? APInt::getSignedMinValue(N.Bits).sext(64) : APInt(64, 0);
        APInt Max = N.Signed ? APInt::getSignedMaxValue(N.Bits).sext(64)
                             : APInt::getMaxValue(N.Bits).zext(64);
        for (const SCEV *Edge : {N.Start, End}) {
            Value *V = Expander.expandCodeFor(Edge, I64, At);
            // One statement each: the order of the instructions is fixed.
            Value *AboveMin = B.CreateICmpSGE(V, B.getInt(Min));
            Value *BelowMax = B.CreateICmpSLE(V, B.getInt(Max));
            Test = B.CreateAnd(Test, B.CreateAnd(AboveMin, BelowMax), "fits");
        }
    }
    return Test;
}

/** L runs where Fits (made in its preheader) holds; a copy of it, which
 *  is not jammed, where it does not. */
void versionLoop(Loop &L, Value *Fits, Analyses &A)
{
    BasicBlock *Check = L.getLoopPreheader();
    BasicBlock *Exit = L.getExitBlock(), *Exiting = L.getExitingBlock();
    BasicBlock *Pre = SplitBlock(Check, Check->getTerminator(), &A.DT, &A.LI, nullptr,
                                 L.getHeader()->getName() + ".fits");
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 16> Blocks;
    Loop *Copy = cloneLoopWithPreheader(Pre, Check, &L, VMap, ".wraps", &A.LI, &A.DT, Blocks);
    remapInstructionsInBlocks(Blocks, VMap);
    Check->getTerminator()->eraseFromParent();
    BranchInst::Create(Pre, Copy->getLoopPreheader(), Fits, Check);
    A.DT.changeImmediateDominator(Exit, Check);
    for (PHINode &Phi : Exit->phis()) {
        Value *V = Phi.getIncomingValueForBlock(Exiting);
        Value *Copied = VMap.count(V) ? static_cast<Value *>(VMap[V]) : V;
        Phi.addIncoming(Copied, cast<BasicBlock>(VMap[Exiting]));
    }
    simplifyLoop(&L, &A.DT, &A.LI, &A.SE, &A.AC, nullptr, false);
    formLCSSARecursively(L, A.DT, &A.LI, &A.SE);
    A.SE.forgetLoop(&L);
}

/** Whether L's narrowed indices that differ between work-items, if it
 *  has some, fit their types in L, which runs only then, a copy of it
 *  otherwise. */
bool indicesFitOrCopy(Loop &L, const Jam &J, Analyses &A)
{
    MapVector<Instruction *, Narrowed> Indices = narrowedIndices(L, A.SE);
    Indices.remove_if([&J](const auto &Entry) { return !J.varies(Entry.first); });
    Value *Fits = Indices.empty() ? nullptr : indicesFit(L, Indices, A.SE);
    if (Fits)
        versionLoop(L, Fits, A);
    return Fits;
}

/** What jamSteps did to a loop. */
struct Jammed {
    bool Split = false;   // its work-items cut into steps of Lanes and a rest
    std::string Why;      // why the steps were not jammed, "" if they were
    Loop *Rest = nullptr; // the copy after it that runs the rest, if any
    size_t Replayed = 0;  // inner loops run until every work-item is done
};

/** Whether Next stores right after Store: the same type, one vector on. */
bool storesNext(StoreInst &Store, StoreInst &Next, const DataLayout &DL,
                ScalarEvolution &SE)
{
    Type *T = Store.getValueOperand()->getType();
    if (Next.getValueOperand()->getType() != T || !Next.isSimple())
        return false;
    const SCEV *Gap = SE.getMinusSCEV(SE.getSCEV(Next.getPointerOperand()),
                                      SE.getSCEV(Store.getPointerOperand()));
    auto *Bytes = dyn_cast<SCEVConstant>(Gap);
    return Bytes && Bytes->getAPInt() == DL.getTypeStoreSize(T).getFixedSize();
}

/** Stores is one wide store of their vectors' elements, in order. */
void storeWhole(const std::vector<StoreInst *> &Stores)
{
    auto *Part = cast<FixedVectorType>(Stores[0]->getValueOperand()->getType());
    unsigned Elements = Part->getNumElements();
    IRBuilder<> B(Stores.back());
    Value *Wide = PoisonValue::get(
        FixedVectorType::get(Part->getElementType(), Elements * Stores.size()));
    for (unsigned K = 0; K < Stores.size(); K++)
        for (unsigned C = 0; C < Elements; C++) {
            Value *V = Stores[K]->getValueOperand();
            Value *Scalar = findScalarElement(V, C);
            if (!Scalar)
                Scalar = B.CreateExtractElement(V, C);
            Wide = B.CreateInsertElement(Wide, Scalar, K * Elements + C);
        }
    StoreInst *One =
        B.CreateAlignedStore(Wide, Stores[0]->getPointerOperand(), Stores[0]->getAlign());
    propagateMetadata(One, SmallVector<Value *, 4>(Stores.begin(), Stores.end()));
    // The parallel loop's access group, which LLVM 15's propagateMetadata
    // intersects with the new store's none.
    MDNode *Group = Stores[0]->getMetadata(LLVMContext::MD_access_group);
    if (all_of(Stores, [Group](const StoreInst *S) {
            return S->getMetadata(LLVMContext::MD_access_group) == Group;
        }))
        One->setMetadata(LLVMContext::MD_access_group, Group);
    for (StoreInst *Store : Stores) {
        Value *Part = Store->getValueOperand();
        Store->eraseFromParent();
        RecursivelyDeleteTriviallyDeadInstructions(Part);
    }
}

// Work-items' whole vectors stored side by side (their frame slots after a
// barrier) are stored a register at a time, from the elements themselves:
// LLVM 15's SLP vectorizer does not merge vector stores, and each
// work-item's vector built for its own store, an outside use of the
// elements, makes it bundle the loop's values one work-item at a time.
void storeRegistersWhole(Loop &L, unsigned VectorBits, ScalarEvolution &SE)
{
    const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
    for (BasicBlock *BB : L.blocks()) {
        std::vector<std::vector<StoreInst *>> Runs;
        std::vector<StoreInst *> Run;
        for (Instruction &I : *BB) {
            auto *Store = dyn_cast<StoreInst>(&I);
            auto *T = Store ? dyn_cast<FixedVectorType>(Store->getValueOperand()->getType())
                            : nullptr;
            unsigned Per = T ? VectorBits / T->getPrimitiveSizeInBits().getFixedSize() : 0;
            if (Store && !Run.empty() && storesNext(*Run.back(), *Store, DL, SE)) {
                Run.push_back(Store);
            } else if (Store || I.mayReadOrWriteMemory()) {
                Run.clear();
                if (Store && T && Per > 1 && Store->isSimple())
                    Run.push_back(Store);
            }
            if (Per > 1 && Run.size() == Per) {
                Runs.push_back(Run);
                Run.clear();
            }
        }
        for (const auto &Whole : Runs)
            storeWhole(Whole);
    }
}

/** Splits L's work-items into steps of Lanes, and the rest, in a copy of
 *  L after it, and jams the steps, the vectors of Whole a work-item's
 *  components together. */
Jammed jamSteps(Loop &L, unsigned Lanes, Analyses &A, bool IndicesFit,
                const std::vector<Components> &Whole = {})
{
    Jammed Done;
    MapVector<Instruction *, APInt> Steps;
    if (IndicesFit)
        for (const auto &[I, N] : narrowedIndices(L, A.SE))
            Steps.insert({I, N.Step});
    Done.Split = UnrollRuntimeLoopRemainder(&L, Lanes, false, true, false, false, &A.LI, &A.SE,
                                            &A.DT, &A.AC, &A.TTI, true, &Done.Rest);
    if (!Done.Split) {
        Done.Why = "no trip count to split";
        return Done;
    }
    // The loop's count is now a multiple of Lanes (a counter of its own
    // tests it).
    Jam After(L);
    Done.Why = After.check();
    if (Done.Why.empty())
        After.apply(Lanes, Steps, Whole);
    Done.Replayed = After.replayed();
    A.SE.forgetLoop(&L);
    return Done;
}

/** Jams L by lanesFor's count of work-items, and the rest of them (fewer:
 *  a group of 64 where 128 run at a time) by halves of it down to a
 *  vector register's worth; returns whether the function changed. */
bool jamLoop(Loop &L, unsigned VectorBits, StringRef Kernel, Analyses &A,
             OptimizationRemarkEmitter &ORE, unsigned &Bundle,
             const std::vector<Components> &Vectors)
{
    bool Changed = simplifyLoop(&L, &A.DT, &A.LI, &A.SE, &A.AC, nullptr, false);
    Changed |= formLCSSARecursively(L, A.DT, &A.LI, &A.SE);
    auto Before = std::make_unique<Jam>(L);
    std::string Why = Before->check();
    // Each guard of a loop with a varying exit test that the work-items
    // may all pass, passed: the test before it is one branch less.
    while (Loop *Sub = guardedLoop(Before->varyingBranch(), A.LI)) {
        unguard(Before->varyingBranch(), *Sub, A.DT);
        A.SE.forgetLoop(&L);
        Before = std::make_unique<Jam>(L);
        Why = Before->check();
        Changed = true;
    }
    unsigned PerVector = perVector(*Before, VectorBits), Elements = 0;
    std::vector<Components> Whole;
    if (Why.empty())
        Whole = sameWidth(Before->laneWise(Vectors), VectorBits, Elements);
    unsigned Width = Whole.empty() ? 0 : Whole[0].size();
    if (Width)
        PerVector = Elements;
    // The work-items a vector register holds.
    unsigned PerRegister = Width ? PerVector / Width : PerVector;
    unsigned Lanes = !Why.empty() ? 1
                     : Width    ? wholeLanesFor(*Before, Elements, Width)
                                : lanesFor(*Before, VectorBits);
    unsigned Fewest = std::max(2u, PerRegister);
    // A long work-item runs fewer at a time, as many as the budget holds:
    // two already hide half the latency of a chain.
    while (Lanes > 2 && Before->size() * Lanes > MaxInstructions)
        Lanes /= 2;
    if (Why.empty() && Before->size() * Lanes > MaxInstructions)
        Why = "the work-item is too long to repeat";
    bool IndicesFit = Why.empty() && indicesFitOrCopy(L, *Before, A);
    Jammed First;
    if (Why.empty()) {
        First = jamSteps(L, Lanes, A, IndicesFit, Whole);
        Why = First.Why;
    }
    Changed |= IndicesFit || First.Split;
    if (!Why.empty()) {
        report(ORE, L, Kernel, "work-items run one at a time: " + Why);
        return Changed;
    }
    if (Width)
        storeRegistersWhole(L, VectorBits, A.SE);
    recordLanes(*L.getHeader()->getParent(), Lanes);
    if (!Before->computesVectors())
        Bundle = std::max(Bundle, PerVector);
    Loop *Rest = First.Rest;
    for (unsigned Count = Lanes / 2; Rest && Count >= Fewest; Count /= 2) {
        Jammed Next = jamSteps(*Rest, Count, A, IndicesFit);
        Rest = Next.Why.empty() ? Next.Rest : nullptr;
    }
    std::string Said = "work-items run " + utostr(Lanes) + " at a time";
    if (First.Replayed)
        Said += ", " + utostr(First.Replayed) + " inner loop(s) until the last of them is done";
    if (Width)
        Said += ", " + utostr(PerRegister) + " to a register, their vectors of " +
                utostr(Width) + " whole";
    report(ORE, L, Kernel, Said);
    return true;
}

/** The work-item loops of F worth jamming: those whose work-item has a
 *  loop; and, where vectors are kept whole (a float16 fills a register),
 *  those that compute them, which the loop vectorizer leaves. A float4
 *  work-item without a loop is not jammed: the SLP vectorizer takes no
 *  lanes out of its vector loads, and W copies of it ran slower than one
 *  work-item at a time. */
std::vector<Loop *> candidates(LoopInfo &LI, bool WholeVectors)
{
    std::vector<Loop *> Found;
    for (Loop *L : LI.getLoopsInPreorder())
        if (isWorkItemLoop(*L) &&
            (!L->getSubLoops().empty() || (WholeVectors && computesVectors(*L))))
            Found.push_back(L);
    return Found;
}

/** Whether a work-item loop of F whose work-item has a loop of its own
 *  computes vectors. */
bool vectorsInLoops(LoopInfo &LI)
{
    for (Loop *L : LI.getLoopsInPreorder())
        if (isWorkItemLoop(*L) && !L->getSubLoops().empty() && computesVectors(*L))
            return true;
    return false;
}

/** Where F's work-items run no loop of their own, its work-item loops
 *  that compute vectors and are faster with the work-items as the lanes
 *  of the loop vectorizer's registers, their vectors made scalars
 *  (elements.cpp): the loop vectorizer takes no loop with vectors. */
std::vector<Loop *> itemsAsLanes(LoopInfo &LI, ScalarEvolution &SE, unsigned VectorBits)
{
    std::vector<Loop *> Found;
    for (Loop *L : LI.getLoopsInPreorder())
        if (isWorkItemLoop(*L)) {
            if (!L->getSubLoops().empty())
                return {};
            if (computesVectors(*L) && laneCosts(L->getBlocks(), *L, SE, VectorBits).lanesPay())
                Found.push_back(L);
        }
    return Found;
}

/** Caps the SLP vectorizer's bundles at Lanes scalars (0: no cap) for
 *  what is left of F's pipeline. A jammed body offers it bundles of every
 *  work-item's copy of an operation: left free, it builds vectors of many
 *  registers and may drop a tree it finds no cheaper than the scalars (an
 *  n-body's third accumulator, 64 scalar FMAs and their extracts per
 *  step); a register's worth at a time, each is taken. LLVM has no limit
 *  per function, only this process-wide option: it is set again for each
 *  function, whose SLP vectorizer runs before the next function's passes
 *  start (the optimizer's function pipeline runs each function through). */
void capSlpBundles(unsigned Lanes)
{
    static cl::Option *const MaxVF = cl::getRegisteredOptions().lookup("slp-max-vf");
    if (MaxVF)
        MaxVF->addOccurrence(0, "slp-max-vf", utostr(Lanes));
}

/** The types of the phis of each block of a work-item loop but its
 *  header, in order, before the Scalarizer; the blocks in the loops'
 *  order, so that what is made of them is the same from build to build
 *  (not in the order of their addresses). */
using BlockPhis = std::vector<std::pair<BasicBlock *, std::vector<Type *>>>;

BlockPhis bodyPhiTypes(LoopInfo &LI)
{
    BlockPhis Types;
    for (Loop *L : LI.getLoopsInPreorder())
        if (isWorkItemLoop(*L))
            for (BasicBlock *BB : L->blocks())
                if (BB != L->getHeader() && !BB->phis().empty()) {
                    Types.emplace_back(BB, std::vector<Type *>());
                    for (PHINode &Phi : BB->phis())
                        Types.back().second.push_back(Phi.getType());
                }
    return Types;
}

/** The scalar phis the Scalarizer made of each vector phi of Before, by
 *  component. It puts them where the vector phi was, component 0 first;
 *  a block whose phis do not follow that is left out. */
std::vector<Components> scalarizedPhis(const BlockPhis &Before)
{
    std::vector<Components> Vectors;
    for (const auto &[Block, Types] : Before) {
        std::vector<Components> Found;
        auto Phi = Block->phis().begin(), End = Block->phis().end();
        bool Follows = true;
        for (Type *Ty : Types) {
            auto *Vector = dyn_cast<FixedVectorType>(Ty);
            unsigned Count = Vector && Phi != End && Phi->getType() != Ty ? Vector->getNumElements() : 1;
            Components V;
            for (; Count && Phi != End; Count--, ++Phi)
                V.push_back(&*Phi);
            Follows = Follows && !Count;
            if (V.size() > 1 && all_of(V, [Vector](PHINode *P) {
                    return P->getType() == Vector->getElementType();
                }))
                Found.push_back(V);
        }
        if (Follows && Phi == End)
            append_range(Vectors, Found);
    }
    return Vectors;
}

/** F's vector arithmetic made scalars (its loads and stores are not:
 *  elements.cpp says why). */
void scalarize(Function &F, FunctionAnalysisManager &AM)
{
    ScalarizerPass Scalarize;
    Scalarize.setScalarizeLoadStore(false);
    AM.invalidate(F, Scalarize.run(F, AM));
}

} // namespace

PreservedAnalyses JamItemsPass::run(Function &F, FunctionAnalysisManager &AM)
{
    capSlpBundles(0);
    StringRef Kernel = F.getName();
    if (!Kernel.consume_front("refcl.run."))
        return PreservedAnalyses::all();
    auto &TTI = AM.getResult<TargetIRAnalysis>(F);
    unsigned VectorBits = vectorRegisterBits(AM, F);
    bool Narrow = narrowVectorsOnly(F, VectorBits);
    bool Scalarized = Narrow && vectorsInLoops(AM.getResult<LoopAnalysis>(F));
    std::vector<Components> Vectors;
    std::vector<Loop *> Lanes;
    if (Narrow && !Scalarized)
        Lanes = itemsAsLanes(AM.getResult<LoopAnalysis>(F),
                             AM.getResult<ScalarEvolutionAnalysis>(F), VectorBits);
    if (!Lanes.empty()) {
        // The others' vectors stay in their loads and stores: the SLP
        // vectorizer makes their arithmetic a work-item's vectors again.
        for (Loop *L : Lanes)
            splitVectorAccesses(*L);
        scalarize(F, AM);
        return PreservedAnalyses::none();
    }
    if (Scalarized) {
        BlockPhis Types = bodyPhiTypes(AM.getResult<LoopAnalysis>(F));
        scalarize(F, AM);
        Vectors = scalarizedPhis(Types);
    }
    std::vector<Loop *> Candidates = candidates(AM.getResult<LoopAnalysis>(F), !Narrow);
    if (Candidates.empty())
        return Scalarized ? PreservedAnalyses::none() : PreservedAnalyses::all();
    Analyses A{AM.getResult<LoopAnalysis>(F), AM.getResult<ScalarEvolutionAnalysis>(F),
               AM.getResult<DominatorTreeAnalysis>(F), AM.getResult<AssumptionAnalysis>(F), TTI};
    bool Changed = Scalarized;
    unsigned Bundle = 0;
    for (Loop *L : Candidates)
        Changed |= jamLoop(*L, VectorBits, Kernel, A,
                           AM.getResult<OptimizationRemarkEmitterAnalysis>(F), Bundle, Vectors);
    capSlpBundles(Bundle);
    if (Bundle)
        hideHalfTruncations(F);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace refcl
