// SPDX-License-Identifier: Apache-2.0
// A kernel's work-group function: the arguments loaded from their slots,
// the loops over the local ids (z, y, x; x innermost) around the inlined
// kernel, the work-item functions read from the group and the loop
// counters, the kernel-scope __local variables placed in group->local_mem.
// A sub-group is a run of SubGroupSize consecutive local linear ids; a
// kernel with sub-group barriers runs its work-items sub-group by
// sub-group (the sub-group nest, pass.h).
#include "pass.h"
#include "passes.h"

#include "refcl/kernel_abi.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

using namespace llvm;

namespace refcl {

StructType *groupType(LLVMContext &C)
{
    Type *I32 = Type::getInt32Ty(C), *A3 = ArrayType::get(Type::getInt64Ty(C), 3);
    Type *Ptr = PointerType::get(C, 0);
    return StructType::get(C, {I32, I32, A3, A3, A3, A3, A3, A3, Ptr, Ptr, Ptr});
}

void loadTriple(IRBuilder<> &B, Value *Group, GroupField F, Value *Out[3])
{
    StructType *T = groupType(B.getContext());
    for (unsigned D = 0; D < 3; D++) {
        Value *P = B.CreateInBoundsGEP(T, Group, {B.getInt32(0), B.getInt32(F), B.getInt32(D)});
        auto *L = B.CreateAlignedLoad(B.getInt64Ty(), P, Align(8));
        L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(B.getContext(), {}));
        Out[D] = L;
    }
}

Value *loadField(IRBuilder<> &B, Value *Group, GroupField F, Type *Ty)
{
    Value *P = B.CreateConstInBoundsGEP2_32(groupType(B.getContext()), Group, 0, F);
    // local_bytes is the 32-bit field after work_dim, 4 bytes in.
    return B.CreateAlignedLoad(Ty, P, Align(F == G_LOCAL_BYTES ? 4 : 8));
}

