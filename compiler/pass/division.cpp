// SPDX-License-Identifier: Apache-2.0
// Integer division as OpenCL C has it: "A divide by zero with integer
// types does not cause an exception but will result in an unspecified
// value" (OpenCL C 3.0, 6.15.1, arithmetic operators). In LLVM IR a
// division by zero, or of the most negative value by -1, is undefined
// behaviour, and x86's idiv traps on both (SIGFPE). So every integer
// division and remainder whose divisor can be 0 (or -1, signed) divides by
// 1 instead in those lanes: x / 0 is then x, x % 0 is 0, MIN / -1 is MIN
// (the wrapped negation) and MIN % -1 is 0.
#include "pass.h"
#include "passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace refcl {
namespace {

bool isSigned(const BinaryOperator &I)
{
    return I.getOpcode() == Instruction::SDiv || I.getOpcode() == Instruction::SRem;
}

bool isDivision(const Instruction &I)
{
    switch (I.getOpcode()) {
    case Instruction::SDiv:
    case Instruction::UDiv:
    case Instruction::SRem:
    case Instruction::URem:
        return true;
    default:
        return false;
    }
}

// Whether a constant divisor is safe in every lane: neither 0 nor, signed, -1.
bool isSafeConstant(const Constant *D, bool Signed)
{
    auto Safe = [Signed](const Constant *E) {
        const auto *C = dyn_cast_or_null<ConstantInt>(E);
        return C && !C->isZero() && !(Signed && C->isMinusOne());
    };
    auto *Vector = dyn_cast<FixedVectorType>(D->getType());
    if (!Vector)
        return Safe(D);
    for (unsigned Lane = 0; Lane < Vector->getNumElements(); Lane++)
        if (!Safe(D->getAggregateElement(Lane)))
            return false;
    return true;
}

bool guard(BinaryOperator &I)
{
    Value *Divisor = I.getOperand(1);
    bool Signed = isSigned(I);
    if (auto *C = dyn_cast<Constant>(Divisor); C && isSafeConstant(C, Signed))
        return false;
    Type *Ty = I.getType();
    IRBuilder<> B(&I);
    Value *Bad = B.CreateICmpEQ(Divisor, Constant::getNullValue(Ty));
    if (Signed) {
        unsigned Bits = Ty->getScalarSizeInBits();
        Value *Overflow = B.CreateAnd(
            B.CreateICmpEQ(Divisor, Constant::getAllOnesValue(Ty)),
            B.CreateICmpEQ(I.getOperand(0),
                           ConstantInt::get(Ty, APInt::getSignedMinValue(Bits))));
        Bad = B.CreateOr(Bad, Overflow);
    }
    I.setOperand(1, B.CreateSelect(Bad, ConstantInt::get(Ty, 1), Divisor));
    return true;
}

} // namespace

PreservedAnalyses GuardDivisionPass::run(Function &F, FunctionAnalysisManager &)
{
    std::vector<BinaryOperator *> Divisions;
    for (Instruction &I : instructions(F))
        if (isDivision(I))
            Divisions.push_back(cast<BinaryOperator>(&I));
    bool Changed = false;
    for (BinaryOperator *I : Divisions)
        Changed |= guard(*I);
    return instructionsChanged(Changed);
}

} // namespace refcl
