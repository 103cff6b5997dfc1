// SPDX-License-Identifier: Apache-2.0
// The generic address space's queries (OpenCL C 3.0 s6.15.9, "Address
// Space Qualifier Functions"): to_global, to_local, to_private and
// get_fence, lowered in a work-group function once its kernel is inlined.
//
// On a CPU every address space is one flat memory, so the named space of a
// generic pointer is found from where it points:
// - __local: the group's __local block, group->local_mem and the
//   group->local_bytes after it (the kernel's __local variables and its
//   __local arguments' memory: refcl/kernel_abi.h);
// - __private: the work-group function's stack, from the stack pointer
//   where the query runs up to its return address (no red zone below the
//   stack pointer: the function is made noredzone; every private variable
//   of the work-items is in a frame of it or of a function it calls), or
//   the work-items' frames in group->frames (values that live across a
//   barrier);
// - __global: anything else.
#include "pass.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

using namespace llvm;

namespace refcl {
namespace {

enum Query { Q_NONE, Q_TO_GLOBAL, Q_TO_LOCAL, Q_TO_PRIVATE, Q_GET_FENCE };

// clang-15 calls to_global(p) as __to_global (CGBuiltin, unmangled), and
// opencl-c.h declares get_fence(void *) and get_fence(const void *).
Query queryOf(const Function *F)
{
    if (!F)
        return Q_NONE;
    return StringSwitch<Query>(F->getName())
        .Case("__to_global", Q_TO_GLOBAL)
        .Case("__to_local", Q_TO_LOCAL)
        .Case("__to_private", Q_TO_PRIVATE)
        .Case("_Z9get_fencePU9CLgenericv", Q_GET_FENCE)
        .Case("_Z9get_fencePU9CLgenericKv", Q_GET_FENCE)
        .Default(Q_NONE);
}

// The values of cl_mem_fence_flags (opencl-c-base.h).
constexpr uint64_t CLK_GLOBAL_MEM_FENCE = 1, CLK_LOCAL_MEM_FENCE = 2;

// Whether Addr (an integer) is in [Begin, Begin + Bytes).
Value *inRange(IRBuilder<> &B, Value *Addr, Value *Begin, Value *Bytes)
{
    Value *Offset = B.CreateSub(Addr, B.CreatePtrToInt(Begin, Addr->getType()));
    return B.CreateICmpULT(Offset, B.CreateZExtOrTrunc(Bytes, Addr->getType()));
}

Value *isLocal(IRBuilder<> &B, Value *Group, Value *Addr)
{
    Value *Begin = loadField(B, Group, G_LOCAL_MEM, B.getPtrTy());
    return inRange(B, Addr, Begin, loadField(B, Group, G_LOCAL_BYTES, B.getInt32Ty()));
}

// The group's work-items times FrameBytes at group->frames.
Value *inFrames(IRBuilder<> &B, Value *Group, Value *Addr, uint64_t FrameBytes)
{
    if (!FrameBytes)
        return B.getFalse();
    Value *Sizes[3];
    loadTriple(B, Group, G_LOCAL_SIZE, Sizes);
    Value *Items = B.getInt64(FrameBytes);
    for (Value *Size : Sizes)
        Items = B.CreateMul(Items, Size);
    return inRange(B, Addr, loadField(B, Group, G_FRAMES, B.getPtrTy()), Items);
}

// Between the stack pointer here and Run's return address: Run's frame
// and its callees' (the query itself runs in Run, inlined).
Value *onStack(IRBuilder<> &B, Value *Addr)
{
    Module *M = B.GetInsertBlock()->getModule();
    Value *Sp = B.CreateCall(Intrinsic::getDeclaration(M, Intrinsic::stacksave));
    Value *Top = B.CreateCall(
        Intrinsic::getDeclaration(M, Intrinsic::addressofreturnaddress, {B.getPtrTy()}));
    Value *Low = B.CreatePtrToInt(Sp, Addr->getType());
    Value *High = B.CreatePtrToInt(Top, Addr->getType());
    return B.CreateAnd(B.CreateICmpUGE(Addr, Low), B.CreateICmpULT(Addr, High));
}

Value *isPrivate(IRBuilder<> &B, Value *Group, Value *Addr, uint64_t FrameBytes)
{
    return B.CreateOr(onStack(B, Addr), inFrames(B, Group, Addr, FrameBytes));
}

// The query's answer for pointer P.
Value *answer(IRBuilder<> &B, Query Q, CallInst *Call, Value *Group, uint64_t FrameBytes)
{
    Value *P = Call->getArgOperand(0);
    Value *Addr = B.CreatePtrToInt(P, B.getInt64Ty());
    Value *Local = isLocal(B, Group, Addr);
    if (Q == Q_GET_FENCE) {
        // s6.15.9 "Returns a valid memory fence value for ptr": the local
        // fence for __local memory, else the global one (a fence on the one
        // coherent memory of a CPU orders a private variable either way).
        Type *Ty = Call->getType();
        return B.CreateSelect(Local, ConstantInt::get(Ty, CLK_LOCAL_MEM_FENCE),
                              ConstantInt::get(Ty, CLK_GLOBAL_MEM_FENCE));
    }
    // s6.15.9 "to_global ... Returns a pointer that points to a region in
    // the global address space if to_global can cast ptr to the global
    // address space. Otherwise it returns NULL." (to_local, to_private
    // likewise).
    Value *Private = isPrivate(B, Group, Addr, FrameBytes);
    Value *Yes = Q == Q_TO_LOCAL     ? Local
                 : Q == Q_TO_PRIVATE ? B.CreateAnd(B.CreateNot(Local), Private)
                                     : B.CreateNot(B.CreateOr(Local, Private));
    auto *Ty = cast<PointerType>(Call->getType());
    return B.CreateSelect(Yes, B.CreateAddrSpaceCast(P, Ty), ConstantPointerNull::get(Ty));
}

} // namespace

bool isAddressSpaceQuery(const Function *F)
{
    return queryOf(F) != Q_NONE;
}

bool lowerAddressSpaceQueries(Function &Run, uint64_t FrameBytes)
{
    bool Changed = false;
    for (Instruction &I : make_early_inc_range(instructions(Run))) {
        auto *Call = dyn_cast<CallInst>(&I);
        Query Q = Call ? queryOf(Call->getCalledFunction()) : Q_NONE;
        if (Q == Q_NONE || Call->arg_size() != 1)
            continue;
        IRBuilder<> B(Call);
        Call->replaceAllUsesWith(answer(B, Q, Call, Run.getArg(1), FrameBytes));
        Call->eraseFromParent();
        Changed = true;
    }
    // A function that calls nothing may keep its variables in the x86-64
    // psABI's red zone, the 128 bytes below the stack pointer, which the
    // private range above would not count.
    if (Changed)
        Run.addFnAttr(Attribute::NoRedZone);
    return Changed;
}

} // namespace refcl