namespace {

enum WorkItem {
    WI_NONE, WI_WORK_DIM, WI_GLOBAL_SIZE, WI_GLOBAL_ID, WI_LOCAL_SIZE,
    WI_ENQUEUED_LOCAL_SIZE, WI_LOCAL_ID, WI_NUM_GROUPS, WI_GROUP_ID,
    WI_GLOBAL_OFFSET, WI_GLOBAL_LINEAR_ID, WI_LOCAL_LINEAR_ID,
    WI_SUB_GROUP_SIZE, WI_MAX_SUB_GROUP_SIZE, WI_NUM_SUB_GROUPS,
    WI_ENQUEUED_NUM_SUB_GROUPS, WI_SUB_GROUP_ID, WI_SUB_GROUP_LOCAL_ID
};

// The names clang-15 gives the work-item functions of opencl-c-base.h
// (size_t f(uint) and size_t f(void)).
WorkItem workItemOf(const Function *F)
{
    if (!F)
        return WI_NONE;
    return StringSwitch<WorkItem>(F->getName())
        .Case("_Z12get_work_dimv", WI_WORK_DIM)
        .Case("_Z15get_global_sizej", WI_GLOBAL_SIZE)
        .Case("_Z13get_global_idj", WI_GLOBAL_ID)
        .Case("_Z14get_local_sizej", WI_LOCAL_SIZE)
        .Case("_Z23get_enqueued_local_sizej", WI_ENQUEUED_LOCAL_SIZE)
        .Case("_Z12get_local_idj", WI_LOCAL_ID)
        .Case("_Z14get_num_groupsj", WI_NUM_GROUPS)
        .Case("_Z12get_group_idj", WI_GROUP_ID)
        .Case("_Z17get_global_offsetj", WI_GLOBAL_OFFSET)
        .Case("_Z20get_global_linear_idv", WI_GLOBAL_LINEAR_ID)
        .Case("_Z19get_local_linear_idv", WI_LOCAL_LINEAR_ID)
        .Case("_Z18get_sub_group_sizev", WI_SUB_GROUP_SIZE)
        .Case("_Z22get_max_sub_group_sizev", WI_MAX_SUB_GROUP_SIZE)
        .Case("_Z18get_num_sub_groupsv", WI_NUM_SUB_GROUPS)
        .Case("_Z27get_enqueued_num_sub_groupsv", WI_ENQUEUED_NUM_SUB_GROUPS)
        .Case("_Z16get_sub_group_idv", WI_SUB_GROUP_ID)
        .Case("_Z22get_sub_group_local_idv", WI_SUB_GROUP_LOCAL_ID)
        .Default(WI_NONE);
}

bool isLocalVariable(const GlobalVariable &G)
{
    return G.getAddressSpace() == 3;
}

void addUsingFunctions(const Value *V, std::set<Function *> &Out)
{
    for (const User *U : V->users()) {
        if (auto *I = dyn_cast<Instruction>(U))
            Out.insert(const_cast<Function *>(I->getFunction()));
        else if (isa<ConstantExpr>(U))
            addUsingFunctions(U, Out);
    }
}

void loadGroup(IRBuilder<> &B, Value *Group, Nest &N)
{
    N.WorkDim = B.CreateAlignedLoad(B.getInt32Ty(), Group, Align(8));
    loadTriple(B, Group, G_OFFSET, N.Offset);
    loadTriple(B, Group, G_GLOBAL_SIZE, N.GlobalSize);
    loadTriple(B, Group, G_ENQUEUED, N.Enqueued);
    loadTriple(B, Group, G_NUM_GROUPS, N.NumGroups);
    loadTriple(B, Group, G_GROUP_ID, N.GroupId);
    loadTriple(B, Group, G_LOCAL_SIZE, N.LocalSize);
    N.LocalMem = loadField(B, Group, G_LOCAL_MEM, B.getPtrTy());
}

// An argument from its 8-byte slot (kernel_abi.h): pointers and values of
// up to 8 bytes in place, larger values through a pointer to a copy; a
// byval aggregate is passed as the address of its bytes (the inliner gives
// each work-item its own copy).
Value *loadArgument(IRBuilder<> &B, Argument &A, Value *Slots)
{
    const DataLayout &DL = A.getParent()->getParent()->getDataLayout();
    Value *Slot = B.CreateConstInBoundsGEP1_32(B.getInt64Ty(), Slots, A.getArgNo());
    Type *Ty = A.getType();
    if (A.hasByValAttr()) {
        uint64_t Size = DL.getTypeAllocSize(A.getParamByValType());
        Value *P = Size <= 8 ? Slot : B.CreateAlignedLoad(B.getPtrTy(), Slot, Align(8));
        return B.CreatePointerBitCastOrAddrSpaceCast(P, Ty);
    }
    if (Ty->isPointerTy() || DL.getTypeAllocSize(Ty) <= 8)
        return B.CreateAlignedLoad(Ty, Slot, Align(8));
    Value *Copy = B.CreateAlignedLoad(B.getPtrTy(), Slot, Align(8));
    return B.CreateAlignedLoad(Ty, Copy, DL.getABITypeAlign(Ty));
}

BasicBlock *block(Function *F, const char *Name)
{
    return BasicBlock::Create(F->getContext(), Name, F);
}

// One loop of the nest: Head holds the counter, Latch counts up to Size
// (at least 1: a do-while loop) and leaves to Exit.
PHINode *makeLoop(BasicBlock *Pre, BasicBlock *Head, BasicBlock *Latch,
                  BasicBlock *Exit, Value *Size)
{
    IRBuilder<> B(Head);
    PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "refcl.lid");
    I->addIncoming(B.getInt64(0), Pre);
    B.SetInsertPoint(Latch);
    Value *Next = B.CreateNUWAdd(I, B.getInt64(1));
    B.CreateCondBr(B.CreateICmpULT(Next, Size), Head, Exit);
    I->addIncoming(Next, Latch);
    return I;
}

// The work-group nest: the region loop around the z, y, x loops.
void buildGroupNest(Nest &N)
{
    Function *Run = N.Run;
    N.Entry = block(Run, "entry");
    N.RHead = block(Run, "region");
    BasicBlock *ZHead = N.ZHead = block(Run, "z"), *YHead = N.YHead = block(Run, "y");
    N.XHead = block(Run, "x");
    N.XBody = block(Run, "body");
    N.XLatch = block(Run, "x.latch");
    BasicBlock *YLatch = N.YLatch = block(Run, "y.latch");
    BasicBlock *ZLatch = N.ZLatch = block(Run, "z.latch");
    N.RLatch = block(Run, "region.latch");

    IRBuilder<> B(N.Entry);
    loadGroup(B, Run->getArg(1), N);
    N.Items = B.CreateMul(B.CreateMul(N.LocalSize[0], N.LocalSize[1]), N.LocalSize[2]);
    B.CreateBr(N.RHead);
    B.SetInsertPoint(N.RHead);
    N.Region = B.CreatePHI(B.getInt32Ty(), 2, "refcl.region");
    N.Region->addIncoming(B.getInt32(0), N.Entry);
    B.CreateBr(ZHead);
    N.Lid[2] = makeLoop(N.RHead, ZHead, ZLatch, N.RLatch, N.LocalSize[2]);
    B.SetInsertPoint(ZHead);
    B.CreateBr(YHead);
    N.Lid[1] = makeLoop(ZHead, YHead, YLatch, ZLatch, N.LocalSize[1]);
    B.SetInsertPoint(YHead);
    B.CreateBr(N.XHead);
    N.Lid[0] = makeLoop(YHead, N.XHead, N.XLatch, YLatch, N.LocalSize[0]);

    B.SetInsertPoint(N.XHead);
    Value *Row = B.CreateAdd(B.CreateMul(N.Lid[2], N.LocalSize[1]), N.Lid[1]);
    N.LinRow = B.CreateMul(Row, N.LocalSize[0], "refcl.lin.row");
    N.LinStep = N.Lid[0];
    N.Lin = B.CreateAdd(N.LinRow, N.LinStep, "refcl.lin");
    N.FrameBase = loadField(B, Run->getArg(1), G_FRAMES, B.getPtrTy());
    B.CreateBr(N.XBody);
    B.SetInsertPoint(N.RLatch);
    B.CreateRetVoid();
    N.Dispatch = N.RHead;
    N.Heads = {ZHead, YHead, N.XHead};
    N.Latches = {N.XLatch, YLatch, ZLatch};
}

