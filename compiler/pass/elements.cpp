// SPDX-License-Identifier: Apache-2.0
// A work-item loop's vector loads and stores made element by element. The
// loop vectorizer takes no loop that computes vectors ("instruction return
// type cannot be vectorized"): a work-item's float2 or float4 made scalars
// (the Scalarizer), the work-items become its lanes, and its interleaved
// groups load consecutive work-items' vectors a register at a time. LLVM
// 15's Scalarizer can split loads and stores itself, but it keeps one set
// of element addresses per pointer: with opaque pointers a pointer stored
// through as <4 x float> on one path and as <4 x i8> on another got the
// float's addresses for both (an image's texel written 4 bytes apart).
// Here each access makes its own, of its own element type.
//
// Made lanes, a loop whose vectors the work-item reads from addresses of
// its own (a pixel at a clamped coordinate) gathers each element apart:
// lanesPay weighs that against the vector arithmetic the lanes save.
#include "pass.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace refcl {
namespace {

/** The metadata an element's access keeps of the vector's: what holds of
 *  every byte of it (as LLVM's Scalarizer keeps). */
void copyAccessMetadata(const Instruction &From, Instruction &To)
{
    for (unsigned Kind : {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                          LLVMContext::MD_noalias, LLVMContext::MD_nontemporal,
                          LLVMContext::MD_access_group, LLVMContext::MD_invariant_load})
        if (MDNode *Node = From.getMetadata(Kind))
            To.setMetadata(Kind, Node);
}

/** The vector type of a plain access of whole bytes per element, or null:
 *  volatile and atomic accesses stay whole, as do vectors of i1 (packed). */
FixedVectorType *splittable(const Instruction &I)
{
    Type *Ty = nullptr;
    if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        Ty = Load->getType();
    else if (auto *Store = dyn_cast<StoreInst>(&I); Store && Store->isSimple())
        Ty = Store->getValueOperand()->getType();
    auto *Vector = dyn_cast_or_null<FixedVectorType>(Ty);
    return Vector && packedElements(Vector, I.getModule()->getDataLayout()) ? Vector : nullptr;
}

/** Element E's address and alignment in the vector at Address. */
std::pair<Value *, Align> elementAt(IRBuilder<> &B, FixedVectorType *Vector, Value *Address,
                                    Align Whole, unsigned E)
{
    const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
    Type *Element = Vector->getElementType();
    uint64_t Offset = DL.getTypeAllocSize(Element) * E;
    return {B.CreateConstGEP1_32(Element, Address, E), commonAlignment(Whole, Offset)};
}

void splitLoad(LoadInst &Load, FixedVectorType *Vector)
{
    IRBuilder<> B(&Load);
    Value *Whole = PoisonValue::get(Vector);
    for (unsigned E = 0; E < Vector->getNumElements(); E++) {
        auto [Address, Alignment] =
            elementAt(B, Vector, Load.getPointerOperand(), Load.getAlign(), E);
        LoadInst *Part = B.CreateAlignedLoad(Vector->getElementType(), Address, Alignment);
        copyAccessMetadata(Load, *Part);
        Whole = B.CreateInsertElement(Whole, Part, E);
    }
    Whole->takeName(&Load);
    Load.replaceAllUsesWith(Whole);
    Load.eraseFromParent();
}

void splitStore(StoreInst &Store, FixedVectorType *Vector)
{
    IRBuilder<> B(&Store);
    for (unsigned E = 0; E < Vector->getNumElements(); E++) {
        auto [Address, Alignment] =
            elementAt(B, Vector, Store.getPointerOperand(), Store.getAlign(), E);
        Value *Part = B.CreateExtractElement(Store.getValueOperand(), E);
        StoreInst *PartStore = B.CreateAlignedStore(Part, Address, Alignment);
        copyAccessMetadata(Store, *PartStore);
    }
    Store.eraseFromParent();
}

/** What a vector access costs a work-item, in operations, with the
 *  work-items as Lanes lanes: consecutive work-items' vectors are loaded
 *  a register at a time and sorted into elements (about two operations a
 *  register), the same vector for all is loaded once; any other address
 *  is an element's gather, a lane at a time in the hardware (AVX-512's
 *  gathers take 32 and 64-bit elements; narrower ones are loaded one by
 *  one, and cost twice). */
double laneAccessCost(const Instruction &I, FixedVectorType *Vector, const Loop &L,
                      ScalarEvolution &SE, unsigned Lanes)
{
    const DataLayout &DL = I.getModule()->getDataLayout();
    double Elements = Vector->getNumElements();
    const SCEV *At = SE.getSCEV(const_cast<Value *>(getLoadStorePointerOperand(&I)));
    if (SE.isLoopInvariant(At, &L))
        return Elements / Lanes;
    auto *Step = dyn_cast<SCEVAddRecExpr>(At);
    if (Step && Step->getLoop() == &L) {
        auto *Stride = dyn_cast<SCEVConstant>(Step->getStepRecurrence(SE));
        if (Stride && Stride->getAPInt() == DL.getTypeStoreSize(Vector))
            return 2 * Elements / Lanes;
    }
    return Elements * (DL.getTypeSizeInBits(Vector->getElementType()) >= 32 ? 1 : 2);
}

/** Whether I computes a vector (not one moving elements about, which the
 *  lanes do not do at all). */
bool vectorArithmetic(const Instruction &I)
{
    return I.getType()->isVectorTy() &&
           (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CastInst>(I) ||
            isa<CmpInst>(I) || isa<SelectInst>(I) || isa<CallInst>(I));
}

} // namespace

