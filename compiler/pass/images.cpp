// SPDX-License-Identifier: Apache-2.0
// Image descriptors are read-only to kernels: refcl fills each struct
// refcl_abi_image at enqueue and no kernel can write one (OpenCL C has no
// store to an image object, only to its texels, which the descriptor
// points to). The work-group function's load of an image argument's
// descriptor address says so (refcl.image, and that 'sizeof' bytes are
// there); once the builtin library is inlined, refcl-invariant-images
// marks every load of a descriptor field !invariant.load. The texel
// stores in the work-item loop then no longer pin those loads, so LICM
// hoists the format test, the extent and the pitches out of the loop.
#include "pass.h"
#include "passes.h"

#include "refcl/kernel_abi.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>

using namespace llvm;

namespace refcl {

static const char ImageMarker[] = "refcl.image";

void markImageDescriptor(LoadInst &Address)
{
    LLVMContext &C = Address.getContext();
    MDBuilder MDB(C);
    auto Bytes = [&](uint64_t N) {
        return MDNode::get(C, {MDB.createConstant(ConstantInt::get(Type::getInt64Ty(C), N))});
    };
    Address.setMetadata(LLVMContext::MD_nonnull, MDNode::get(C, {}));
    Address.setMetadata(LLVMContext::MD_dereferenceable, Bytes(sizeof(struct refcl_abi_image)));
    Address.setMetadata(LLVMContext::MD_align, Bytes(alignof(struct refcl_abi_image)));
    Address.setMetadata(ImageMarker, MDNode::get(C, {}));
}

namespace {

// The loads whose address is the descriptor's, or a field's within it;
// not what those loads return (the texels are the kernel's to write).
bool markFieldLoads(Value *Descriptor)
{
    bool Changed = false;
    std::vector<Value *> Work = {Descriptor};
    while (!Work.empty()) {
        Value *V = Work.back();
        Work.pop_back();
        for (User *U : V->users()) {
            if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) || isa<AddrSpaceCastInst>(U)) {
                Work.push_back(U);
            } else if (auto *L = dyn_cast<LoadInst>(U);
                       L && L->getPointerOperand() == V && !L->isVolatile() &&
                       !L->hasMetadata(LLVMContext::MD_invariant_load)) {
                L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(L->getContext(), {}));
                Changed = true;
            }
        }
    }
    return Changed;
}

} // namespace

PreservedAnalyses InvariantImagesPass::run(Function &F, FunctionAnalysisManager &)
{
    bool Changed = false;
    for (Instruction &I : instructions(F))
        if (I.hasMetadata(ImageMarker))
            Changed |= markFieldLoads(&I);
    return instructionsChanged(Changed);
}

} // namespace refcl