// (n + S - 1) / S: the sub-groups of n work-items.
Value *subGroupsOf(IRBuilder<> &B, const Nest &N, Value *Items)
{
    return B.CreateUDiv(B.CreateAdd(Items, B.getInt64(N.SubGroupSize - 1)),
                        B.getInt64(N.SubGroupSize));
}

// The sub-group nest: the work-group's region loop around the sub-group
// loop (z), each sub-group's region loop (y) and its work-items (x), whose
// local ids come from the linear one. A sub-group runs region after region
// until its work-items reach a work-group barrier or return, then the next
// sub-group does (the sub-group barriers are the y loop's back edge, the
// work-group ones the region loop's).
void buildSubGroupNest(Nest &N)
{
    Function *Run = N.Run;
    N.Entry = block(Run, "entry");
    N.RHead = block(Run, "region");
    N.ZHead = block(Run, "sub.group");
    N.YHead = block(Run, "sub.region");
    N.XHead = block(Run, "x");
    N.XBody = block(Run, "body");
    N.XLatch = block(Run, "x.latch");
    N.YLatch = block(Run, "sub.region.latch");
    N.ZLatch = block(Run, "sub.group.latch");
    N.RLatch = block(Run, "region.latch");

    IRBuilder<> B(N.Entry);
    loadGroup(B, Run->getArg(1), N);
    N.Items = B.CreateMul(B.CreateMul(N.LocalSize[0], N.LocalSize[1]), N.LocalSize[2]);
    Value *Groups = subGroupsOf(B, N, N.Items);
    B.CreateBr(N.RHead);
    B.SetInsertPoint(N.RHead);
    PHINode *GroupRegion = B.CreatePHI(B.getInt32Ty(), 2, "refcl.group.region");
    GroupRegion->addIncoming(B.getInt32(0), N.Entry);
    B.CreateBr(N.ZHead);
    PHINode *Sg = makeLoop(N.RHead, N.ZHead, N.ZLatch, N.RLatch, Groups);
    Sg->setName("refcl.sub.group");
    B.SetInsertPoint(N.ZHead);
    Value *Base = B.CreateMul(Sg, B.getInt64(N.SubGroupSize), "refcl.sub.group.base");
    Value *Size = B.CreateSub(N.Items, Base);
    Size = B.CreateSelect(B.CreateICmpULT(Size, B.getInt64(N.SubGroupSize)), Size,
                          B.getInt64(N.SubGroupSize), "refcl.sub.group.size");
    B.CreateBr(N.YHead);
    B.SetInsertPoint(N.YHead);
    N.Region = B.CreatePHI(B.getInt32Ty(), 2, "refcl.region");
    N.Region->addIncoming(GroupRegion, N.ZHead);
    N.FirstPass = B.CreatePHI(B.getInt1Ty(), 2, "refcl.first.pass");
    N.FirstPass->addIncoming(B.getTrue(), N.ZHead);
    N.SubGroupBase = Base;
    N.SubGroupItems = Size;
    B.CreateBr(N.XHead);
    PHINode *Lane = makeLoop(N.YHead, N.XHead, N.XLatch, N.YLatch, Size);
    Lane->setName("refcl.lane");

    B.SetInsertPoint(N.XHead);
    N.LinRow = Base;
    N.LinStep = Lane;
    N.Lin = B.CreateAdd(Base, Lane, "refcl.lin");
    Value *Row = B.CreateUDiv(N.Lin, N.LocalSize[0]);
    N.Lid[0] = B.CreateURem(N.Lin, N.LocalSize[0]);
    N.Lid[1] = B.CreateURem(Row, N.LocalSize[1]);
    N.Lid[2] = B.CreateUDiv(Row, N.LocalSize[1]);
    N.FrameBase = loadField(B, Run->getArg(1), G_FRAMES, B.getPtrTy());
    B.CreateBr(N.XBody);
    // The region latches are the barrier split's (dispatchRegions).
    B.SetInsertPoint(N.YLatch);
    B.CreateBr(N.ZLatch);
    B.SetInsertPoint(N.RLatch);
    B.CreateRetVoid();
    N.Dispatch = N.YHead;
    N.Heads = {N.XHead};
    N.Latches = {N.XLatch};
}

