// SPDX-License-Identifier: Apache-2.0
// Combining a work-group's atomic additions. A work-group function runs
// its work-items one after another on one thread, so atomic_add(c, 1) in
// every work-item of a group of 4096 is 4096 locked additions, each a
// cache line taken from the other cores' work-groups. Work-items are
// unordered among themselves between barriers, and OpenCL C's atomic_add,
// atomic_sub, atomic_inc, atomic_dec and atom_* are relaxed: "These were
// equivalent to atomic operations with memory_order_relaxed consistency,
// and memory_scope_work_group scope" (OpenCL C 3.0, OpenCL C 1.x Legacy
// Atomics). So the additions of the work-items of one x loop to one
// address whose old value nobody reads may be made as one, at the end of
// the loop, as if those work-items had run back to back with no other
// thread between them. Only where nothing else in the loop could tell: no
// other atomic, fence or call, and no access that may touch the address
// later in the same work-item.
//
// An address the same in every work-item accumulates in a register; one of
// at most Slots that vary, in a direct-mapped table of addresses and sums
// on the stack.
#include "pass.h"
#include "passes.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <map>

using namespace llvm;

namespace refcl {
namespace {

/** Slots of a varying address's table: a power of 2, a uchar's values. */
constexpr unsigned Slots = 256;
/** Additions a loop makes atomically before it clears its table (2 KiB of
 *  addresses) and uses it: a short row of work-items (a 16 x 16 group's)
 *  never pays for the table. */
constexpr unsigned WarmUp = 64;

bool isCombinable(const Instruction &I)
{
    auto *RMW = dyn_cast<AtomicRMWInst>(&I);
    return RMW && RMW->use_empty() && !RMW->isVolatile() &&
           RMW->getOrdering() == AtomicOrdering::Monotonic &&
           (RMW->getOperation() == AtomicRMWInst::Add ||
            RMW->getOperation() == AtomicRMWInst::Sub);
}

// Whether I orders memory, or may do what the loop cannot see: then no
// addition in its loop is delayed.
bool ordersMemory(const Instruction &I)
{
    if (I.isAtomic())
        return !isCombinable(I);
    if (I.isVolatile())
        return true;
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || isa<MemIntrinsic>(Call) || !Call->mayReadOrWriteMemory())
        return false;
    auto *Intrinsic = dyn_cast<IntrinsicInst>(Call);
    return !Intrinsic || !(Intrinsic->isAssumeLikeIntrinsic() || Intrinsic->isLifetimeStartOrEnd());
}

// The blocks of L a work-item may run after leaving From, within its own
// iteration (not back through the header).
std::set<BasicBlock *> blocksAfter(const Loop &L, BasicBlock *From)
{
    std::set<BasicBlock *> Seen;
    std::vector<BasicBlock *> Work(succ_begin(From), succ_end(From));
    while (!Work.empty()) {
        BasicBlock *BB = Work.back();
        Work.pop_back();
        if (BB == L.getHeader() || !L.contains(BB) || !Seen.insert(BB).second)
            continue;
        Work.insert(Work.end(), succ_begin(BB), succ_end(BB));
    }
    return Seen;
}

// Whether the work-item that made RMW may read or write its address after
// it: the delayed addition would then be seen missing, or be overwritten.
bool touchedAfter(const Loop &L, AtomicRMWInst *RMW, AAResults &AA)
{
    MemoryLocation At = MemoryLocation::getBeforeOrAfter(RMW->getPointerOperand());
    auto Touches = [&](Instruction &I) {
        return &I != RMW && I.mayReadOrWriteMemory() && !isa<AtomicRMWInst>(I) &&
               isModOrRefSet(AA.getModRefInfo(&I, At));
    };
    for (Instruction *I = RMW->getNextNode(); I; I = I->getNextNode())
        if (Touches(*I))
            return true;
    for (BasicBlock *BB : blocksAfter(L, RMW->getParent()))
        for (Instruction &I : *BB)
            if (Touches(I))
                return true;
    return false;
}

bool isWorkItemLoop(const Loop &L)
{
    return findOptionMDForLoop(&L, "llvm.loop.parallel_accesses") != nullptr;
}

// L's additions that may be combined: none if anything in L forbids it.
std::vector<AtomicRMWInst *> combinable(const Loop &L, AAResults &AA)
{
    std::vector<AtomicRMWInst *> Out;
    if (!isWorkItemLoop(L) || !L.getLoopPreheader() || !L.getExitBlock() ||
        !L.hasDedicatedExits())
        return Out;
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB) {
            if (ordersMemory(I))
                return {};
            if (isCombinable(I))
                Out.push_back(cast<AtomicRMWInst>(&I));
        }
    for (AtomicRMWInst *RMW : Out)
        if (touchedAfter(L, RMW, AA))
            return {};
    return Out;
}

