// SPDX-License-Identifier: Apache-2.0
// A double converted to half, rounded once. OpenCL C 3.0 s6.4.3.2:
// "Conversions to floating-point type (except double) ... use round to
// nearest even" (and "Conversion between floating-point formats ... must
// be correctly rounded", OpenCL 3.0 "Relative Error as ULPs"). LLVM 15's
// x86 back end has no instruction for fptrunc double to half and calls
// libgcc's __truncdfhf2, which refcl's programs are not linked with (the
// link stubs have the C and math libraries only). So each such fptrunc
// becomes: the double rounded to float toward zero, its last bit set
// where that was inexact (round to odd), then fptrunc float to half, an
// F16C instruction. Float's 24 bits are more than half's 11 + 2, so the
// odd bit stands for everything below a tie and the second rounding is
// the only one; the builtin library's convert_half(double) does the same.
#include "pass.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

using namespace llvm;

namespace refcl {
namespace {

bool isDoubleToHalf(const Instruction &I)
{
    const auto *T = dyn_cast<FPTruncInst>(&I);
    return T && T->getSrcTy()->getScalarType()->isDoubleTy() &&
           T->getDestTy()->getScalarType()->isHalfTy();
}

// The type @p Like has, with @p Scalar elements.
Type *withScalar(Type *Like, Type *Scalar)
{
    if (auto *V = dyn_cast<VectorType>(Like))
        return VectorType::get(Scalar, V->getElementCount());
    return Scalar;
}

// @p D (double or a vector of them) rounded to float to odd.
Value *toFloatOdd(IRBuilder<> &B, Value *D)
{
    Type *F = withScalar(D->getType(), B.getFloatTy());
    Type *I = withScalar(D->getType(), B.getInt32Ty());
    Value *Nearest = B.CreateFPTrunc(D, F);
    Value *Back = B.CreateFPExt(Nearest, D->getType());
    Value *Fabs = B.CreateUnaryIntrinsic(Intrinsic::fabs, Back);
    // Rounded away from zero: one step back toward it (the previous bit
    // pattern of the magnitude); then the odd bit where inexact.
    Value *Away = B.CreateFCmpOGT(Fabs, B.CreateUnaryIntrinsic(Intrinsic::fabs, D));
    Value *Inexact = B.CreateFCmpUNE(Back, D);
    Value *Bits = B.CreateBitCast(Nearest, I);
    Bits = B.CreateSub(Bits, B.CreateZExt(Away, I));
    Bits = B.CreateOr(Bits, B.CreateZExt(Inexact, I));
    return B.CreateBitCast(Bits, F);
}

} // namespace

PreservedAnalyses HalfCastsPass::run(Function &F, FunctionAnalysisManager &)
{
    std::vector<Instruction *> Casts;
    for (Instruction &I : instructions(F))
        if (isDoubleToHalf(I))
            Casts.push_back(&I);
    for (Instruction *I : Casts) {
        IRBuilder<> B(I);
        Value *Half = B.CreateFPTrunc(toFloatOdd(B, I->getOperand(0)), I->getType());
        I->replaceAllUsesWith(Half);
        Half->takeName(I);
        I->eraseFromParent();
    }
    return instructionsChanged(!Casts.empty());
}

} // namespace refcl
