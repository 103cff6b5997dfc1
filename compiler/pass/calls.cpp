// SPDX-License-Identifier: Apache-2.0
// Calls from SPIR-V made to reach the builtin library. llvm-spirv calls a
// builtin with every argument and result as its plain IR type
// (read_imagef(..., <2 x i32>)), while the library, OpenCL C compiled by
// clang for the target, defines it with the C ABI's lowering: on x86-64 an
// 8-byte vector is one double, a 2- or 4-byte one an i16 or i32, a vector
// larger than 16 bytes is passed in memory (byval) and may be returned
// through a pointer (sret); on aarch64 a large vector is passed by a plain
// pointer. A call whose function type is not its callee's is undefined in
// LLVM, and the optimizer deletes the code around it. So each such call is
// made again with the callee's type, each value converted the way the ABI
// lowered it; a call this cannot convert is left as it is.
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <optional>
#include <vector>

using namespace llvm;

namespace refcl {
namespace {

// A vector as the memory it occupies: <3 x i8> as <4 x i8>, which the ABI
// passes as an i32. Other types as they are.
Type *inMemory(Type *T, const DataLayout &DL)
{
    auto *V = dyn_cast<FixedVectorType>(T);
    if (!V)
        return T;
    uint64_t Lanes = DL.getTypeAllocSize(V) / DL.getTypeAllocSize(V->getElementType());
    return Lanes == V->getNumElements() ? T : FixedVectorType::get(V->getElementType(), Lanes);
}

// The first N lanes of V (narrowing) or V with poison lanes after them
// (widening): the bytes past a vector's last lane are padding.
Value *resize(IRBuilder<> &B, Value *V, unsigned N)
{
    unsigned Have = cast<FixedVectorType>(V->getType())->getNumElements();
    SmallVector<int, 16> Mask;
    for (unsigned I = 0; I < N; I++)
        Mask.push_back(I < Have ? int(I) : -1);
    return B.CreateShuffleVector(V, Mask);
}

// Whether a value of type From can become To as the same bytes.
bool sameBytes(Type *From, Type *To, const DataLayout &DL)
{
    if (From->isPointerTy() || To->isPointerTy())
        return false;
    Type *A = inMemory(From, DL), *B = inMemory(To, DL);
    return CastInst::isBitCastable(A, B) &&
           DL.getTypeSizeInBits(A) == DL.getTypeSizeInBits(B);
}

// V (of a type sameBytes accepted) as To.
Value *reinterpret(IRBuilder<> &B, Value *V, Type *To, const DataLayout &DL)
{
    Type *From = V->getType();
    if (From == To)
        return V;
    if (inMemory(From, DL) != From)
        V = resize(B, V, cast<FixedVectorType>(inMemory(From, DL))->getNumElements());
    V = B.CreateBitCast(V, inMemory(To, DL));
    if (inMemory(To, DL) != To)
        V = resize(B, V, cast<FixedVectorType>(To)->getNumElements());
    return V;
}

// How one argument reaches its parameter.
enum class Passing { Same, Bytes, Memory };

std::optional<Passing> argumentPass(Type *Arg, const Function &Callee, unsigned Param,
                                    const DataLayout &DL)
{
    Type *To = Callee.getFunctionType()->getParamType(Param);
    if (Arg == To)
        return Passing::Same;
    if (sameBytes(Arg, To, DL))
        return Passing::Bytes;
    // x86-64: a copy the callee owns (byval); aarch64: a pointer to the
    // caller's copy. Either way the address of a copy in the caller's frame.
    Type *ByVal = Callee.getParamByValType(Param);
    if (To->isPointerTy() && To->getPointerAddressSpace() == DL.getAllocaAddrSpace() &&
        (ByVal ? ByVal == Arg : Arg->isVectorTy()))
        return Passing::Memory;
    return std::nullopt;
}

// Memory for a value of type T in the caller's entry block.
AllocaInst *slot(CallInst &Call, Type *T, MaybeAlign Align, const DataLayout &DL)
{
    Function &Caller = *Call.getFunction();
    IRBuilder<> B(&*Caller.getEntryBlock().getFirstInsertionPt());
    AllocaInst *A = B.CreateAlloca(T, DL.getAllocaAddrSpace());
    A->setAlignment(std::max(Align.valueOrOne(), DL.getPrefTypeAlign(T)));
    return A;
}

// Call made again with its callee's type; false (nothing changed) where
// the two differ in some other way.
bool adapt(CallInst &Call, Function &Callee)
{
    const DataLayout &DL = Callee.getParent()->getDataLayout();
    FunctionType *Have = Call.getFunctionType(), *Want = Callee.getFunctionType();
    if (Have->isVarArg() || Want->isVarArg())
        return false;
    // A result returned through the first parameter (sret).
    Type *Returned = Want->getNumParams() ? Callee.getParamStructRetType(0) : nullptr;
    bool Sret = Returned && Want->getReturnType()->isVoidTy() &&
                Have->getReturnType() == Returned && Want->getNumParams() == Have->getNumParams() + 1;
    if (!Sret && Have->getReturnType() != Want->getReturnType() &&
        !sameBytes(Want->getReturnType(), Have->getReturnType(), DL))
        return false;
    if (Want->getNumParams() != Have->getNumParams() + Sret)
        return false;
    std::vector<Passing> How;
    for (unsigned I = 0; I < Have->getNumParams(); I++) {
        std::optional<Passing> P = argumentPass(Have->getParamType(I), Callee, I + Sret, DL);
        if (!P)
            return false;
        How.push_back(*P);
    }

    IRBuilder<> B(&Call);
    std::vector<Value *> Args;
    AllocaInst *Result = nullptr;
    if (Sret) {
        Result = slot(Call, Returned, Callee.getParamAlign(0), DL);
        Args.push_back(Result);
    }
    for (unsigned I = 0; I < How.size(); I++) {
        Value *Arg = Call.getArgOperand(I);
        Type *To = Want->getParamType(I + Sret);
        if (How[I] == Passing::Bytes) {
            Arg = reinterpret(B, Arg, To, DL);
        } else if (How[I] == Passing::Memory) {
            AllocaInst *Copy = slot(Call, Arg->getType(), Callee.getParamAlign(I + Sret), DL);
            B.CreateAlignedStore(Arg, Copy, Copy->getAlign());
            Arg = Copy;
        }
        Args.push_back(Arg);
    }
    SmallVector<OperandBundleDef, 1> Bundles;
    Call.getOperandBundlesAsDefs(Bundles);
    CallInst *New = B.CreateCall(Want, &Callee, Args, Bundles);
    New->setCallingConv(Callee.getCallingConv());
    // A tail call's callee may not read the caller's memory.
    bool Memory = Sret || std::find(How.begin(), How.end(), Passing::Memory) != How.end();
    New->setTailCallKind(Memory ? CallInst::TCK_None : Call.getTailCallKind());
    // The call's own function attributes (nounwind, readnone...) stay;
    // those of its parameters and result were the old types'.
    New->setAttributes(AttributeList::get(Call.getContext(), Call.getAttributes().getFnAttrs(),
                                          AttributeSet(), {}));
    New->setDebugLoc(Call.getDebugLoc());
    Value *Back = Sret ? B.CreateAlignedLoad(Returned, Result, Result->getAlign())
                       : reinterpret(B, New, Have->getReturnType(), DL);
    if (!Call.getType()->isVoidTy()) {
        Back->takeName(&Call);
        Call.replaceAllUsesWith(Back);
    }
    Call.eraseFromParent();
    return true;
}

} // namespace

PreservedAnalyses AdaptCallsPass::run(Module &M, ModuleAnalysisManager &)
{
    std::vector<std::pair<CallInst *, Function *>> Calls;
    for (Function &F : M)
        for (Instruction &I : instructions(F)) {
            auto *Call = dyn_cast<CallInst>(&I);
            auto *Callee = Call ? dyn_cast<Function>(Call->getCalledOperand()) : nullptr;
            if (Callee && !Callee->isDeclaration() &&
                (Call->getFunctionType() != Callee->getFunctionType() ||
                 Call->getCallingConv() != Callee->getCallingConv()))
                Calls.emplace_back(Call, Callee);
        }
    bool Changed = false;
    for (auto &[Call, Callee] : Calls) {
        if (Call->getFunctionType() == Callee->getFunctionType()) {
            // SPIR-V's spir_func calls of the library's C functions.
            Call->setCallingConv(Callee->getCallingConv());
            Changed = true;
        } else {
            Changed |= adapt(*Call, *Callee);
        }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace refcl