void buildNest(Nest &N)
{
    if (N.BySubGroup)
        buildSubGroupNest(N);
    else
        buildGroupNest(N);
}

Value *byDim(IRBuilder<> &B, Value *Dim, Value *const Vals[3], Value *Neutral)
{
    if (auto *CI = dyn_cast<ConstantInt>(Dim))
        return CI->getZExtValue() < 3 ? Vals[CI->getZExtValue()] : Neutral;
    Value *V = Neutral;
    for (int D = 2; D >= 0; D--)
        V = B.CreateSelect(B.CreateICmpEQ(Dim, B.getInt32(D)), Vals[D], V);
    return V;
}

// get_global_id(d) - get_global_offset(d) for the three dimensions.
void globalIdsFromZero(IRBuilder<> &B, const Nest &N, Value *Out[3])
{
    for (unsigned D = 0; D < 3; D++)
        Out[D] = B.CreateAdd(B.CreateMul(N.GroupId[D], N.Enqueued[D]), N.Lid[D]);
}

// The sub-group work-item functions (OpenCL C "Work-Item Functions"): sub-group k
// is the local linear ids k * S to k * S + S - 1, the last one cut at the
// group's size: "all sub-groups within a work-group will be the same size,
// apart from the sub-group with the maximum index which may be smaller"
// (OpenCL 3.0 s3.2.1).
Value *subGroupValue(IRBuilder<> &B, const Nest &N, WorkItem W)
{
    Value *S = B.getInt64(N.SubGroupSize);
    auto Min = [&](Value *A, Value *C) { return B.CreateSelect(B.CreateICmpULT(A, C), A, C); };
    switch (W) {
    case WI_SUB_GROUP_ID: return B.CreateUDiv(N.Lin, S);
    case WI_SUB_GROUP_LOCAL_ID: return B.CreateURem(N.Lin, S);
    case WI_SUB_GROUP_SIZE:
        return Min(B.CreateSub(N.Items, B.CreateMul(B.CreateUDiv(N.Lin, S), S)), S);
    case WI_NUM_SUB_GROUPS: return subGroupsOf(B, N, N.Items);
    // "the maximum size of a sub-group within the dispatch": a group of the
    // enqueued size has the largest sub-groups.
    case WI_MAX_SUB_GROUP_SIZE:
    case WI_ENQUEUED_NUM_SUB_GROUPS: {
        Value *Enqueued = B.CreateMul(B.CreateMul(N.Enqueued[0], N.Enqueued[1]), N.Enqueued[2]);
        return W == WI_MAX_SUB_GROUP_SIZE ? Min(Enqueued, S) : subGroupsOf(B, N, Enqueued);
    }
    default: return nullptr;
    }
}

Value *workItemValue(IRBuilder<> &B, const Nest &N, WorkItem W, CallInst *Call)
{
    Value *Dim = Call->arg_size() ? Call->getArgOperand(0) : nullptr;
    Value *Zero = B.getInt64(0), *One = B.getInt64(1);
    Value *Ids[3];
    switch (W) {
    case WI_WORK_DIM: return N.WorkDim;
    case WI_GLOBAL_SIZE: return byDim(B, Dim, N.GlobalSize, One);
    case WI_LOCAL_SIZE: return byDim(B, Dim, N.LocalSize, One);
    case WI_ENQUEUED_LOCAL_SIZE: return byDim(B, Dim, N.Enqueued, One);
    case WI_NUM_GROUPS: return byDim(B, Dim, N.NumGroups, One);
    case WI_GROUP_ID: return byDim(B, Dim, N.GroupId, Zero);
    case WI_GLOBAL_OFFSET: return byDim(B, Dim, N.Offset, Zero);
    case WI_LOCAL_ID: return byDim(B, Dim, N.Lid, Zero);
    case WI_LOCAL_LINEAR_ID: return N.Lin;
    case WI_GLOBAL_ID:
        globalIdsFromZero(B, N, Ids);
        for (unsigned D = 0; D < 3; D++)
            Ids[D] = B.CreateAdd(Ids[D], N.Offset[D]);
        return byDim(B, Dim, Ids, Zero);
    case WI_GLOBAL_LINEAR_ID:
        globalIdsFromZero(B, N, Ids);
        return B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(Ids[2], N.GlobalSize[1]),
                                                   Ids[1]), N.GlobalSize[0]), Ids[0]);
    case WI_NONE: break;
    default: return subGroupValue(B, N, W);
    }
    return nullptr;
}

