/* SPDX-License-Identifier: Apache-2.0 */
#include "compile.h"

#include "library.h"

#include <algorithm>

#include "clang/CodeGen/BackendUtil.h"
#include "clang/CodeGen/CodeGenABITypes.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/Internalize.h"

namespace refcl {
namespace {

/* The front end, keeping the default function attributes of the job's
 * options, which the library's functions take (as clang's LinkInModules
 * gives them with -mlink-builtin-bitcode). */
class FrontEnd : public clang::EmitLLVMOnlyAction {
public:
  explicit FrontEnd(llvm::LLVMContext &C)
      : EmitLLVMOnlyAction(&C), Defaults(C) {}
  const llvm::AttrBuilder &defaults() const { return Defaults; }

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef In) override {
    auto Consumer = EmitLLVMOnlyAction::CreateASTConsumer(CI, In);
    HasConsumer = Consumer != nullptr;
    return Consumer;
  }

  void EndSourceFileAction() override {
    if (HasConsumer) {
      clang::CodeGen::addDefaultFunctionDefinitionAttributes(
          getCodeGenerator()->CGM(), Defaults);
      /* -mlink-builtin-bitcode keeps the library's own CPU and features. */
      for (const char *Own : {"target-cpu", "target-features", "tune-cpu"})
        Defaults.removeAttribute(Own);
    }
    EmitLLVMOnlyAction::EndSourceFileAction();
  }

private:
  llvm::AttrBuilder Defaults;
  bool HasConsumer = false;
};

/* The back end's diagnostics, which clang's own handler would report:
 * errors and warnings into the log, and the analysis remarks the job asks
 * for (-Rpass-analysis=, which -cl-refcl-vectorize-report gives); an
 * error fails the job (LLVM's default would end the process). */
struct BackendDiagnostics : llvm::DiagnosticHandler {
  explicit BackendDiagnostics(const clang::CodeGenOptions::OptRemark &Analysis)
      : Analysis(Analysis) {}
  bool Failed = false;
  const clang::CodeGenOptions::OptRemark &Analysis;
  bool isAnalysisRemarkEnabled(llvm::StringRef PassName) const override {
    return Analysis.patternMatches(PassName);
  }
  bool isAnyRemarkEnabled() const override { return Analysis.hasValidPattern(); }
  bool handleDiagnostics(const llvm::DiagnosticInfo &DI) override {
    llvm::DiagnosticSeverity Severity = DI.getSeverity();
    if (auto *Remark = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(&DI)) {
      if (Remark->isEnabled())
        printRemark(*Remark);
      return true;
    }
    if (Severity != llvm::DS_Error && Severity != llvm::DS_Warning)
      return true;
    llvm::errs() << (Severity == llvm::DS_Error ? "error: " : "warning: ");
    llvm::DiagnosticPrinterRawOStream Printer(llvm::errs());
    DI.print(Printer);
    llvm::errs() << "\n";
    Failed |= Severity == llvm::DS_Error;
    return true;
  }

private:
  /* As clang prints one: where, "remark:", the message. */
  static void printRemark(const llvm::DiagnosticInfoOptimizationBase &Remark) {
    if (Remark.isLocationAvailable())
      llvm::errs() << Remark.getLocationStr() << ": ";
    llvm::errs() << "remark: " << Remark.getMsg() << "\n";
  }
};

/* The library's part @p Job needs, linked in as clang links a builtin
 * bitcode file: only what is needed, internalized. */
bool linkLibrary(llvm::Module &Job, BuiltinLibrary &Library,
                 const llvm::AttrBuilder &Defaults) {
  std::unique_ptr<llvm::Module> Part = Library.extract(Job, Defaults);
  if (!Part)
    return false;
  return !llvm::Linker::linkModules(
      Job, std::move(Part), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module &M, const llvm::StringSet<> &Linked) {
        llvm::internalizeModule(M, [&Linked](const llvm::GlobalValue &GV) {
          return !GV.hasName() || !Linked.count(GV.getName());
        });
      });
}

/* clang's back end on @p M: the job's -O level, plugins and output. */
bool emitObject(clang::CompilerInstance &Clang, llvm::Module &M) {
  const std::string &Path = Clang.getFrontendOpts().OutputFile;
  std::error_code Error;
  auto Out = std::make_unique<llvm::raw_fd_ostream>(Path, Error,
                                                    llvm::sys::fs::OF_None);
  if (Error) {
    llvm::errs() << "error: " << Path << ": " << Error.message() << "\n";
    return false;
  }
  llvm::LLVMContext &Context = M.getContext();
  auto Previous = Context.getDiagnosticHandler();
  auto Diagnostics = std::make_unique<BackendDiagnostics>(
      Clang.getCodeGenOpts().OptimizationRemarkAnalysis);
  const bool &Failed = Diagnostics->Failed;
  Context.setDiagnosticHandler(std::move(Diagnostics));
  clang::EmitBackendOutput(Clang.getDiagnostics(), Clang.getHeaderSearchOpts(),
                           Clang.getCodeGenOpts(), Clang.getTargetOpts(),
                           Clang.getLangOpts(), M.getDataLayoutStr(), &M,
                           clang::Backend_EmitObj, std::move(Out));
  bool Ok = !Failed && !Clang.getDiagnostics().hasErrorOccurred();
  Context.setDiagnosticHandler(std::move(Previous));
  return Ok;
}