// What one addition adds: a subtraction adds the negation (integers wrap).
Value *addend(IRBuilder<> &B, AtomicRMWInst *RMW)
{
    Value *V = RMW->getValOperand();
    return RMW->getOperation() == AtomicRMWInst::Sub ? B.CreateNeg(V) : V;
}

void addAtomically(IRBuilder<> &B, Value *Ptr, Value *Sum, const AtomicRMWInst *Like)
{
    B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, Sum, Like->getAlign(), AtomicOrdering::Monotonic,
                      Like->getSyncScopeID());
}

AllocaInst *stackSlot(Function &F, Type *Ty, const Twine &Name)
{
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    return B.CreateAlloca(Ty, nullptr, Name);
}

// Code at the loop's exit runs before what the exit had: a new block
// after it. Exit stays the block the loop leaves to.
void makeRoomInExit(BasicBlock *Exit)
{
    Exit->splitBasicBlock(Exit->getFirstInsertionPt(), Exit->getName() + ".after");
}

/** Where a loop's combining adds its code: blocks outside the loop, which
 *  stay what they are while the loop's blocks are split. */
struct Ends {
    BasicBlock *Preheader, *Exit;
};

// An address that is the same in every work-item: a sum in a register
// (once promoted), added when the loop ends if it is not 0.
void combineInRegister(Ends E, AtomicRMWInst *RMW, std::vector<AllocaInst *> &Promote)
{
    Function &F = *RMW->getFunction();
    AllocaInst *Sum = stackSlot(F, RMW->getType(), "refcl.atomic.sum");
    Promote.push_back(Sum);
    Constant *Zero = Constant::getNullValue(RMW->getType());
    IRBuilder<> B(E.Preheader->getTerminator());
    B.CreateStore(Zero, Sum);
    B.SetInsertPoint(RMW);
    Value *Before = B.CreateLoad(RMW->getType(), Sum);
    B.CreateStore(B.CreateAdd(Before, addend(B, RMW)), Sum);
    makeRoomInExit(E.Exit);
    B.SetInsertPoint(E.Exit->getTerminator());
    Value *Total = B.CreateLoad(RMW->getType(), Sum);
    Instruction *Then = SplitBlockAndInsertIfThen(B.CreateICmpNE(Total, Zero),
                                                  E.Exit->getTerminator(), false);
    B.SetInsertPoint(Then);
    addAtomically(B, RMW->getPointerOperand(), Total, RMW);
    RMW->eraseFromParent();
}

/** A varying address's table: Slots addresses and their sums, the list of
 *  slots in use, which the loop's end adds and empties, and the additions
 *  made before the table was cleared (WarmUp at most). */
struct Table {
    Type *Ptr, *Int;
    AllocaInst *Addresses, *Sums, *Used, *Count, *Made;
};

Table makeTable(Ends E, AtomicRMWInst *Like, std::vector<AllocaInst *> &Promote)
{
    Function &F = *Like->getFunction();
    LLVMContext &C = F.getContext();
    Table T;
    T.Ptr = Like->getPointerOperand()->getType();
    T.Int = Like->getType();
    T.Addresses = stackSlot(F, ArrayType::get(T.Ptr, Slots), "refcl.atomic.addresses");
    T.Sums = stackSlot(F, ArrayType::get(T.Int, Slots), "refcl.atomic.sums");
    T.Used = stackSlot(F, ArrayType::get(Type::getInt32Ty(C), Slots), "refcl.atomic.used");
    T.Count = stackSlot(F, Type::getInt32Ty(C), "refcl.atomic.count");
    T.Made = stackSlot(F, Type::getInt32Ty(C), "refcl.atomic.made");
    Promote.push_back(T.Count);
    Promote.push_back(T.Made);
    IRBuilder<> B(E.Preheader->getTerminator());
    B.CreateStore(B.getInt32(0), T.Count);
    B.CreateStore(B.getInt32(0), T.Made);
    return T;
}