void replaceWorkItemCalls(Nest &N)
{
    for (Instruction &I : make_early_inc_range(instructions(N.Run))) {
        auto *Call = dyn_cast<CallInst>(&I);
        WorkItem W = Call ? workItemOf(Call->getCalledFunction()) : WI_NONE;
        if (W == WI_NONE)
            continue;
        IRBuilder<> B(Call);
        Value *V = workItemValue(B, N, W, Call);
        Call->replaceAllUsesWith(B.CreateZExtOrTrunc(V, Call->getType()));
        Call->eraseFromParent();
    }
}

// Inlines every call of Run to a defined function that Wanted picks, until
// none is left, calling EachRound before each round's search. The calls
// are collected before any is inlined: inlining splits the caller's block,
// which an iterator over Run's instructions does not survive (it walked
// the new block's list past its end, forever).
void inlineUntilNone(Function &Run, function_ref<bool(CallInst &, Function &)> Wanted,
                     function_ref<void()> EachRound = [] {})
{
    for (bool Changed = true; Changed;) {
        Changed = false;
        EachRound();
        std::vector<CallInst *> Calls;
        for (Instruction &I : instructions(Run))
            if (auto *Call = dyn_cast<CallInst>(&I))
                if (Function *F = Call->getCalledFunction(); F && !F->isDeclaration() &&
                    Wanted(*Call, *F))
                    Calls.push_back(Call);
        for (CallInst *Call : Calls) {
            InlineFunctionInfo Info;
            Changed |= InlineFunction(*Call, Info).isSuccess();
        }
    }
}

// Inlines the kernel, then every call of a function that reaches a
// work-item function, a barrier, a __local variable or printf, until none
// is left.
void inlineAll(CallInst *KernelCall, Function *Run, const std::set<Function *> &Inline)
{
    InlineFunctionInfo IFI;
    InlineFunction(*KernelCall, IFI);
    inlineUntilNone(*Run, [&Inline](CallInst &, Function &F) { return Inline.count(&F) != 0; });
}

bool dependsOn(const Constant *C, const GlobalVariable *G)
{
    if (C == G)
        return true;
    for (const Use &Op : C->operands())
        if (auto *OC = dyn_cast<Constant>(Op.get()); OC && dependsOn(OC, G))
            return true;
    return false;
}

// Constant expressions over G in Run become instructions, so that G's uses
// in Run (and only there) can be replaced by a pointer computed at run time.
void expandConstantUses(Function *Run, GlobalVariable *G)
{
    for (bool Changed = true; Changed;) {
        Changed = false;
        for (Instruction &I : instructions(Run))
            for (Use &Op : I.operands()) {
                auto *CE = dyn_cast<ConstantExpr>(Op.get());
                if (!CE || !dependsOn(CE, G))
                    continue;
                Instruction *At = &I;
                if (auto *Phi = dyn_cast<PHINode>(&I))
                    At = Phi->getIncomingBlock(Op)->getTerminator();
                Op.set(CE->getAsInstruction(At));
                Changed = true;
            }
    }
}

bool usedIn(const Value *V, const Function *F)
{
    for (const User *U : V->users()) {
        if (auto *I = dyn_cast<Instruction>(U); I && I->getFunction() == F)
            return true;
        if (isa<ConstantExpr>(U) && usedIn(U, F))
            return true;
    }
    return false;
}

// Kernel-scope __local variables: offsets into group->local_mem, each
// aligned as it needs, so that concurrent work-groups never share them.
uint64_t placeLocalVariables(Nest &N)
{
    Module &M = *N.Run->getParent();
    const DataLayout &DL = M.getDataLayout();
    uint64_t Bytes = 0;
    IRBuilder<> B(N.Entry->getTerminator());
    for (GlobalVariable &G : M.globals()) {
        if (!isLocalVariable(G) || !usedIn(&G, N.Run))
            continue;
        Align A = DL.getValueOrABITypeAlignment(G.getAlign(), G.getValueType());
        Bytes = alignTo(Bytes, A);
        Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), N.LocalMem, Bytes);
        P = B.CreateAddrSpaceCast(P, G.getType(), G.getName());
        Bytes += DL.getTypeAllocSize(G.getValueType());
        expandConstantUses(N.Run, &G);
        G.replaceUsesWithIf(P, [&](Use &U) {
            auto *I = dyn_cast<Instruction>(U.getUser());
            return I && I->getFunction() == N.Run;
        });
    }
    return Bytes;
}

