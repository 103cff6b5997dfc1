// SPDX-License-Identifier: Apache-2.0
// refcl_program_table: the program as the runtime sees it (struct
// refcl_abi_program of refcl/kernel_abi.h), built from the kernels'
// metadata as clang-15 emits it (kernel_arg_addr_space, _access_qual,
// _type, _type_qual, _name; reqd_work_group_size, work_group_size_hint,
// vec_type_hint).
#include "pass.h"
#include "passes.h"

#include "refcl/kernel_abi.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

using namespace llvm;

namespace refcl {
namespace {

// OpenCL's values (CL/cl.h), which the table carries as they are.
constexpr uint32_t ACCESS_READ_ONLY = 0x11A0, ACCESS_WRITE_ONLY = 0x11A1,
                   ACCESS_READ_WRITE = 0x11A2, ACCESS_NONE = 0x11A3;
constexpr uint64_t TYPE_CONST = 1 << 0, TYPE_RESTRICT = 1 << 1,
                   TYPE_VOLATILE = 1 << 2, TYPE_PIPE = 1 << 3;

struct Emitter {
    Module &M;
    LLVMContext &C;
    const DataLayout &DL;
    Type *I32, *I64, *Ptr;
    StructType *ArgT, *KernelT, *ProgramT;
    StringMap<Constant *> Strings;

    explicit Emitter(Module &Mod)
        : M(Mod), C(Mod.getContext()), DL(Mod.getDataLayout()),
          I32(Type::getInt32Ty(C)), I64(Type::getInt64Ty(C)), Ptr(PointerType::get(C, 0))
    {
        Type *A3 = ArrayType::get(I32, 3);
        ArgT = StructType::get(C, {I32, I32, I32, I32, I64, Ptr, Ptr});
        KernelT = StructType::get(C, {Ptr, Ptr, I32, I32, Ptr, I64, I64, I64, A3, A3, Ptr, Ptr,
                                      I32, I32, I32});
        ProgramT = StructType::get(C, {I32, I32, Ptr, I64});
    }

    Constant *i32(uint64_t V) { return ConstantInt::get(I32, V); }
    Constant *i64(uint64_t V) { return ConstantInt::get(I64, V); }

    Constant *string(StringRef S)
    {
        Constant *&G = Strings[S];
        if (!G) {
            Constant *Init = ConstantDataArray::getString(C, S);
            auto *V = new GlobalVariable(M, Init->getType(), true, GlobalValue::PrivateLinkage,
                                         Init, "refcl.str");
            V->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
            G = V;
        }
        return G;
    }

