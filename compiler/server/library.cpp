/* SPDX-License-Identifier: Apache-2.0 */
#include "library.h"

#include <cerrno>
#include <cstring>

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace refcl {
namespace {

/* Jobs served by one reading of the library: bounds what the jobs'
 * constants and metadata add to the shared context (a re-read costs about
 * 100 ms; 250 jobs grew the context by under 1 MB). */
constexpr unsigned JobsPerReading = 2048;

bool sameFile(const struct stat &A, const struct stat &B) {
  return A.st_dev == B.st_dev && A.st_ino == B.st_ino &&
         A.st_size == B.st_size && A.st_mtim.tv_sec == B.st_mtim.tv_sec &&
         A.st_mtim.tv_nsec == B.st_mtim.tv_nsec;
}

/* The global values @p C names, through constant expressions and
 * aggregates, into @p Out. */
void collect(const llvm::Value *V, llvm::SmallPtrSetImpl<const llvm::Value *> &Seen,
             std::vector<llvm::GlobalValue *> &Out) {
  if (!llvm::isa<llvm::Constant>(V) || !Seen.insert(V).second)
    return;
  if (auto *GV = llvm::dyn_cast<llvm::GlobalValue>(V)) {
    Out.push_back(const_cast<llvm::GlobalValue *>(GV));
    return;
  }
  for (const llvm::Use &Op : llvm::cast<llvm::Constant>(V)->operands())
    collect(Op.get(), Seen, Out);
}

/* @p GV's counterpart in @p Out: a declaration, the body comes later. */
llvm::GlobalValue *declare(llvm::Module &Out, const llvm::GlobalValue *GV) {
  llvm::GlobalObject *New;
  if (auto *F = llvm::dyn_cast<llvm::Function>(GV)) {
    auto *NewF = llvm::Function::Create(F->getFunctionType(), F->getLinkage(),
                                        F->getAddressSpace(), F->getName(),
                                        &Out);
    NewF->copyAttributesFrom(F);
    New = NewF;
  } else {
    auto *V = llvm::cast<llvm::GlobalVariable>(GV);
    auto *NewV = new llvm::GlobalVariable(
        Out, V->getValueType(), V->isConstant(), V->getLinkage(), nullptr,
        V->getName(), nullptr, V->getThreadLocalMode(),
        V->getType()->getAddressSpace());
    NewV->copyAttributesFrom(V);
    New = NewV;
  }
  if (const llvm::Comdat *C = llvm::cast<llvm::GlobalObject>(GV)->getComdat()) {
    llvm::Comdat *Mine = Out.getOrInsertComdat(C->getName());
    Mine->setSelectionKind(C->getSelectionKind());
    New->setComdat(Mine);
  }
  return New;
}

/* Gives @p GV's counterpart (in @p Map) its body or initializer. */
void define(const llvm::GlobalValue *GV, llvm::ValueToValueMapTy &Map) {
  if (GV->isDeclaration())
    return;
  if (auto *V = llvm::dyn_cast<llvm::GlobalVariable>(GV)) {
    auto *New = llvm::cast<llvm::GlobalVariable>(Map[V]);
    New->setInitializer(llvm::MapValue(V->getInitializer(), Map));
    llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 1> MDs;
    V->getAllMetadata(MDs);
    for (auto &[Kind, MD] : MDs)
      New->addMetadata(Kind, *llvm::MapMetadata(MD, Map));
    return;
  }
  auto *F = llvm::cast<llvm::Function>(GV);
  auto *New = llvm::cast<llvm::Function>(Map[F]);
  auto Arg = New->arg_begin();
  for (const llvm::Argument &A : F->args()) {
    Arg->setName(A.getName());
    Map[&A] = &*Arg++;
  }
  llvm::SmallVector<llvm::ReturnInst *, 4> Returns;
  llvm::CloneFunctionInto(New, F, Map,
                          llvm::CloneFunctionChangeType::DifferentModule,
                          Returns);
}

} // namespace

llvm::LLVMContext *BuiltinLibrary::prepare(const std::string &Path) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    llvm::errs() << "refcl-compiler: " << Path << ": " << strerror(errno)
                 << "\n";
    return nullptr;
  }
  if (!Library || Path != LoadedPath || !sameFile(St, Loaded) ||
      Jobs >= JobsPerReading) {
    drop();
    if (!load(Path, St))
      return nullptr;
  }
  Jobs++;
  return Context.get();
}