std::vector<CallInst *> findBarriers(Function *Run)
{
    std::vector<CallInst *> Barriers;
    for (Instruction &I : instructions(Run))
        if (auto *Call = dyn_cast<CallInst>(&I);
            Call && (isBarrier(Call->getCalledFunction()) ||
                     isSubGroupBarrier(Call->getCalledFunction())))
            Barriers.push_back(Call);
    return Barriers;
}

void promoteAllocas(Function *Run)
{
    std::vector<AllocaInst *> Allocas;
    for (Instruction &I : Run->getEntryBlock())
        if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
            Allocas.push_back(AI);
    DominatorTree DT(*Run);
    PromoteMemToReg(Allocas, DT);
}

bool isPrivate(const Value *Ptr)
{
    return isa<AllocaInst>(getUnderlyingObject(Ptr, 0));
}

// Inlines every call given the address of a private variable (clFFT's
// butterflies take their eight float2 by pointer), until none is left: a
// variable whose address a call takes stays in memory, and one that lives
// across a barrier then stays in its frame slot, where every operation
// loads and stores it; inlined, SROA makes it values.
void inlinePrivateArguments(Function &Run)
{
    auto TakesPrivate = [](CallInst &Call, Function &) {
        return any_of(Call.args(), [](const Use &A) {
            return A->getType()->isPointerTy() && isPrivate(A.get());
        });
    };
    // The callee's parameters, kept in allocas of their own until
    // promoted, are the addresses its calls pass on.
    inlineUntilNone(Run, TakesPrivate, [&Run] { promoteAllocas(&Run); });
}

// Whether I touches memory other than the work-item's private variables:
// such accesses are independent between work-items (the x loop is
// parallel); private variables are not, until SROA promotes them.
bool isSharedAccess(const Instruction &I)
{
    if (auto *L = dyn_cast<LoadInst>(&I))
        return !isPrivate(L->getPointerOperand());
    if (auto *S = dyn_cast<StoreInst>(&I))
        return !isPrivate(S->getPointerOperand());
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || !Call->mayReadOrWriteMemory())
        return false;
    for (const Use &A : Call->args())
        if (A->getType()->isPointerTy() && isPrivate(A.get()))
            return false;
    return true;
}

// OpenCL C's global (and constant) and local memory are disjoint (no
// pointer converts between them): every access says so in scoped alias
// metadata, so that a loop copying from one to the other (an async copy)
// vectorizes without run-time checks, which LLVM cannot make across
// address spaces. Private and generic accesses say nothing.
void separateAddressSpaces(Function *Run)
{
    MDBuilder MDB(Run->getContext());
    MDNode *Domain = MDB.createAnonymousAliasScopeDomain("refcl.memory");
    MDNode *Global = MDB.createAnonymousAliasScope(Domain, "global");
    MDNode *Local = MDB.createAnonymousAliasScope(Domain, "local");
    MDNode *GlobalList = MDNode::get(Run->getContext(), {Global});
    MDNode *LocalList = MDNode::get(Run->getContext(), {Local});
    for (Instruction &I : instructions(Run)) {
        Value *Ptr = getLoadStorePointerOperand(&I);
        unsigned Space = Ptr ? Ptr->getType()->getPointerAddressSpace() : 0;
        bool IsLocal = Space == 3, IsGlobal = Space == 1 || Space == 2;
        if (!IsLocal && !IsGlobal)
            continue;
        I.setMetadata(LLVMContext::MD_alias_scope,
                      MDNode::concatenate(I.getMetadata(LLVMContext::MD_alias_scope),
                                          IsLocal ? LocalList : GlobalList));
        I.setMetadata(LLVMContext::MD_noalias,
                      MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                          IsLocal ? GlobalList : LocalList));
    }
}

} // namespace

// Work-items are independent between barriers: the x loop gets
// llvm.loop.parallel_accesses, so the vectorizer needs no alias checks.
void markParallel(const std::vector<BasicBlock *> &Body, BasicBlock *Latch)
{
    LLVMContext &C = Latch->getContext();
    MDNode *Group = MDNode::getDistinct(C, {});
    for (BasicBlock *BB : Body)
        for (Instruction &I : *BB)
            if (isSharedAccess(I))
                I.setMetadata(LLVMContext::MD_access_group, Group);
    Metadata *Parallel[] = {MDString::get(C, "llvm.loop.parallel_accesses"), Group};
    Metadata *Ops[] = {nullptr, MDNode::get(C, Parallel),
                       MDNode::get(C, {MDString::get(C, "llvm.loop.mustprogress")})};
    MDNode *Loop = MDNode::getDistinct(C, Ops);
    Loop->replaceOperandWith(0, Loop);
    Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, Loop);
}