bool packedElements(FixedVectorType *Vector, const DataLayout &DL)
{
    Type *Element = Vector->getElementType();
    bool WholeBytes = DL.getTypeSizeInBits(Element) == DL.getTypeStoreSizeInBits(Element);
    return WholeBytes &&
           DL.getTypeAllocSize(Element) * Vector->getNumElements() == DL.getTypeStoreSize(Vector);
}

unsigned vectorRegisterBits(FunctionAnalysisManager &FAM, Function &F)
{
    return FAM.getResult<TargetIRAnalysis>(F)
        .getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
        .getFixedSize();
}

LaneCosts laneCosts(ArrayRef<BasicBlock *> Blocks, const Loop &Items, ScalarEvolution &SE,
                    unsigned VectorBits)
{
    // Per work-item: kept whole, each vector access and operation is one
    // operation; as lanes, an operation's elements share Lanes-wide ones.
    unsigned Lanes = VectorBits / 32;
    LaneCosts Cost;
    for (BasicBlock *BB : Blocks)
        for (Instruction &I : *BB) {
            if (FixedVectorType *Vector = splittable(I)) {
                Cost.Whole += 1;
                Cost.AsLanes += laneAccessCost(I, Vector, Items, SE, Lanes);
            } else if (vectorArithmetic(I)) {
                Cost.Whole += 1;
                Cost.AsLanes +=
                    double(cast<FixedVectorType>(I.getType())->getNumElements()) / Lanes;
            }
        }
    return Cost;
}

bool narrowVectorsOnly(Function &F, unsigned VectorBits)
{
    unsigned Narrow = std::max(128u, VectorBits / 2);
    for (Instruction &I : instructions(F)) {
        Type *Ty = I.getType();
        if (auto *Store = dyn_cast<StoreInst>(&I))
            Ty = Store->getValueOperand()->getType();
        if (Ty->isVectorTy() && Ty->getPrimitiveSizeInBits().getKnownMinSize() > Narrow)
            return false;
    }
    return true;
}

void splitVectorAccesses(Loop &L)
{
    std::vector<std::pair<Instruction *, FixedVectorType *>> Accesses;
    for (BasicBlock *BB : L.blocks())
        for (Instruction &I : *BB)
            if (FixedVectorType *Vector = splittable(I))
                Accesses.emplace_back(&I, Vector);
    for (auto [I, Vector] : Accesses) {
        if (auto *Load = dyn_cast<LoadInst>(I))
            splitLoad(*Load, Vector);
        else
            splitStore(*cast<StoreInst>(I), Vector);
    }
}

} // namespace refcl
