// SPDX-License-Identifier: Apache-2.0
// printf: each call becomes the stores of one record into the command's
// printf buffer (refcl/kernel_abi.h), reserved with an atomic add, and
// the value 0, or -1 when the record does not fit. The host formats the
// records when the command's work is done (exec/printf.c).
//
// It runs on the work-group function, after inlining (a helper's printf
// is then the kernel's, and its arguments plain values once the allocas
// are promoted) and before the barrier split (a call is an ordinary
// instruction of its region). The format is parsed here as well as on
// the host: the x86-64 and AArch64 calling conventions hand a vector to a
// variadic call as an integer, a double, or the address of a copy, so
// only the format says that an argument is a vector to copy whole, and
// which %s argument is a string literal the host may read.
#include "pass.h"

#include "refcl/kernel_abi.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <cctype>
#include <algorithm>
#include <cstddef>
#include <string>

using namespace llvm;

namespace refcl {
namespace {

// What a conversion of the format reads: a vector of `VectorBytes`, a %s
// string, or anything else (its value as the call passes it).
struct Conversion {
    bool String = false;
    uint64_t VectorBytes = 0;
};

uint64_t elementBytes(StringRef Length)
{
    return StringSwitch<uint64_t>(Length).Case("hh", 1).Case("h", 2).Case("hl", 4)
        .Case("l", 8).Default(0);
}

// The conversions of Format, in order (%% reads nothing). The grammar of
// OpenCL C 3.0 6.15.14.2: % flags width .precision vN length conversion;
// a specification outside it still takes an argument, as on the host
// (exec/printf.c), so that the two agree on which is whose.
std::vector<Conversion> parseFormat(StringRef Format)
{
    std::vector<Conversion> Out;
    for (size_t I = 0; I < Format.size(); I++) {
        if (Format[I] != '%')
            continue;
        size_t J = I + 1;
        while (J < Format.size() && StringRef("-+ #0").contains(Format[J]))
            J++;
        while (J < Format.size() && (isdigit((unsigned char)Format[J]) || Format[J] == '.'))
            J++;
        uint64_t Count = 0;
        if (J < Format.size() && Format[J] == 'v')
            for (J++; J < Format.size() && isdigit((unsigned char)Format[J]); J++)
                Count = std::min<uint64_t>(Count * 10 + (Format[J] - '0'), 100);
        size_t LengthAt = J;
        while (J < Format.size() && (Format[J] == 'h' || Format[J] == 'l'))
            J++;
        if (J >= Format.size())
            break;
        I = J;
        if (Format[J] == '%')
            continue;
        Conversion C;
        C.String = Format[J] == 's';
        bool Valid = Count == 2 || Count == 3 || Count == 4 || Count == 8 || Count == 16;
        C.VectorBytes = Valid ? Count * elementBytes(Format.slice(LengthAt, J)) : 0;
        Out.push_back(C);
    }
    return Out;
}

// Whether Ptr is a string literal (a constant, NUL-terminated array of
// bytes) from its start, the only strings the host reads; its text, up to
// its first NUL. A variable in the __constant address space is constant
// whether or not LLVM says so (llvm-spirv reads SPIR-V's UniformConstant
// strings back as plain addrspace(2) globals).
bool isStringLiteral(const Value *Ptr, StringRef *Text = nullptr)
{
    auto *G = dyn_cast<GlobalVariable>(Ptr->stripPointerCasts());
    if (!G || !(G->isConstant() || G->getAddressSpace() == 2) ||
        !G->hasDefinitiveInitializer())
        return false;
    const Constant *Init = G->getInitializer();
    // "" is a zeroinitializer of one byte.
    auto *Bytes = dyn_cast<ArrayType>(Init->getType());
    if (isa<ConstantAggregateZero>(Init) && Bytes && Bytes->getElementType()->isIntegerTy(8)) {
        if (Text)
            *Text = "";
        return true;
    }
    // A NUL inside ("foo\0foo") ends the text, as in C; the array's last
    // byte is a NUL all the same, so the host never reads past it.
    auto *Data = dyn_cast<ConstantDataSequential>(Init);
    if (!Data || !Data->isString() ||
        Data->getElementAsInteger(Data->getNumElements() - 1) != 0)
        return false;
    if (Text)
        *Text = Data->getAsCString();
    return true;
}

bool isPrintf(const Function *F)
{
    return F && F->getName() == "printf" && F->isVarArg();
}

// One argument as the record holds it: a value to store, or the address
// of Bytes to copy.
struct Stored {
    Value *V;
    uint64_t Bytes;
    bool Copy;
};

// C's default argument promotions, which clang applies to OpenCL C's
// printf and SPIR-V's OpenCL.std printf does not (llvm-spirv passes a
// float as a float): a scalar float or half becomes a double, an integer
// narrower than int an int (sign-extended, as a signed char or short
// would be; a bool 0 or 1), which is what the host reads for each
// conversion.
Value *promoted(IRBuilder<> &B, Value *A)
{
    Type *T = A->getType();
    if (T->isHalfTy() || T->isFloatTy())
        return B.CreateFPExt(A, B.getDoubleTy());
    if (T->isIntegerTy(1))
        return B.CreateZExt(A, B.getInt32Ty());
    if (T->isIntegerTy() && T->getIntegerBitWidth() < 32)
        return B.CreateSExt(A, B.getInt32Ty());
    return A;
}

Stored storedArgument(IRBuilder<> &B, Value *A, const Conversion &C)
{
    const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
    if (C.String)
        return {isStringLiteral(A) ? B.CreatePtrToInt(A, B.getInt64Ty())
                                   : B.getInt64(0), 8, false};
    if (A->getType()->isPointerTy()) {
        if (C.VectorBytes)
            return {A, C.VectorBytes, true}; // passed by address
        return {B.CreatePtrToInt(A, B.getInt64Ty()), 8, false};
    }
    A = promoted(B, A);
    return {A, DL.getTypeStoreSize(A->getType()), false};
}

uint64_t padded(uint64_t Bytes)
{
    return alignTo(Bytes, 8);
}

// Stores the record of Call at Rec: header, then each argument's size and
// bytes.
void storeRecord(IRBuilder<> &B, Value *Rec, uint64_t Size, Value *Format,
                 const std::vector<Stored> &Args)
{
    B.CreateAlignedStore(B.getInt32(Size), Rec, Align(8));
    B.CreateAlignedStore(B.getInt32(Args.size()),
                         B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, 4), Align(4));
    B.CreateAlignedStore(B.CreatePtrToInt(Format, B.getInt64Ty()),
                         B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, 8), Align(8));
    uint64_t At = REFCL_ABI_PRINTF_HEADER;
    for (const Stored &S : Args) {
        B.CreateAlignedStore(B.getInt64(S.Bytes),
                             B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, At), Align(8));
        Value *To = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, At + 8);
        if (S.Copy)
            B.CreateMemCpy(To, Align(8), S.V, Align(1), S.Bytes);
        else
            B.CreateAlignedStore(S.V, To, Align(8));
        At += 8 + padded(S.Bytes);
    }
}