Value *element(IRBuilder<> &B, AllocaInst *Array, Value *Index)
{
    return B.CreateInBoundsGEP(Array->getAllocatedType(), Array, {B.getInt64(0), Index});
}

// The first WarmUp additions of a loop stay atomic, and the last of them
// clears the table; RMW, after them, goes through it.
void warmUp(Table &T, AtomicRMWInst *RMW)
{
    IRBuilder<> B(RMW);
    Value *Made = B.CreateLoad(B.getInt32Ty(), T.Made);
    Instruction *Early, *Late;
    SplitBlockAndInsertIfThenElse(B.CreateICmpULT(Made, B.getInt32(WarmUp)), RMW, &Early,
                                  &Late);
    RMW->moveBefore(Late);
    B.SetInsertPoint(Early);
    Value *Next = B.CreateAdd(Made, B.getInt32(1));
    B.CreateStore(Next, T.Made);
    B.Insert(RMW->clone());
    Instruction *Clear = SplitBlockAndInsertIfThen(B.CreateICmpEQ(Next, B.getInt32(WarmUp)),
                                                   Early, false);
    B.SetInsertPoint(Clear);
    const DataLayout &DL = RMW->getModule()->getDataLayout();
    B.CreateMemSet(T.Addresses, B.getInt8(0), DL.getTypeAllocSize(T.Addresses->getAllocatedType()),
                   T.Addresses->getAlign());
}

// RMW becomes: the slot its address hashes to holds it, add to its sum;
// the slot is empty, it holds it from now on; else (an address of another
// base sharing the table holds it), the atomic addition as it was.
void combineInTable(Table &T, AtomicRMWInst *RMW)
{
    const DataLayout &DL = RMW->getModule()->getDataLayout();
    IRBuilder<> B(RMW);
    Value *Ptr = RMW->getPointerOperand(), *V = addend(B, RMW);
    unsigned Shift = Log2_64(DL.getTypeStoreSize(T.Int));
    Value *Bits = B.CreatePtrToInt(Ptr, B.getInt64Ty());
    Value *Slot = B.CreateAnd(B.CreateLShr(Bits, Shift), Slots - 1);
    Value *AddressAt = element(B, T.Addresses, Slot), *SumAt = element(B, T.Sums, Slot);
    Value *Held = B.CreateLoad(T.Ptr, AddressAt);
    Instruction *Hit, *Miss;
    SplitBlockAndInsertIfThenElse(B.CreateICmpEQ(Held, Ptr), RMW, &Hit, &Miss);
    B.SetInsertPoint(Hit);
    B.CreateStore(B.CreateAdd(B.CreateLoad(T.Int, SumAt), V), SumAt);
    B.SetInsertPoint(Miss);
    Instruction *Claim, *Taken;
    SplitBlockAndInsertIfThenElse(B.CreateIsNull(Held), Miss, &Claim, &Taken);
    B.SetInsertPoint(Claim);
    Value *Count = B.CreateLoad(B.getInt32Ty(), T.Count);
    B.CreateStore(B.CreateTrunc(Slot, B.getInt32Ty()), element(B, T.Used, Count));
    B.CreateStore(B.CreateAdd(Count, B.getInt32(1)), T.Count);
    B.CreateStore(Ptr, AddressAt);
    B.CreateStore(V, SumAt);
    RMW->moveBefore(Taken);
}

// At the loop's end, every slot in use adds its sum.
void flushTable(BasicBlock *Exit, Table &T, const AtomicRMWInst *Like)
{
    makeRoomInExit(Exit);
    IRBuilder<> B(Exit->getTerminator());
    Value *Count = B.CreateLoad(B.getInt32Ty(), T.Count);
    Instruction *Body = SplitBlockAndInsertIfThen(B.CreateICmpNE(Count, B.getInt32(0)),
                                                  Exit->getTerminator(), false);
    BasicBlock *Loop = Body->getParent(), *After = Loop->getSingleSuccessor();
    B.SetInsertPoint(Body);
    PHINode *I = B.CreatePHI(B.getInt32Ty(), 2, "refcl.atomic.flush");
    I->addIncoming(B.getInt32(0), Exit);
    Value *Slot = B.CreateLoad(B.getInt32Ty(), element(B, T.Used, I));
    Value *Address = B.CreateLoad(T.Ptr, element(B, T.Addresses, Slot));
    addAtomically(B, Address, B.CreateLoad(T.Int, element(B, T.Sums, Slot)), Like);
    Value *Next = B.CreateAdd(I, B.getInt32(1));
    I->addIncoming(Next, Loop);
    Body->eraseFromParent();
    B.SetInsertPoint(Loop);
    B.CreateCondBr(B.CreateICmpULT(Next, Count), Loop, After);
}