namespace {

std::vector<BasicBlock *> xLoopBody(const Nest &N)
{
    std::vector<BasicBlock *> Body;
    for (BasicBlock &BB : *N.Run)
        if (&BB != N.Entry && &BB != N.XHead)
            Body.push_back(&BB);
    return Body;
}

uint64_t allocaBytes(Function *Run)
{
    const DataLayout &DL = Run->getParent()->getDataLayout();
    uint64_t Bytes = 0;
    for (Instruction &I : instructions(Run))
        if (auto *AI = dyn_cast<AllocaInst>(&I))
            if (auto Size = AI->getAllocationSizeInBits(DL))
                Bytes += *Size / 8;
    return Bytes;
}

CallInst *callKernel(Function &K, Nest &N)
{
    IRBuilder<> B(N.XBody);
    std::vector<Value *> Args;
    B.SetInsertPoint(N.Entry->getTerminator());
    for (Argument &A : K.args()) {
        Value *V = loadArgument(B, A, N.Run->getArg(0));
        if (auto *L = dyn_cast<LoadInst>(V); L && isImageArgument(K, A.getArgNo()))
            markImageDescriptor(*L);
        Args.push_back(V);
    }
    B.SetInsertPoint(N.XBody);
    CallInst *Call = B.CreateCall(&K, Args);
    Call->setCallingConv(K.getCallingConv());
    Call->setAttributes(K.getAttributes());
    B.CreateBr(N.XLatch);
    return Call;
}

/** The work-items of K's required group size (reqd_work_group_size), an
 *  i64 constant; nullptr if it has none. */
Constant *requiredItems(const Function &K)
{
    MDNode *Reqd = K.getMetadata("reqd_work_group_size");
    if (!Reqd || Reqd->getNumOperands() != 3)
        return nullptr;
    uint64_t Items = 1;
    for (const MDOperand &Op : Reqd->operands()) {
        auto *Size = mdconst::dyn_extract<ConstantInt>(Op);
        if (!Size || Size->isZero())
            return nullptr;
        Items *= Size->getZExtValue();
    }
    return ConstantInt::get(Type::getInt64Ty(K.getContext()), Items);
}

Function *createRun(Function &K)
{
    LLVMContext &C = K.getContext();
    Type *Ptr = PointerType::get(C, 0);
    auto *T = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
    Function *Run = Function::Create(T, GlobalValue::InternalLinkage,
                                     "refcl.run." + K.getName(), K.getParent());
    Run->addFnAttr(Attribute::NoUnwind);
    Run->setAttributes(Run->getAttributes().addFnAttributes(
        C, AttrBuilder(C, K.getAttributes().getFnAttrs())
               .removeAttribute(Attribute::Convergent)
               .removeAttribute(Attribute::NoInline)
               .removeAttribute(Attribute::OptimizeNone)));
    for (unsigned I = 0; I < 2; I++) {
        Run->addParamAttr(I, Attribute::NoAlias);
        Run->addParamAttr(I, Attribute::NoCapture);
        Run->addParamAttr(I, Attribute::ReadOnly);
    }
    return Run;
}

} // namespace

bool isBarrier(const Function *F)
{
    return F && (F->getName() == "_Z7barrierj" || F->getName() == "_Z18work_group_barrierj" ||
                 F->getName() == "_Z18work_group_barrierj12memory_scope");
}

bool isSubGroupBarrier(const Function *F)
{
    return F && (F->getName() == "_Z17sub_group_barrierj" ||
                 F->getName() == "_Z17sub_group_barrierj12memory_scope");
}

// The 32-bit lanes of the level's widest vectors (compiler/cpu.c's
// levels): AVX-512's 16, AVX2's 8, SSE's and NEON's 4.
uint32_t subGroupSizeFor(StringRef Cpu)
{
    if (Cpu == "x86-64-v4")
        return 16;
    if (Cpu == "x86-64-v3")
        return 8;
    return 4;
}

bool isGroupScratch(const Function *F)
{
    return F && (F->getName() == "__refcl_group_scratch" ||
                 F->getName() == "__refcl_sub_group_scratch" ||
                 F->getName() == "__refcl_sub_group_flags");
}

bool isWorkItemFunction(const Function *F)
{
    return workItemOf(F) != WI_NONE;
}

/** Adds to Out every function that calls one of Out's, until none is
 *  left to add. */
static void addCallers(std::set<Function *> &Out)
{
    for (bool Changed = true; Changed;) {
        Changed = false;
        for (Function *F : std::vector<Function *>(Out.begin(), Out.end()))
            for (User *U : F->users())
                if (auto *Call = dyn_cast<CallBase>(U))
                    Changed |= Out.insert(Call->getFunction()).second;
    }
}