/* The driver's own -mllvm options (user ones never reach a server), set
 * as ExecuteCompilerInvocation sets them. */
void setLLVMOptions(const std::vector<std::string> &Options) {
  if (Options.empty())
    return;
  std::vector<const char *> Argv = {"clang (LLVM option parsing)"};
  for (const std::string &O : Options)
    Argv.push_back(O.c_str());
  llvm::cl::ParseCommandLineOptions(static_cast<int>(Argv.size()),
                                    Argv.data());
}

BuiltinLibrary &keptLibrary() {
  static BuiltinLibrary Library;
  return Library;
}

/* Whether every plugin @p Clang loads (-load) is a pass plugin, loaded
 * early only for its LLVM options (the work-group pass's CPU), not one
 * that could change the front end's action. */
bool onlyPassPlugins(const clang::CompilerInstance &Clang) {
  const auto &Passes = Clang.getCodeGenOpts().PassPlugins;
  for (const std::string &Plugin : Clang.getFrontendOpts().Plugins)
    if (std::find(Passes.begin(), Passes.end(), Plugin) == Passes.end())
      return false;
  return true;
}

} // namespace

bool usesKeptLibrary(const clang::CompilerInstance &Clang) {
  const clang::FrontendOptions &Front = Clang.getFrontendOpts();
  const auto &Files = Clang.getCodeGenOpts().LinkBitcodeFiles;
  return Front.ProgramAction == clang::frontend::EmitObj &&
         Front.Inputs.size() == 1 && onlyPassPlugins(Clang) && Files.size() == 1 &&
         Files[0].PropagateAttrs && Files[0].Internalize &&
         Files[0].LinkFlags == llvm::Linker::Flags::LinkOnlyNeeded;
}

bool compileWithLibrary(clang::CompilerInstance &Clang) {
  clang::CodeGenOptions &CodeGen = Clang.getCodeGenOpts();
  BuiltinLibrary &Library = keptLibrary();
  llvm::LLVMContext *Context =
      Library.prepare(CodeGen.LinkBitcodeFiles[0].Filename);
  if (!Context)
    return clang::ExecuteCompilerInvocation(&Clang);
  CodeGen.LinkBitcodeFiles.clear();
  /* As ExecuteCompilerInvocation: the plugins' options exist before the
   * -mllvm ones are parsed. */
  Clang.LoadRequestedPlugins();
  setLLVMOptions(Clang.getFrontendOpts().LLVMArgs);
  /* The front end's module as clang makes it, before any pass: the passes
   * run once the library is in. */
  bool DisabledPasses = CodeGen.DisableLLVMPasses;
  CodeGen.DisableLLVMPasses = true;
  FrontEnd Front(*Context);
  if (!Clang.ExecuteAction(Front))
    return false;
  std::unique_ptr<llvm::Module> M = Front.takeModule();
  CodeGen.DisableLLVMPasses = DisabledPasses;
  return M && linkLibrary(*M, Library, Front.defaults()) &&
         emitObject(Clang, *M);
}

bool linkKeptLibrary(const std::string &Input, const std::string &LibraryPath,
                     const std::string &Output) {
  BuiltinLibrary &Library = keptLibrary();
  llvm::LLVMContext *Context = Library.prepare(LibraryPath);
  if (!Context)
    return false;
  llvm::SMDiagnostic Error;
  std::unique_ptr<llvm::Module> M = llvm::parseIRFile(Input, Error, *Context);
  if (!M) {
    Error.print("llvm-link", llvm::errs());
    return false;
  }
  /* llvm-link adds no attributes to what it links. */
  return !llvm::verifyModule(*M, &llvm::errs()) &&
         linkLibrary(*M, Library, llvm::AttrBuilder(*Context)) &&
         writeBitcode(*M, Output);
}

bool writeBitcode(const llvm::Module &M, const std::string &Path) {
  std::error_code Failed;
  llvm::raw_fd_ostream Out(Path, Failed, llvm::sys::fs::OF_None);
  if (Failed) {
    llvm::errs() << "llvm-link: " << Path << ": " << Failed.message() << "\n";
    return false;
  }
  llvm::WriteBitcodeToFile(M, Out);
  return !Out.has_error();
}

} // namespace refcl