    Constant *array(Type *T, ArrayRef<Constant *> Elems, const Twine &Name)
    {
        auto *AT = ArrayType::get(T, Elems.size());
        return new GlobalVariable(M, AT, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(AT, Elems), Name);
    }
};

StringRef mdString(const MDNode *N, unsigned I)
{
    if (!N || I >= N->getNumOperands())
        return "";
    if (auto *S = dyn_cast<MDString>(N->getOperand(I)))
        return S->getString();
    return "";
}

uint64_t mdInt(const MDNode *N, unsigned I)
{
    if (!N || I >= N->getNumOperands())
        return 0;
    if (auto *V = mdconst::dyn_extract<ConstantInt>(N->getOperand(I)))
        return V->getZExtValue();
    return 0;
}

uint32_t accessOf(StringRef Qual)
{
    if (Qual == "read_only")
        return ACCESS_READ_ONLY;
    if (Qual == "write_only")
        return ACCESS_WRITE_ONLY;
    if (Qual == "read_write")
        return ACCESS_READ_WRITE;
    return ACCESS_NONE;
}

uint64_t qualifiersOf(StringRef Quals, uint32_t Kind)
{
    SmallVector<StringRef, 4> Words;
    Quals.split(Words, ' ', -1, false);
    uint64_t Bits = Kind == REFCL_ABI_ARG_CONSTANT ? TYPE_CONST : 0;
    for (StringRef W : Words)
        Bits |= StringSwitch<uint64_t>(W)
                    .Case("const", TYPE_CONST)
                    .Case("restrict", TYPE_RESTRICT)
                    .Case("volatile", TYPE_VOLATILE)
                    .Case("pipe", TYPE_PIPE)
                    .Default(0);
    return Bits;
}

// An image type's name as clang spells it (image2d_t, image1d_buffer_t,
// image2d_array_depth_t ...), never a pointer to one.
bool isImageType(StringRef Type)
{
    return Type.startswith("image") && Type.endswith("_t") && !Type.contains('*');
}

// The kind comes from the base type (what a typedef names) and the
// qualifiers: clang gives images the global address space, samplers the
// constant one, so those are read before the address space.
uint32_t kindOf(uint64_t AddrSpace, StringRef BaseType, StringRef Quals)
{
    if (Quals.contains("pipe"))
        return REFCL_ABI_ARG_UNSUPPORTED;
    if (isImageType(BaseType))
        return REFCL_ABI_ARG_IMAGE;
    if (BaseType == "sampler_t")
        return REFCL_ABI_ARG_SAMPLER;
    switch (AddrSpace) {
    case 1: return REFCL_ABI_ARG_GLOBAL;
    case 2: return REFCL_ABI_ARG_CONSTANT;
    case 3: return REFCL_ABI_ARG_LOCAL;
    default: return REFCL_ABI_ARG_VALUE;
    }
}

} // namespace

bool isImageArgument(const Function &K, unsigned I)
{
    StringRef Type = mdString(K.getMetadata("kernel_arg_type"), I);
    StringRef BaseType = mdString(K.getMetadata("kernel_arg_base_type"), I);
    return isImageType(BaseType.empty() ? Type : BaseType);
}

namespace {

Constant *argument(Emitter &E, Function &K, unsigned I)
{
    Argument &A = *K.getArg(I);
    StringRef Type = mdString(K.getMetadata("kernel_arg_type"), I);
    StringRef BaseType = mdString(K.getMetadata("kernel_arg_base_type"), I);
    StringRef Quals = mdString(K.getMetadata("kernel_arg_type_qual"), I);
    uint32_t Kind = kindOf(mdInt(K.getMetadata("kernel_arg_addr_space"), I),
                           BaseType.empty() ? Type : BaseType, Quals);
    uint64_t Size = 8, Alignment = 1;
    if (Kind == REFCL_ABI_ARG_IMAGE || Kind == REFCL_ABI_ARG_SAMPLER) {
        // The slot holds a descriptor's address or the sampler's bits.
        Alignment = 8;
    } else if (A.hasByValAttr()) {
        Size = E.DL.getTypeAllocSize(A.getParamByValType());
        Alignment = A.getParamAlign().valueOrOne().value();
    } else if (!A.getType()->isPointerTy()) {
        Size = E.DL.getTypeAllocSize(A.getType());
        Alignment = E.DL.getABITypeAlign(A.getType()).value();
    } else {
        Alignment = A.getParamAlign().valueOrOne().value();
    }
    const MDNode *Names = K.getMetadata("kernel_arg_name");
    Constant *Name = Names ? E.string(mdString(Names, I))
                           : ConstantPointerNull::get(cast<PointerType>(E.Ptr));
    return ConstantStruct::get(E.ArgT, {E.i32(Kind), E.i32(Size), E.i32(Alignment),
                                        E.i32(accessOf(mdString(K.getMetadata("kernel_arg_access_qual"), I))),
                                        E.i64(qualifiersOf(Quals, Kind)), E.string(Type), Name});
}

Constant *triple(Emitter &E, const MDNode *N)
{
    return ConstantArray::get(ArrayType::get(E.I32, 3),
                              {E.i32(mdInt(N, 0)), E.i32(mdInt(N, 1)), E.i32(mdInt(N, 2))});
}

// vec_type_hint(<type>): the metadata holds an undef of the type and
// whether an integer type is signed.
std::string vecTypeHint(const MDNode *N)
{
    if (!N)
        return "";
    Type *T = cast<ValueAsMetadata>(N->getOperand(0))->getType();
    unsigned Count = 1;
    if (auto *V = dyn_cast<FixedVectorType>(T)) {
        Count = V->getNumElements();
        T = V->getElementType();
    }
    std::string Name;
    if (T->isHalfTy()) Name = "half";
    else if (T->isFloatTy()) Name = "float";
    else if (T->isDoubleTy()) Name = "double";
    else {
        static const char *const Ints[] = {"char", "short", "int", "long"};
        unsigned Bits = T->getIntegerBitWidth();
        Name = Ints[Bits == 8 ? 0 : Bits == 16 ? 1 : Bits == 32 ? 2 : 3];
        if (!mdInt(N, 1))
            Name = "u" + Name;
    }
    return Count > 1 ? Name + std::to_string(Count) : Name;
}

std::string attributes(const Function &K, const std::string &Hint)
{
    std::string S;
    raw_string_ostream OS(S);
    auto Triple = [&](const char *Name, const MDNode *N) {
        if (N)
            OS << (S.empty() ? "" : " ") << Name << "(" << mdInt(N, 0) << "," << mdInt(N, 1)
               << "," << mdInt(N, 2) << ")";
    };
    Triple("reqd_work_group_size", K.getMetadata("reqd_work_group_size"));
    Triple("work_group_size_hint", K.getMetadata("work_group_size_hint"));
    OS.flush();
    if (!Hint.empty())
        S += (S.empty() ? "" : " ") + ("vec_type_hint(" + Hint + ")");
    return S;
}

Constant *kernel(Emitter &E, const KernelInfo &Info)
{
    Function &K = *Info.Kernel;
    std::vector<Constant *> Args;
    for (unsigned I = 0; I < K.arg_size(); I++)
        Args.push_back(argument(E, K, I));
    Constant *ArgArray = Args.empty() ? ConstantPointerNull::get(cast<PointerType>(E.Ptr))
                                      : E.array(E.ArgT, Args, "refcl.args." + K.getName());
    std::string Hint = vecTypeHint(K.getMetadata("vec_type_hint"));
    Constant *HintStr = Hint.empty() ? ConstantPointerNull::get(cast<PointerType>(E.Ptr))
                                     : E.string(Hint);
    return ConstantStruct::get(
        E.KernelT, {E.string(K.getName()), Info.Run, E.i32(K.arg_size()), E.i32(Info.HasBarrier),
                    ArgArray, E.i64(Info.LocalBytes), E.i64(Info.FrameBytes),
                    E.i64(Info.PrivateBytes), triple(E, K.getMetadata("reqd_work_group_size")),
                    triple(E, K.getMetadata("work_group_size_hint")), HintStr,
                    E.string(attributes(K, Hint)), E.i32(Info.UsesPrintf),
                    E.i32(Info.SubGroupSize), E.i32(0)});
}

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE counts the program-scope
// __global variables (address space 1 in clang's OpenCL map), function-scope
// statics included; __constant ones (address space 2) are not "in the
// global address space". Each variable's size as sizeof gives it, without
// the padding between them.
uint64_t globalVariableBytes(const Module &M)
{
    uint64_t Bytes = 0;
    for (const GlobalVariable &G : M.globals())
        if (G.getAddressSpace() == 1 && !G.isDeclaration())
            Bytes += M.getDataLayout().getTypeAllocSize(G.getValueType());
    return Bytes;
}

constexpr const char *KernelsMetadata = "refcl.kernels";

// struct refcl_abi_program's fields, as emitTable makes them.
enum TableField { TABLE_KERNELS = 2, TABLE_GLOBAL_BYTES = 3, TABLE_FIELDS };

// One kernel's node: kernel, work-group function, then the fields below.
enum RecordField {
    R_KERNEL, R_RUN, R_BARRIER, R_PRINTF, R_LOCAL, R_FRAME, R_PRIVATE, R_SUB_GROUP, R_COUNT
};

Function *mdFunction(const MDNode *N, unsigned I)
{
    return mdconst::dyn_extract_or_null<Function>(N->getOperand(I));
}

} // namespace

void recordKernel(const KernelInfo &Info)
{
    Module &M = *Info.Kernel->getParent();
    LLVMContext &C = M.getContext();
    Type *I1 = Type::getInt1Ty(C), *I64 = Type::getInt64Ty(C);
    Metadata *Ops[R_COUNT] = {
        ConstantAsMetadata::get(Info.Kernel), ConstantAsMetadata::get(Info.Run),
        ConstantAsMetadata::get(ConstantInt::get(I1, Info.HasBarrier)),
        ConstantAsMetadata::get(ConstantInt::get(I1, Info.UsesPrintf)),
        ConstantAsMetadata::get(ConstantInt::get(I64, Info.LocalBytes)),
        ConstantAsMetadata::get(ConstantInt::get(I64, Info.FrameBytes)),
        ConstantAsMetadata::get(ConstantInt::get(I64, Info.PrivateBytes)),
        ConstantAsMetadata::get(ConstantInt::get(I64, Info.SubGroupSize))};
    M.getOrInsertNamedMetadata(KernelsMetadata)->addOperand(MDNode::get(C, Ops));
}

std::vector<KernelInfo> recordedKernels(const Module &M)
{
    std::vector<KernelInfo> Kernels;
    const NamedMDNode *Records = M.getNamedMetadata(KernelsMetadata);
    if (!Records)
        return Kernels;
    for (const MDNode *N : Records->operands()) {
        if (N->getNumOperands() != R_COUNT || !mdFunction(N, R_KERNEL) || !mdFunction(N, R_RUN))
            continue;
        KernelInfo Info;
        Info.Kernel = mdFunction(N, R_KERNEL);
        Info.Run = mdFunction(N, R_RUN);
        Info.HasBarrier = mdInt(N, R_BARRIER);
        Info.UsesPrintf = mdInt(N, R_PRINTF);
        Info.LocalBytes = mdInt(N, R_LOCAL);
        Info.FrameBytes = mdInt(N, R_FRAME);
        Info.PrivateBytes = mdInt(N, R_PRIVATE);
        Info.SubGroupSize = mdInt(N, R_SUB_GROUP);
        Kernels.push_back(Info);
    }
    return Kernels;
}

// A module with a table already, or no work-group function recorded, has
// nothing to make one of.
PreservedAnalyses ProgramTablePass::run(Module &M, ModuleAnalysisManager &)
{
    std::vector<KernelInfo> Kernels = recordedKernels(M);
    if (Kernels.empty() || M.getNamedValue(REFCL_ABI_TABLE_SYMBOL))
        return PreservedAnalyses::all();
    emitTable(M, Kernels, globalVariableBytes(M));
    M.eraseNamedMetadata(M.getNamedMetadata(KernelsMetadata));
    return PreservedAnalyses::none();
}

// "The total amount of storage, in bytes, used by program variables in the
// global address space": what the executable holds, so counted once the
// optimizer is done. Internal by then, a variable no kernel uses is gone
// (GlobalDCE) and one never written folded into its readers (GlobalOpt);
// code generation and the link keep every variable left.
PreservedAnalyses GlobalBytesPass::run(Module &M, ModuleAnalysisManager &)
{
    GlobalVariable *Table = M.getNamedGlobal(REFCL_ABI_TABLE_SYMBOL);
    auto *Init = Table && Table->hasInitializer()
                     ? dyn_cast<ConstantStruct>(Table->getInitializer())
                     : nullptr;
    if (!Init || Init->getNumOperands() != TABLE_FIELDS)
        return PreservedAnalyses::all();
    auto *Old = dyn_cast<ConstantInt>(Init->getOperand(TABLE_GLOBAL_BYTES));
    uint64_t Bytes = globalVariableBytes(M);
    if (!Old || Old->getZExtValue() == Bytes)
        return PreservedAnalyses::all();
    SmallVector<Constant *, TABLE_FIELDS> Fields;
    for (Use &Op : Init->operands())
        Fields.push_back(cast<Constant>(Op.get()));
    Fields[TABLE_GLOBAL_BYTES] = ConstantInt::get(Old->getType(), Bytes);
    Table->setInitializer(ConstantStruct::get(Init->getType(), Fields));
    return PreservedAnalyses::none();
}

// struct refcl_abi_kernel's fields: the work-group function, and the count
// of work-items it runs at a time.
enum KernelField { KERNEL_RUN = 1, KERNEL_WORK_ITEMS_PER_STEP = 14, KERNEL_FIELDS };

PreservedAnalyses WorkItemsPerStepPass::run(Module &M, ModuleAnalysisManager &)
{
    GlobalVariable *Table = M.getNamedGlobal(REFCL_ABI_TABLE_SYMBOL);
    auto *Init = Table && Table->hasInitializer()
                     ? dyn_cast<ConstantStruct>(Table->getInitializer())
                     : nullptr;
    auto *Kernels = Init && Init->getNumOperands() == TABLE_FIELDS
                        ? dyn_cast<GlobalVariable>(Init->getOperand(TABLE_KERNELS))
                        : nullptr;
    auto *Entries = Kernels && Kernels->hasInitializer()
                        ? dyn_cast<ConstantArray>(Kernels->getInitializer())
                        : nullptr;
    if (!Entries)
        return PreservedAnalyses::all();
    bool Changed = false;
    SmallVector<Constant *, 8> NewEntries;
    for (Use &Op : Entries->operands()) {
        auto *Entry = cast<ConstantStruct>(Op.get());
        auto *Run = dyn_cast<Function>(Entry->getOperand(KERNEL_RUN));
        Attribute Steps = Run ? Run->getFnAttribute(WorkItemsPerStepAttribute) : Attribute();
        unsigned Count = 0;
        if (Entry->getNumOperands() != KERNEL_FIELDS || !Steps.isStringAttribute() ||
            Steps.getValueAsString().getAsInteger(10, Count)) {
            NewEntries.push_back(Entry);
            continue;
        }
        SmallVector<Constant *, KERNEL_FIELDS> Fields;
        for (Use &Field : Entry->operands())
            Fields.push_back(cast<Constant>(Field.get()));
        Fields[KERNEL_WORK_ITEMS_PER_STEP] =
            ConstantInt::get(Type::getInt32Ty(M.getContext()), Count);
        NewEntries.push_back(ConstantStruct::get(Entry->getType(), Fields));
        Changed = true;
    }
    if (!Changed)
        return PreservedAnalyses::all();
    Kernels->setInitializer(ConstantArray::get(Entries->getType(), NewEntries));
    return PreservedAnalyses::none();
}

void emitTable(Module &M, const std::vector<KernelInfo> &Kernels, uint64_t GlobalVariableBytes)
{
    Emitter E(M);
    std::vector<Constant *> Entries;
    for (const KernelInfo &Info : Kernels)
        Entries.push_back(kernel(E, Info));
    Constant *Table = ConstantStruct::get(
        E.ProgramT, {E.i32(REFCL_ABI_VERSION), E.i32(Kernels.size()),
                     E.array(E.KernelT, Entries, "refcl.kernels"), E.i64(GlobalVariableBytes)});
    auto *G = new GlobalVariable(M, E.ProgramT, true, GlobalValue::ExternalLinkage, Table,
                                 REFCL_ABI_TABLE_SYMBOL);
    G->setVisibility(GlobalValue::DefaultVisibility);
    G->setAlignment(Align(8));
}

} // namespace refcl