bool BuiltinLibrary::load(const std::string &Path, const struct stat &St) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    llvm::errs() << "refcl-compiler: " << Path << ": "
                 << Buffer.getError().message() << "\n";
    return false;
  }
  Context = std::make_unique<llvm::LLVMContext>();
  auto M = llvm::getOwningLazyBitcodeModule(std::move(*Buffer), *Context);
  if (!M) {
    llvm::errs() << "refcl-compiler: " << Path << ": "
                 << llvm::toString(M.takeError()) << "\n";
    drop();
    return false;
  }
  Library = std::move(*M);
  /* Aliases would need their own copying; refcl's library has none. */
  if (!Library->alias_empty() || !Library->ifunc_empty()) {
    llvm::errs() << "refcl-compiler: " << Path << ": has aliases\n";
    drop();
    return false;
  }
  LoadedPath = Path;
  Loaded = St;
  Jobs = 0;
  return true;
}

void BuiltinLibrary::drop() {
  UsesCache.clear();
  Library.reset();
  Context.reset();
  LoadedPath.clear();
}

const BuiltinLibrary::Uses *BuiltinLibrary::usesOf(llvm::GlobalValue *GV) {
  auto Known = UsesCache.find(GV);
  if (Known != UsesCache.end())
    return &Known->second;
  if (llvm::Error E = GV->materialize()) {
    llvm::errs() << "refcl-compiler: " << GV->getName() << ": "
                 << llvm::toString(std::move(E)) << "\n";
    return nullptr;
  }
  Uses Found;
  llvm::SmallPtrSet<const llvm::Value *, 32> Seen;
  if (auto *V = llvm::dyn_cast<llvm::GlobalVariable>(GV)) {
    if (V->hasInitializer())
      collect(V->getInitializer(), Seen, Found);
  } else if (auto *F = llvm::dyn_cast<llvm::Function>(GV)) {
    if (F->hasPersonalityFn())
      collect(F->getPersonalityFn(), Seen, Found);
    for (const llvm::BasicBlock &BB : *F)
      for (const llvm::Instruction &I : BB)
        for (const llvm::Use &Op : I.operands())
          collect(Op.get(), Seen, Found);
  }
  return &(UsesCache[GV] = std::move(Found));
}

/* The library's values @p Job declares, and what they use, transitively. */
bool BuiltinLibrary::neededBy(const llvm::Module &Job,
                              llvm::SetVector<llvm::GlobalValue *> &Needed) {
  for (const llvm::GlobalValue &GV : Job.global_values())
    if (GV.isDeclaration() && GV.hasName())
      if (llvm::GlobalValue *Mine = Library->getNamedValue(GV.getName()))
        if (!Mine->hasLocalLinkage())
          Needed.insert(Mine);
  for (size_t I = 0; I < Needed.size(); I++) {
    if (Needed[I]->isDeclaration())
      continue;
    const Uses *U = usesOf(Needed[I]);
    if (!U)
      return false;
    Needed.insert(U->begin(), U->end());
  }
  return true;
}

std::unique_ptr<llvm::Module>
BuiltinLibrary::extract(const llvm::Module &Job,
                        const llvm::AttrBuilder &Defaults) {
  llvm::SetVector<llvm::GlobalValue *> Needed;
  if (!neededBy(Job, Needed))
    return nullptr;
  auto Out = std::make_unique<llvm::Module>("refcl-builtins", *Context);
  Out->setDataLayout(Library->getDataLayout());
  Out->setTargetTriple(Library->getTargetTriple());
  llvm::ValueToValueMapTy Map;
  for (llvm::GlobalValue *GV : Needed)
    Map[GV] = declare(*Out, GV);
  for (llvm::GlobalValue *GV : Needed)
    define(GV, Map);
  /* CloneFunctionInto lists the compile units of what it copies, none
   * here: an empty llvm.dbg.cu reads back as malformed debug info (a
   * warning in clLinkProgram's log). */
  if (llvm::NamedMDNode *Units = Out->getNamedMetadata("llvm.dbg.cu"))
    if (Units->getNumOperands() == 0)
      Out->eraseNamedMetadata(Units);
  /* As clang's -mlink-builtin-bitcode: the library's functions take the
   * job's options (-cl-denorms-are-zero, -cl-fast-relaxed-math...). */
  for (llvm::Function &F : *Out)
    if (!F.isIntrinsic())
      F.addFnAttrs(Defaults);
  return Out;
}

} // namespace refcl
