/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl-compiler: the persistent compiler process (docs/compiler.md,
 * "Build speed"). librefcl spawns it at the first build that needs it and
 * keeps it; each job is the very argv compiler/driver.c would run as a
 * subprocess (clang, llvm-link, and ld where lld is built in: link.h), and
 * runs here in-process, so that a job costs the compile, not LLVM's
 * start-up (~100 ms of relocations and static initialisers per clang
 * process).
 *
 * Protocol on fd 3 (a socket; librefcl's compiler/pool.c):
 *   request: u32 count, then count strings as u32 length + bytes: the job's
 *            working directory, then its argv;
 *   answer:  i32, the job's exit status (0: success).
 * The server exits when the socket closes, busy or not: an application
 * that dies mid-build leaves no compiler behind, and the job's directory,
 * which librefcl would have removed, is removed here. A crash inside LLVM
 * kills it; librefcl tells the build log and spawns another for the next
 * job. Each job's CPU time is limited to REFCL_BUILD_TIMEOUT (SIGXCPU);
 * running out of the address space librefcl allowed (REFCL_BUILD_MEMORY)
 * ends the process with a line in the job's log.
 *
 * A job runs with the working directory as cwd and its build.log as
 * stdout and stderr, as the subprocess would: the diagnostics read
 * "program.cl:3:5: error: ...". Each job has its own LLVMContext and
 * CompilerInstance, freed after it (no -disable-free leak).
 */
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <new>
#include <poll.h>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include "compile.h"
#include "link.h"

namespace {

constexpr int SocketFd = 3;
constexpr const char *LogName = "build.log";

bool readAll(void *Into, size_t Size) {
  auto *P = static_cast<char *>(Into);
  while (Size) {
    ssize_t N = read(SocketFd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    P += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

/* One request: the working directory, then the argv; false at the end. */
bool readRequest(std::vector<std::string> &Strings) {
  uint32_t Count;
  if (!readAll(&Count, sizeof(Count)) || Count < 2 || Count > 1u << 16)
    return false;
  Strings.assign(Count, std::string());
  for (std::string &S : Strings) {
    uint32_t Length;
    if (!readAll(&Length, sizeof(Length)) || Length > 1u << 24)
      return false;
    S.resize(Length);
    if (Length && !readAll(&S[0], Length))
      return false;
  }
  return true;
}

bool answer(int32_t Status) {
  return write(SocketFd, &Status, sizeof(Status)) == sizeof(Status);
}

/* The files a build reads: only regular ones. An #include of a FIFO, a
 * device or a socket fails the build at once as a file clang cannot open,
 * instead of blocking it (a FIFO nobody writes) or never ending (a device
 * without end) until the build's deadline. */
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    llvm::ErrorOr<llvm::vfs::Status> Status = status(Path);
    if (Status && Status->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::operation_not_permitted);
    return ProxyFileSystem::openFileForRead(Path);
  }
};

/* clang -cc1 in-process, as clang's cc1_main does, without its deliberate
 * leak of the compiler instance (-disable-free) that a one-shot process
 * can afford and a server cannot. */
int runCC1(llvm::SmallVectorImpl<const char *> &Argv) {
  llvm::cl::ResetAllOptionOccurrences();
  auto Clang = std::make_unique<clang::CompilerInstance>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> IDs(new clang::DiagnosticIDs);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Opts =
      new clang::DiagnosticOptions;
  auto *Buffer = new clang::TextDiagnosticBuffer;
  clang::DiagnosticsEngine Diags(IDs, &*Opts, Buffer);
  /* Argv: the clang executable, "-cc1", the arguments. */
  bool Ok = clang::CompilerInvocation::CreateFromArgs(
      Clang->getInvocation(), llvm::makeArrayRef(Argv).slice(2), Diags,
      Argv[0]);
  Clang->getFrontendOpts().DisableFree = false;
  Clang->getCodeGenOpts().DisableFree = false;
  Clang->createDiagnostics();
  Clang->createFileManager(llvm::makeIntrusiveRefCnt<RegularFilesOnly>(
      llvm::vfs::getRealFileSystem()));
  Buffer->FlushDiagnostics(Clang->getDiagnostics());
  if (Ok && refcl::usesKeptLibrary(*Clang))
    Ok = !Clang->getDiagnostics().hasErrorOccurred() &&
         refcl::compileWithLibrary(*Clang);
  else if (Ok)
    Ok = clang::ExecuteCompilerInvocation(Clang.get());
  llvm::outs().flush();
  return Ok ? 0 : 1;
}

/* clang's driver, its cc1 jobs run by runCC1 (no second process). */
int runClang(const std::vector<const char *> &Argv) {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Opts =
      new clang::DiagnosticOptions;
  Opts->ShowColors = false;
  auto *Printer = new clang::TextDiagnosticPrinter(llvm::errs(), &*Opts);
  Printer->setPrefix(llvm::sys::path::filename(Argv[0]).str());
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> IDs(new clang::DiagnosticIDs);
  clang::DiagnosticsEngine Diags(IDs, &*Opts, Printer);
  clang::driver::Driver Driver(Argv[0], llvm::sys::getDefaultTargetTriple(),
                               Diags);
  Driver.CC1Main = runCC1;
  std::unique_ptr<clang::driver::Compilation> C(
      Driver.BuildCompilation(Argv));
  if (!C || C->containsError())
    return 1;
  llvm::SmallVector<std::pair<int, const clang::driver::Command *>, 4> Failed;
  int Status = Driver.ExecuteCompilation(*C, Failed);
  return Status ? Status : (Failed.empty() ? 0 : 1);
}

/* llvm-link's arguments as driver.c writes them: inputs, --only-needed and
 * --internalize (which, as in llvm-link, apply from the second input on),
 * -o output. */
struct LinkJob {
  std::vector<std::string> Inputs;
  std::string Output;
  bool OnlyNeeded = false, Internalize = false;
};

bool parseLink(const std::vector<const char *> &Argv, LinkJob &Job) {
  for (size_t I = 1; I < Argv.size(); I++) {
    llvm::StringRef A = Argv[I];
    if (A == "--only-needed")
      Job.OnlyNeeded = true;
    else if (A == "--internalize")
      Job.Internalize = true;
    else if (A == "-o" && I + 1 < Argv.size())
      Job.Output = Argv[++I];
    else if (A.startswith("-"))
      return false;
    else
      Job.Inputs.push_back(A.str());
  }
  return !Job.Inputs.empty() && !Job.Output.empty();
}

std::unique_ptr<llvm::Module> loadLazily(const std::string &Path,
                                         llvm::LLVMContext &Context) {
  llvm::SMDiagnostic Error;
  auto M = llvm::getLazyIRFileModule(Path, Error, Context);
  if (!M)
    Error.print("llvm-link", llvm::errs());
  return M;
}

bool linkInputs(const LinkJob &Job, llvm::Linker &L,
                llvm::LLVMContext &Context) {
  unsigned Flags = llvm::Linker::Flags::None;
  bool InternalizeThis = false;
  for (const std::string &Path : Job.Inputs) {
    std::unique_ptr<llvm::Module> M = loadLazily(Path, Context);
    if (!M || M->materializeAll() || llvm::verifyModule(*M, &llvm::errs())) {
      llvm::errs() << "llvm-link: " << Path << ": could not be read\n";
      return false;
    }
    bool Error = InternalizeThis
        ? L.linkInModule(std::move(M), Flags,
                         [](llvm::Module &Into, const llvm::StringSet<> &Names) {
                           llvm::internalizeModule(
                               Into, [&Names](const llvm::GlobalValue &GV) {
                                 return !GV.hasName() ||
                                        !Names.count(GV.getName());
                               });
                         })
        : L.linkInModule(std::move(M), Flags);
    if (Error)
      return false;
    InternalizeThis = Job.Internalize;
    Flags = Job.OnlyNeeded ? llvm::Linker::Flags::LinkOnlyNeeded
                           : llvm::Linker::Flags::None;
  }
  return true;
}

/* llvm-link in-process: its diagnostics on stderr, as llvm-link's. */
int runLink(const std::vector<const char *> &Argv) {
  LinkJob Job;
  if (!parseLink(Argv, Job)) {
    llvm::errs() << "refcl-compiler: llvm-link arguments it does not know\n";
    return 1;
  }
  /* One module and the builtin library, only what it needs, internalized:
   * driver.c's only job of this form. */
  if (Job.OnlyNeeded && Job.Internalize && Job.Inputs.size() == 2)
    return refcl::linkKeptLibrary(Job.Inputs[0], Job.Inputs[1], Job.Output)
               ? 0
               : 1;
  llvm::LLVMContext Context;
  auto Composite = std::make_unique<llvm::Module>("llvm-link", Context);
  llvm::Linker L(*Composite);
  if (!linkInputs(Job, L, Context) ||
      llvm::verifyModule(*Composite, &llvm::errs()))
    return 1;
  return refcl::writeBitcode(*Composite, Job.Output) ? 0 : 1;
}

/* The job's tool: llvm-link, ld (where lld is built in) or clang;
 * @p Trusted false if the process should take no more jobs after it. */
int runTool(const std::vector<const char *> &Argv, bool &Trusted) {
  llvm::StringRef Name = llvm::sys::path::filename(Argv[0]);
  if (Name.contains("llvm-link"))
    return runLink(Argv);
#ifdef REFCL_SERVER_LINKS
  if (refcl::isLinker(Name))
    return refcl::runLinker(Argv, Trusted);
#endif
  (void)Trusted;
  return runClang(Argv);
}

/* Points stdout and stderr at @p Path (a job's log), or /dev/null. */
void redirectOutput(const char *Path) {
  int Fd = Path ? open(Path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)
                : open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (Fd < 0)
    return;
  dup2(Fd, 1);
  dup2(Fd, 2);
  close(Fd);
}

/* The directory of the job running, which the watcher removes if the
 * application goes away during it. */
std::mutex JobLock;
std::string JobDir;

void setJobDir(const std::string &Dir) {
  std::lock_guard<std::mutex> Guard(JobLock);
  JobDir = Dir;
}

/* Waits for the application's end of the socket to close (it exited or
 * was killed, or closed it), then removes the job's directory, if any,
 * and ends the process, whatever the job was doing. */
void watchClient() {
  struct pollfd P = {SocketFd, POLLRDHUP, 0};
  while (poll(&P, 1, -1) < 0 && errno == EINTR)
    ;
  std::lock_guard<std::mutex> Guard(JobLock);
  if (!JobDir.empty())
    llvm::sys::fs::remove_directories(JobDir);
  _exit(1);
}

/* Each job may use REFCL_BUILD_TIMEOUT seconds of CPU more than the
 * process has used so far (librefcl kills it at the build's wall-clock
 * deadline; this bounds a job nobody is waiting for). */
void limitJobTime() {
  const char *Value = getenv("REFCL_BUILD_TIMEOUT");
  long Seconds = Value ? atol(Value) : 0;
  struct rusage Used;
  struct rlimit Limit;
  if (Seconds <= 0 || getrusage(RUSAGE_SELF, &Used) != 0 ||
      getrlimit(RLIMIT_CPU, &Limit) != 0)
    return;
  rlim_t Soft = static_cast<rlim_t>(Used.ru_utime.tv_sec +
                                    Used.ru_stime.tv_sec + Seconds + 1);
  if (Limit.rlim_max != RLIM_INFINITY && Soft > Limit.rlim_max)
    Soft = Limit.rlim_max;
  Limit.rlim_cur = Soft;
  setrlimit(RLIMIT_CPU, &Limit);
}

/* Out of memory (the address space librefcl allowed): said in the job's
 * log, and the process ends (librefcl reports it died). */
void outOfMemory() {
  static const char Line[] = "refcl-compiler: out of memory: the build "
                             "reached its limit (REFCL_BUILD_MEMORY)\n";
  ssize_t Written = write(2, Line, sizeof(Line) - 1);
  (void)Written;
  _exit(1);
}

void outOfMemoryInLLVM(void *, const char *, bool) { outOfMemory(); }

int runJob(const std::vector<std::string> &Strings, bool &Trusted) {
  setJobDir(Strings[0]);
  limitJobTime();
  if (chdir(Strings[0].c_str()) != 0)
    return 1;
  redirectOutput(LogName);
  std::vector<const char *> Argv;
  for (size_t I = 1; I < Strings.size(); I++)
    Argv.push_back(Strings[I].c_str());
  int Status = runTool(Argv, Trusted);
  llvm::outs().flush();
  llvm::errs().flush();
  /* Idle, the server holds neither the log nor the directory. */
  redirectOutput(nullptr);
  setJobDir(std::string());
  if (chdir("/") != 0)
    return 1;
  return Status;
}

} // namespace

int main() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  redirectOutput(nullptr);
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(outOfMemoryInLLVM);
  std::thread(watchClient).detach();
  std::vector<std::string> Strings;
  /* A job that leaves the process untrusted ends it, unanswered: librefcl
   * fails that job ("died"), reaps the server and spawns another. */
  bool Trusted = true;
  while (readRequest(Strings)) {
    int Status = runJob(Strings, Trusted);
    if (!Trusted)
      return 1;
    if (!answer(Status))
      break;
  }
  return 0;
}
