// SPDX-License-Identifier: Apache-2.0
// The work-group pass's parts, shared by its files: how a kernel becomes
// one function that runs a whole work-group (refcl/kernel_abi.h), and what
// the program's table says about it.
#ifndef REFCL_PASS_H
#define REFCL_PASS_H

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <set>
#include <vector>

namespace llvm {
class AAResults;
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace refcl {

/** A kernel's work-group function and what the table says about it. */
struct KernelInfo {
    llvm::Function *Kernel = nullptr;
    llvm::Function *Run = nullptr;
    bool HasBarrier = false;
    bool UsesPrintf = false;
    uint64_t LocalBytes = 0;
    uint64_t FrameBytes = 0;
    uint64_t PrivateBytes = 0;
    uint32_t SubGroupSize = 0;
};

/** The loop nest of a work-group function, for the work-item functions
 *  and the barrier split. Blocks in execution order: Entry, RHead (the
 *  region loop), ZHead, YHead, XHead (one work-item: Lin, FrameBase),
 *  XBody (the kernel), XLatch ... ZLatch, RLatch.
 *  A kernel with sub-group barriers has the sub-group nest instead
 *  (BySubGroup): RHead (the work-group's region), ZHead (the sub-group
 *  loop), YHead (the sub-group's region loop), XHead (one work-item of
 *  the sub-group: the local ids from Lin; only the work-items stopped
 *  before the region run it), XBody, XLatch, YLatch (the sub-group's
 *  next region: the earliest one after a sub-group barrier where one of
 *  its work-items stopped), ZLatch, RLatch. */
struct Nest {
    llvm::Function *Run = nullptr;
    llvm::BasicBlock *Entry, *RHead, *ZHead, *YHead, *XHead, *XBody;
    llvm::BasicBlock *XLatch, *YLatch, *ZLatch, *RLatch;
    llvm::PHINode *Region;
    llvm::Value *Lid[3];
    llvm::Value *Lin;
    // Lin as LinRow + LinStep, LinStep the innermost loop's counter.
    llvm::Value *LinRow, *LinStep;
    llvm::Value *Items;     // work-items in this group
    // The work-items the frame lays its slots out for: the kernel's
    // required group size where it has one (a constant; a remainder group
    // is smaller, and the frames are as large as the enqueued group), else
    // Items.
    llvm::Value *FrameItems = nullptr;
    llvm::Value *FrameBase; // group->frames
    llvm::Value *LocalMem;
    // From the group, loaded in Entry.
    llvm::Value *WorkDim;
    llvm::Value *Offset[3], *GlobalSize[3], *Enqueued[3], *NumGroups[3];
    llvm::Value *GroupId[3], *LocalSize[3];
    // Sub-groups: runs of SubGroupSize consecutive local linear ids.
    uint32_t SubGroupSize = 4;
    bool BySubGroup = false;
    // A work-item's vector kept across a barrier may be kept element by
    // element, each element a slot of its own (barrier.cpp): in a kernel
    // whose work-items run no loop of their own.
    bool ElementSlots = false;
    // The block that enters a region's work-item loops (RHead, or YHead
    // in the sub-group nest), the region's number (a phi there), and the
    // loops each region gets a copy of, outermost first.
    llvm::BasicBlock *Dispatch = nullptr;
    std::vector<llvm::BasicBlock *> Heads, Latches;
    // The sub-group nest's: the sub-group's first linear id and its
    // work-items (in ZHead), whether its region loop is at its first pass
    // (a phi in YHead), and the address of the work-item's next region
    // (in XHead, the barrier split's).
    llvm::Value *SubGroupBase = nullptr, *SubGroupItems = nullptr;
    llvm::PHINode *FirstPass = nullptr;
    llvm::Value *LaneNext = nullptr;
};

/** What a function pass that changes instructions, never blocks, keeps:
 *  everything if it changed nothing, else the CFG's analyses. */
inline llvm::PreservedAnalyses instructionsChanged(bool Changed)
{
    if (!Changed)
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses PA;
    PA.preserveSet<llvm::CFGAnalyses>();
    return PA;
}

/** The module's kernels (defined, spir_kernel), in its order. */
std::vector<llvm::Function *> kernelsOf(llvm::Module &M);

/** Functions that must be inlined into a work-group function: they reach
 *  a work-item function, a barrier, a kernel-scope __local variable or
 *  printf. */
std::set<llvm::Function *> functionsToInline(llvm::Module &M);

/** The functions that call one of which Is holds, or call such a
 *  function, and so on. */
std::set<llvm::Function *> functionsReaching(llvm::Module &M,
                                             bool (*Is)(const llvm::Function *));

/** Builds K's work-group function (refcl_abi_run), with the sub-group
 *  nest when K reaches a sub-group barrier. */
KernelInfo buildWorkGroup(llvm::Function &K, const std::set<llvm::Function *> &Inline,
                          bool BySubGroup, llvm::FunctionAnalysisManager &FAM);

/** Whether F is a work-group barrier (any spelling). */
bool isBarrier(const llvm::Function *F);
/** Whether F is a sub-group barrier (either overload). */
bool isSubGroupBarrier(const llvm::Function *F);
/** The sub-group size of a kernel compiled for the CPU @p Cpu (its
 *  "target-cpu"): its 32-bit SIMD lanes. */
uint32_t subGroupSizeFor(llvm::StringRef Cpu);
/** Whether F is the work-group or the sub-group functions' scratch, which
 *  the barrier split places (__refcl_group_scratch,
 *  __refcl_sub_group_scratch, __refcl_sub_group_flags:
 *  compiler/lib/src/collective.inc). */
bool isGroupScratch(const llvm::Function *F);
/** Whether F is a work-item function (get_local_id ...). */
bool isWorkItemFunction(const llvm::Function *F);

/** Whether K's argument I is an image (its type name, as the table
 *  reads it). */
bool isImageArgument(const llvm::Function &K, unsigned I);

/** Says of @p Address, a work-group function's load of an image
 *  argument's descriptor address, what refcl-invariant-images needs
 *  (images.cpp). */
void markImageDescriptor(llvm::LoadInst &Address);

/** The struct refcl_abi_group's fields, by index, as LLVM sees the
 *  struct (groupType). */
enum GroupField {
    G_WORK_DIM = 0, G_LOCAL_BYTES, G_OFFSET, G_GLOBAL_SIZE, G_ENQUEUED,
    G_NUM_GROUPS, G_GROUP_ID, G_LOCAL_SIZE, G_LOCAL_MEM, G_FRAMES, G_PRINTF
};

/** struct refcl_abi_group as LLVM sees it. */
llvm::StructType *groupType(llvm::LLVMContext &C);

/** Loads field F (of type Ty) of the group at Group. */
llvm::Value *loadField(llvm::IRBuilder<> &B, llvm::Value *Group, GroupField F,
                       llvm::Type *Ty);
/** Loads the three size_t of field F (a [3 x i64]), invariant. */
void loadTriple(llvm::IRBuilder<> &B, llvm::Value *Group, GroupField F,
                llvm::Value *Out[3]);

/** Whether F asks which named address space a generic pointer points to
 *  (to_global, to_local, to_private, get_fence). */
bool isAddressSpaceQuery(const llvm::Function *F);

/** Replaces Run's address-space queries, inlined there, by comparisons
 *  with the group's __local memory, its frames (FrameBytes per work-item)
 *  and Run's stack (generic.cpp); returns whether there was any. */
bool lowerAddressSpaceQueries(llvm::Function &Run, uint64_t FrameBytes);

/** Whether F is OpenCL C's printf. */
bool isPrintfFunction(const llvm::Function *F);

/** Turns Run's printf calls into records in the command's printf buffer
 *  (printf.cpp); returns whether there was any. */
bool lowerPrintf(llvm::Function *Run);

/** Makes the relaxed atomic additions of F's work-item loops, where
 *  nothing in the loop could tell, one per address and loop (atomics.cpp);
 *  returns whether F changed. */
bool combineAtomics(llvm::Function &F, llvm::LoopInfo &LI, llvm::AAResults &AA);

/** The values of a nest's kernel that are the same in every work-item of
 *  the group (uniform.cpp), among the instructions the nest has when this
 *  is built: one made later is not. */
class UniformValues {
public:
    explicit UniformValues(const Nest &N);
    bool isUniform(const llvm::Value *V) const;

private:
    std::set<const llvm::Value *> Uniform;
};

/** Whether Vector's elements are whole bytes, each its size after the one
 *  before (no i1, no padding): one can be loaded or stored alone. */
bool packedElements(llvm::FixedVectorType *Vector, const llvm::DataLayout &DL);

/** Makes L's loads and stores of vectors of packed elements (not volatile
 *  or atomic) one per element, each at its own element type's address
 *  (elements.cpp). */
void splitVectorAccesses(llvm::Loop &L);

/** The bits of the target's widest vector register. */
unsigned vectorRegisterBits(llvm::FunctionAnalysisManager &FAM, llvm::Function &F);

/** What the vector work of Blocks, straight code of the work-item loop
 *  Items, costs a work-item, in operations: with each work-item's vectors
 *  whole, and with the work-items as the lanes of VectorBits-wide
 *  registers, their vectors made scalars (elements.cpp). */
struct LaneCosts {
    double Whole = 0, AsLanes = 0;
    bool lanesPay() const { return AsLanes < Whole; }
};
LaneCosts laneCosts(llvm::ArrayRef<llvm::BasicBlock *> Blocks, const llvm::Loop &Items,
                    llvm::ScalarEvolution &SE, unsigned VectorBits);

/** Whether every vector F computes, loads or stores is narrower than
 *  a vector register, or 128 bits (float4, double2; float8 with
 *  AVX-512): made scalars, each work-item's become lanes of the SLP or
 *  loop vectorizer's vectors, as a scalar kernel's do; a vector that
 *  fills a register (float16) is kept whole (elements.cpp). */
bool narrowVectorsOnly(llvm::Function &F, unsigned VectorBits);

/** Puts a barrier at the top of each outer loop of the nest's kernel (one
 *  without barriers) that every work-item runs for as many iterations and
 *  that holds a long loop (chunk.cpp); returns whether it put one. */
bool chunkLoopNests(Nest &N, llvm::FunctionAnalysisManager &FAM);

/** Whether each of the barriers chunkLoopNests put is still in a loop
 *  round a long loop (the loops of constant count unrolled since). */
bool chunksHoldLoops(Nest &N, const std::vector<llvm::CallInst *> &Barriers,
                     llvm::FunctionAnalysisManager &FAM);

/** Splits the nest's kernel at its barriers (there is one at least; with
 *  sub-group barriers, N is the sub-group nest), keeps what lives across
 *  them per work-item, and gives each region its own copy of the nest's
 *  work-item loops (N's blocks are gone); returns the frame size. */
uint64_t splitAtBarriers(Nest &N, std::vector<llvm::CallInst *> &Barriers,
                         llvm::FunctionAnalysisManager &FAM);

/** Unrolls the loops of constant trip count in the nest's kernel and
 *  splits its private arrays into values where the indices have become
 *  constants, before splitAtBarriers gives every array left a frame slot. */
void scalarizePrivateArrays(Nest &N, llvm::FunctionAnalysisManager &FAM);

/** Marks the x loop of Body (its blocks) and Latch parallel. */
void markParallel(const std::vector<llvm::BasicBlock *> &Body, llvm::BasicBlock *Latch);

/** Records what the table says about a kernel in the module's
 *  !refcl.kernels, for the table pass after the work-group pass. */
void recordKernel(const KernelInfo &Info);

/** The kernels !refcl.kernels records (those whose functions are still
 *  there), in its order. */
std::vector<KernelInfo> recordedKernels(const llvm::Module &M);

/** Emits refcl_program_table. */
void emitTable(llvm::Module &M, const std::vector<KernelInfo> &Kernels,
               uint64_t GlobalVariableBytes);

} // namespace refcl

#endif