// The command's struct refcl_abi_printf, from the group (the pass runs
// in the clang that builds for this host: the layouts are the same).
Value *printfBuffer(IRBuilder<> &B, Value *Group)
{
    Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Group,
                                            offsetof(refcl_abi_group, printf_buffer));
    return B.CreateAlignedLoad(B.getPtrTy(), P, Align(8));
}

Value *field(IRBuilder<> &B, Value *Buffer, size_t Offset)
{
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buffer, Offset);
}

// Replaces Call with the reservation and the stores of its record:
//   Before: buffer? -> Reserve : Done(-1)
//   Reserve: cursor += size; fits? -> Write : Full
//   Write: the record -> Done(0)
//   Full: straddles the end? -> Mark : Done(-1);  Mark: size 0 -> Done(-1)
void lowerCall(CallInst *Call, Value *Group, StringRef Text)
{
    std::vector<Conversion> Conversions = parseFormat(Text);
    Function *Run = Call->getFunction();
    LLVMContext &C = Run->getContext();
    BasicBlock *Before = Call->getParent();
    BasicBlock *Done = Before->splitBasicBlock(Call, "printf.done");
    auto *Reserve = BasicBlock::Create(C, "printf.reserve", Run, Done);
    auto *Write = BasicBlock::Create(C, "printf.write", Run, Done);
    auto *Full = BasicBlock::Create(C, "printf.full", Run, Done);
    auto *Mark = BasicBlock::Create(C, "printf.mark", Run, Done);

    IRBuilder<> B(Before->getTerminator());
    std::vector<Stored> Args;
    uint64_t Size = REFCL_ABI_PRINTF_HEADER;
    for (unsigned I = 1; I < Call->arg_size() && I - 1 < Conversions.size(); I++) {
        Args.push_back(storedArgument(B, Call->getArgOperand(I), Conversions[I - 1]));
        Size += 8 + padded(Args.back().Bytes);
    }
    Value *Buffer = printfBuffer(B, Group);
    Before->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Before);
    B.CreateCondBr(B.CreateIsNotNull(Buffer), Reserve, Done);

    B.SetInsertPoint(Reserve);
    Value *Base = B.CreateAlignedLoad(B.getPtrTy(), field(B, Buffer, 0), Align(8));
    Value *Capacity = B.CreateAlignedLoad(B.getInt64Ty(), field(B, Buffer, 8), Align(8));
    Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Add, field(B, Buffer, 16), B.getInt64(Size),
                                   Align(8), AtomicOrdering::Monotonic);
    Value *Rec = B.CreateInBoundsGEP(B.getInt8Ty(), Base, Old);
    B.CreateCondBr(B.CreateICmpULE(B.CreateAdd(Old, B.getInt64(Size)), Capacity), Write, Full);

    B.SetInsertPoint(Write);
    storeRecord(B, Rec, Size, Call->getArgOperand(0), Args);
    B.CreateBr(Done);
    B.SetInsertPoint(Full);
    B.CreateCondBr(B.CreateICmpULT(Old, Capacity), Mark, Done);
    B.SetInsertPoint(Mark);
    B.CreateAlignedStore(B.getInt32(0), Rec, Align(8));
    B.CreateBr(Done);

    B.SetInsertPoint(&Done->front());
    PHINode *Result = B.CreatePHI(B.getInt32Ty(), 4, "refcl.printf");
    Result->addIncoming(B.getInt32(-1), Before);
    Result->addIncoming(B.getInt32(0), Write);
    Result->addIncoming(B.getInt32(-1), Full);
    Result->addIncoming(B.getInt32(-1), Mark);
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
}

} // namespace

bool isPrintfFunction(const Function *F)
{
    return isPrintf(F);
}

bool lowerPrintf(Function *Run)
{
    std::vector<CallInst *> Calls;
    for (Instruction &I : instructions(Run))
        if (auto *Call = dyn_cast<CallInst>(&I); Call && isPrintf(Call->getCalledFunction()))
            Calls.push_back(Call);
    for (CallInst *Call : Calls) {
        StringRef Text;
        if (isStringLiteral(Call->getArgOperand(0), &Text)) {
            lowerCall(Call, Run->getArg(1), Text);
        } else {
            // A format that is not a string literal: neither this pass
            // nor the host could parse it safely, so no record
            // (docs/kernels.md).
            Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), -1, true));
            Call->eraseFromParent();
        }
    }
    return !Calls.empty();
}

} // namespace refcl