std::set<Function *> functionsReaching(Module &M, bool (*Is)(const Function *))
{
    std::set<Function *> Out;
    for (Function &F : M)
        if (Is(&F))
            addUsingFunctions(&F, Out);
    addCallers(Out);
    return Out;
}

std::set<Function *> functionsToInline(Module &M)
{
    std::set<Function *> Out;
    for (Function &F : M)
        if (isBarrier(&F) || isSubGroupBarrier(&F) || isWorkItemFunction(&F) ||
            isPrintfFunction(&F) || isAddressSpaceQuery(&F))
            addUsingFunctions(&F, Out);
    for (GlobalVariable &G : M.globals())
        if (isLocalVariable(G))
            addUsingFunctions(&G, Out);
    addCallers(Out);
    return Out;
}

std::vector<Function *> kernelsOf(Module &M)
{
    std::vector<Function *> Kernels;
    for (Function &F : M)
        if (!F.isDeclaration() && F.getCallingConv() == CallingConv::SPIR_KERNEL)
            Kernels.push_back(&F);
    return Kernels;
}

// The functions to inline are found before any work-group function is
// made: those then call them too.
PreservedAnalyses WorkGroupPass::run(Module &M, ModuleAnalysisManager &MAM)
{
    std::vector<Function *> Kernels = kernelsOf(M);
    if (Kernels.empty() || M.getNamedValue(REFCL_ABI_TABLE_SYMBOL))
        return PreservedAnalyses::all();
    std::set<Function *> Inline = functionsToInline(M);
    std::set<Function *> SubGroup = functionsReaching(M, isSubGroupBarrier);
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    for (Function *K : Kernels)
        recordKernel(buildWorkGroup(*K, Inline, SubGroup.count(K), FAM));
    return PreservedAnalyses::none();
}

namespace {

/** Whether the kernel's work-item runs a loop of its own (one inside the
 *  x loop). */
bool runsLoops(Nest &N, FunctionAnalysisManager &FAM)
{
    Loop *X = FAM.getResult<LoopAnalysis>(*N.Run).getLoopFor(N.XHead);
    bool Runs = X && !X->getSubLoops().empty();
    FAM.clear(*N.Run, N.Run->getName());
    return Runs;
}

} // namespace

KernelInfo buildWorkGroup(Function &K, const std::set<Function *> &Inline, bool BySubGroup,
                          FunctionAnalysisManager &FAM)
{
    KernelInfo Info;
    Info.Kernel = &K;
    Nest N;
    N.Run = Info.Run = createRun(K);
    N.SubGroupSize = Info.SubGroupSize =
        subGroupSizeFor(K.getFnAttribute("target-cpu").getValueAsString());
    N.BySubGroup = BySubGroup;
    buildNest(N);
    N.FrameItems = requiredItems(K);
    if (!N.FrameItems)
        N.FrameItems = N.Items;
    inlineAll(callKernel(K, N), N.Run, Inline);
    replaceWorkItemCalls(N);
    Info.LocalBytes = placeLocalVariables(N);
    promoteAllocas(N.Run);
    separateAddressSpaces(N.Run);
    Info.UsesPrintf = lowerPrintf(N.Run);
    std::vector<CallInst *> Barriers = findBarriers(N.Run);
    bool Chunked = Barriers.empty() && !N.BySubGroup && !Info.UsesPrintf &&
                   chunkLoopNests(N, FAM);
    if (!Barriers.empty() || Chunked) {
        inlinePrivateArguments(*N.Run);
        scalarizePrivateArrays(N, FAM);
        Barriers = findBarriers(N.Run); // unrolled loops copied theirs
    }
    // A private array left in memory would move to the frames, its
    // elements a frame apart; a tile unrolled is a region of straight
    // code: the chunks' barriers go again.
    if (Chunked && (allocaBytes(N.Run) || !chunksHoldLoops(N, Barriers, FAM)))
        for (CallInst *Chunk : std::exchange(Barriers, {}))
            Chunk->eraseFromParent();
    Info.HasBarrier = !Barriers.empty();
    if (Info.HasBarrier) {
        N.ElementSlots = !N.BySubGroup && !runsLoops(N, FAM);
        Info.FrameBytes = splitAtBarriers(N, Barriers, FAM);
    } else {
        markParallel(xLoopBody(N), N.XLatch);
    }
    Info.PrivateBytes = allocaBytes(N.Run) + Info.FrameBytes;
    lowerAddressSpaceQueries(*Info.Run, Info.FrameBytes);
    return Info;
}

} // namespace refcl
