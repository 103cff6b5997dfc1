// SPDX-License-Identifier: Apache-2.0
// Vector operations on half that LLVM 15's x86 back end does one lane at a
// time, made float ones: without AVX-512 FP16 it promotes half arithmetic
// to float for whole vectors (fadd, fmul, conversions: F16C's vcvtph2ps),
// but splits a vector fcmp, fneg and the rounding and fabs intrinsics into
// lanes, each extracted, converted, compared or rounded and put back (a
// vectorized half exp took 8x float's time, its NaN test's fcmp split),
// and cannot select minnum/maxnum at all ("Cannot select: X86ISD::FMAX").
// So each becomes the float operation on the operands extended to float
// (exact), the result truncated back where it is half: the same value, as
// a half is exactly a float and these operations are exact (a compare, a
// rounding to an integer, a min or max, a sign). fneg flips the sign bit.
// Runs last in the optimizer, after the vectorizer has made the vectors
// and InstCombine has narrowed float operations of halves back to half.
#include "pass.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace refcl {
namespace {

bool isHalfVector(Type *T)
{
    auto *V = dyn_cast<FixedVectorType>(T);
    return V && V->getElementType()->isHalfTy();
}

// The intrinsics exact on halves computed in float.
bool isExactInFloat(Intrinsic::ID Id)
{
    switch (Id) {
    case Intrinsic::fabs:
    case Intrinsic::floor:
    case Intrinsic::ceil:
    case Intrinsic::trunc:
    case Intrinsic::rint:
    case Intrinsic::nearbyint:
    case Intrinsic::round:
    case Intrinsic::roundeven:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::copysign:
        return true;
    default:
        return false;
    }
}

bool needsFloat(const Instruction &I)
{
    if (const auto *Cmp = dyn_cast<FCmpInst>(&I))
        return isHalfVector(Cmp->getOperand(0)->getType());
    if (I.getOpcode() == Instruction::FNeg)
        return isHalfVector(I.getType());
    if (const auto *Call = dyn_cast<IntrinsicInst>(&I))
        return isHalfVector(I.getType()) && isExactInFloat(Call->getIntrinsicID());
    return false;
}

Type *floatsLike(Type *HalfVector)
{
    return FixedVectorType::get(Type::getFloatTy(HalfVector->getContext()),
                                cast<FixedVectorType>(HalfVector)->getNumElements());
}

Value *widen(IRBuilder<> &B, Value *V)
{
    return B.CreateFPExt(V, floatsLike(V->getType()));
}

// The sign bit flipped, as integers.
Value *negate(IRBuilder<> &B, Value *V)
{
    auto *Halves = cast<FixedVectorType>(V->getType());
    Type *Ints = FixedVectorType::get(B.getInt16Ty(), Halves->getNumElements());
    Value *Bits = B.CreateXor(B.CreateBitCast(V, Ints), ConstantInt::get(Ints, 0x8000));
    return B.CreateBitCast(Bits, Halves);
}

Value *inFloat(Instruction &I)
{
    IRBuilder<> B(&I);
    B.setFastMathFlags(I.getFastMathFlags());
    if (auto *Cmp = dyn_cast<FCmpInst>(&I)) {
        Value *A = widen(B, Cmp->getOperand(0)); // in the operands' order
        Value *C = widen(B, Cmp->getOperand(1));
        return B.CreateFCmp(Cmp->getPredicate(), A, C);
    }
    if (I.getOpcode() == Instruction::FNeg)
        return negate(B, I.getOperand(0));
    auto &Call = cast<IntrinsicInst>(I);
    SmallVector<Value *, 2> Args;
    for (Value *Arg : Call.args())
        Args.push_back(widen(B, Arg));
    Type *Floats = floatsLike(I.getType());
    Value *Result = B.CreateIntrinsic(Call.getIntrinsicID(), {Floats}, Args);
    return B.CreateFPTrunc(Result, I.getType());
}

} // namespace

PreservedAnalyses HalfVectorsPass::run(Function &F, FunctionAnalysisManager &)
{
    std::vector<Instruction *> Work;
    for (Instruction &I : instructions(F))
        if (needsFloat(I))
            Work.push_back(&I);
    for (Instruction *I : Work) {
        Value *New = inFloat(*I);
        New->takeName(I);
        I->replaceAllUsesWith(New);
        I->eraseFromParent();
    }
    return instructionsChanged(!Work.empty());
}

} // namespace refcl
