// SPDX-License-Identifier: Apache-2.0
// A half computed in float and rounded back (fptrunc float to half: the
// library's half arithmetic) is one vcvtps2ph for 16 lanes on x86-64 with
// F16C, but LLVM 15's cost model prices the vector fptrunc at 46, a
// conversion and shuffles per lane. The SLP vectorizer then leaves a
// jammed half kernel's chains scalar: every work-item's value extracted,
// converted and put back, 40 times the time of the same kernel in float.
// Arithmetic on half itself (fadd half, what clang makes of a + b) fares
// no better: the back end does it in float, but the SLP vectorizer finds
// a chain of it no cheaper in vectors and leaves it scalar.
// So in a jammed work-group function each half fadd, fsub, fmul, fdiv and
// fmuladd becomes the float operation on the operands extended, rounded
// back to half (the same value: a float has the 2p + 2 bits that make the
// second rounding of a sum, difference, product or quotient of halves
// harmless; fmuladd becomes a rounded product and a rounded sum, which
// its definition allows), and each rounding of a float to half a call of
// a function the SLP vectorizer knows vector forms of (the
// vector-function-abi-variant attribute), priced as one call per vector;
// refcl-half-truncations, last in the optimizer, makes every call an
// fptrunc again, scalar or vector, the same rounding.
#include "passes.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

using namespace llvm;

namespace refcl {
namespace {

constexpr const char *Rounding = "__refcl_fptrunc_half";
// Vector forms of 2 to 64 lanes: the widest a jam gives halves' bundles.
constexpr unsigned MostLanes = 64;

/** Name, of type From to To, declared a function without effects. */
Function *declareRounding(Module &M, StringRef Name, Type *To, Type *From)
{
    auto *F = cast<Function>(
        M.getOrInsertFunction(Name, FunctionType::get(To, {From}, false)).getCallee());
    F->setDoesNotAccessMemory();
    F->setDoesNotThrow();
    F->setWillReturn();
    return F;
}

/** The vector form of Lanes lanes, declared. */
std::string declareVectorForm(Module &M, unsigned Lanes)
{
    LLVMContext &C = M.getContext();
    std::string Name = std::string(Rounding) + "_v" + utostr(Lanes);
    declareRounding(M, Name, FixedVectorType::get(Type::getHalfTy(C), Lanes),
                    FixedVectorType::get(Type::getFloatTy(C), Lanes));
    return Name;
}

/** The scalar rounding, its vector forms named in its attribute. */
Function *rounding(Module &M)
{
    if (Function *F = M.getFunction(Rounding))
        return F;
    LLVMContext &C = M.getContext();
    Function *F = declareRounding(M, Rounding, Type::getHalfTy(C), Type::getFloatTy(C));
    std::string Variants;
    for (unsigned Lanes = 2; Lanes <= MostLanes; Lanes *= 2)
        Variants += (Variants.empty() ? "" : ",") + std::string("_ZGV_LLVM_N") + utostr(Lanes) +
                    "v_" + Rounding + "(" + declareVectorForm(M, Lanes) + ")";
    F->addFnAttr("vector-function-abi-variant", Variants);
    F->addFnAttr(Attribute::Speculatable);
    return F;
}

/** Whether I is scalar half arithmetic computed in float here. */
bool isHalfArithmetic(const Instruction &I)
{
    if (!I.getType()->isHalfTy())
        return false;
    if (auto *Call = dyn_cast<IntrinsicInst>(&I))
        return Call->getIntrinsicID() == Intrinsic::fmuladd;
    switch (I.getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub:
    case Instruction::FMul:
    case Instruction::FDiv:
        return true;
    default:
        return false;
    }
}

/** I, half arithmetic, made float arithmetic on its operands extended,
 *  each result rounded to half by Round. */
void computeInFloat(Instruction &I, Function *Round)
{
    IRBuilder<> B(&I);
    B.setFastMathFlags(I.getFastMathFlags());
    Type *Float = B.getFloatTy();
    auto Extended = [&](unsigned K) { return B.CreateFPExt(I.getOperand(K), Float); };
    auto Rounded = [&](Value *V) { return B.CreateCall(Round, {V}); };
    Value *Result;
    if (isa<IntrinsicInst>(I)) {
        Value *Product = Rounded(B.CreateFMul(Extended(0), Extended(1)));
        Result = Rounded(B.CreateFAdd(B.CreateFPExt(Product, Float), Extended(2)));
    } else {
        auto Op = static_cast<Instruction::BinaryOps>(I.getOpcode());
        Result = Rounded(B.CreateBinOp(Op, Extended(0), Extended(1)));
    }
    Result->takeName(&I);
    I.replaceAllUsesWith(Result);
    I.eraseFromParent();
}

} // namespace

void hideHalfTruncations(Function &F)
{
    std::vector<Instruction *> Truncations, Arithmetic;
    for (Instruction &I : instructions(F)) {
        auto *Trunc = dyn_cast<FPTruncInst>(&I);
        if (Trunc && Trunc->getType()->isHalfTy() && Trunc->getSrcTy()->isFloatTy())
            Truncations.push_back(Trunc);
        else if (isHalfArithmetic(I))
            Arithmetic.push_back(&I);
    }
    if (Truncations.empty() && Arithmetic.empty())
        return;
    Function *Round = rounding(*F.getParent());
    for (Instruction *I : Arithmetic)
        computeInFloat(*I, Round);
    for (Instruction *Trunc : Truncations)
        ReplaceInstWithInst(Trunc, CallInst::Create(Round, {Trunc->getOperand(0)}));
}

PreservedAnalyses HalfTruncationsPass::run(Module &M, ModuleAnalysisManager &)
{
    std::vector<Function *> Forms;
    for (Function &F : M)
        if (F.getName().startswith(Rounding))
            Forms.push_back(&F);
    for (Function *F : Forms) {
        while (!F->use_empty()) {
            auto *Call = cast<CallInst>(F->user_back());
            ReplaceInstWithInst(Call, new FPTruncInst(Call->getArgOperand(0), Call->getType()));
        }
        F->eraseFromParent();
    }
    return Forms.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace refcl