// One table per address type (space and integer) among L's varying ones.
void combineVarying(Ends E, const std::vector<AtomicRMWInst *> &Varying,
                    std::vector<AllocaInst *> &Promote)
{
    std::map<std::pair<Type *, Type *>, std::vector<AtomicRMWInst *>> ByType;
    for (AtomicRMWInst *RMW : Varying)
        ByType[{RMW->getPointerOperand()->getType(), RMW->getType()}].push_back(RMW);
    for (auto &[Key, Group] : ByType) {
        Table T = makeTable(E, Group.front(), Promote);
        flushTable(E.Exit, T, Group.front());
        for (AtomicRMWInst *RMW : Group) {
            warmUp(T, RMW);
            combineInTable(T, RMW);
        }
    }
}

// Whether the addresses RMW can take in L have a slot each: a base the
// same in every work-item and an index below Slots (c[i & 63], a
// histogram's bins of a uchar). Other addresses are left atomic: where they
// do not repeat, a table in between made scattered additions over a large
// buffer twice as slow (a locked addition waits for the loads before it).
bool fitsTable(const Loop &L, const AtomicRMWInst *RMW)
{
    auto *GEP = dyn_cast<GetElementPtrInst>(RMW->getPointerOperand());
    if (!GEP || GEP->getNumIndices() != 1 || !L.isLoopInvariant(GEP->getPointerOperand()))
        return false;
    const DataLayout &DL = RMW->getModule()->getDataLayout();
    uint64_t Stride = DL.getTypeAllocSize(GEP->getSourceElementType());
    uint64_t Bytes = DL.getTypeStoreSize(RMW->getType());
    if (Stride != Bytes && Stride != 1)
        return false;
    KnownBits Index = computeKnownBits(GEP->getOperand(1), DL);
    return Index.getMaxValue().ult(Slots * Bytes / Stride);
}

// Returns whether any addition of L was combined.
bool combineLoop(Loop &L, const std::vector<AtomicRMWInst *> &All,
                 std::vector<AllocaInst *> &Promote)
{
    Ends E{L.getLoopPreheader(), L.getExitBlock()};
    std::vector<AtomicRMWInst *> InTable;
    bool Changed = false;
    for (AtomicRMWInst *RMW : All) {
        if (L.isLoopInvariant(RMW->getPointerOperand())) {
            combineInRegister(E, RMW, Promote);
            Changed = true;
        } else if (fitsTable(L, RMW)) {
            InTable.push_back(RMW);
        }
    }
    combineVarying(E, InTable, Promote);
    return Changed || !InTable.empty();
}

} // namespace

bool combineAtomics(Function &F, LoopInfo &LI, AAResults &AA)
{
    // Every loop is looked at before any changes: LoopInfo does not know
    // the blocks a change makes.
    std::vector<std::pair<Loop *, std::vector<AtomicRMWInst *>>> Work;
    for (Loop *L : LI.getLoopsInPreorder())
        if (std::vector<AtomicRMWInst *> All = combinable(*L, AA); !All.empty())
            Work.emplace_back(L, std::move(All));
    std::vector<AllocaInst *> Promote;
    bool Changed = false;
    for (auto &[L, All] : Work)
        Changed |= combineLoop(*L, All, Promote);
    if (!Changed)
        return false;
    DominatorTree DT(F);
    PromoteMemToReg(Promote, DT);
    return true;
}

// Only work-group functions have work-item loops.
PreservedAnalyses AtomicsPass::run(Function &F, FunctionAnalysisManager &AM)
{
    if (!F.getName().startswith("refcl.run.") ||
        !combineAtomics(F, AM.getResult<LoopAnalysis>(F), AM.getResult<AAManager>(F)))
        return PreservedAnalyses::all();
    return PreservedAnalyses::none();
}

} // namespace refcl
