//===- atoll-harden.cpp - Apply the AToLL passes to a module --------------===//
//
// atoll-harden kernels.bc                 -> kernels.hardened.ll
// atoll-harden kernels.bc --emit=ptx      -> kernels.hardened.ptx, exactly the PTX
//                                            the runtime compiles
// atoll-harden kernels.bc --emit=cubin    -> kernels.hardened.cubin, that PTX
//                                            assembled (nvJitLink): what it loads
// atoll-harden kernels.bc --emit=ptx --worker
//                                         -> the same, compiled (and assembled) in
//                                            sandboxed atoll-compile-workers, as
//                                            the runtime does for untrusted input
//
// Exit status: 0 hardened, 1 refused by the passes (nothing written), 2 usage,
// I/O, malformed input or a compile error (nothing written). See
// docs/atoll-harden.md.
//
//===----------------------------------------------------------------------===//

#include "atoll/toolchain/Toolchain.h"
#include "compile/CompilePool.h"
#include "ptx/PtxValidator.h"

#include "atoll/abi.h"

#include "atoll/passes/AtollMem.h"
#include "atoll/passes/HardeningReport.h"
#include "atoll/passes/StripFacts.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>

#ifndef ATOLL_VERSION
#define ATOLL_VERSION "unknown"
#endif

using namespace llvm;
using Atoll::Clamping;
using Atoll::ClampingMode;
using Atoll::HardeningReport;
using Atoll::KernelInfo;
namespace ptx = Atoll::ptx;
namespace tc = Atoll::toolchain;
namespace compile = Atoll::detail::compile;

namespace {

constexpr int ExitHardened = 0;
constexpr int ExitRefused = 1;
constexpr int ExitError = 2;

enum class EmitKind { LL, BC, PTX, Cubin };
enum class SummaryFormat { Text, JSON };

cl::OptionCategory Category("atoll-harden options");

cl::opt<std::string> InputFilename(cl::Positional, cl::cat(Category),
                                   cl::desc("<input: LLVM bitcode or textual IR; '-' reads "
                                            "stdin>"));

cl::opt<std::string> OutputFilename(
    "o", cl::cat(Category), cl::value_desc("file"),
    cl::desc("Output file, '-' for stdout (default: <input stem>.hardened.<ll|bc|ptx> "
             "next to the input; stdout for stdin)"));

cl::opt<EmitKind> Emit(
    "emit", cl::cat(Category), cl::init(EmitKind::LL),
    cl::desc("What to write (default: ll)"),
    cl::values(clEnumValN(EmitKind::LL, "ll", "hardened module as textual IR"),
               clEnumValN(EmitKind::BC, "bc", "hardened module as bitcode"),
               clEnumValN(EmitKind::PTX, "ptx",
                          "PTX exactly as the runtime compiles it (implies -O2)"),
               clEnumValN(EmitKind::Cubin, "cubin",
                          "that PTX assembled for --gpu-arch (nvJitLink): the cubin the "
                          "runtime loads")));

cl::opt<ClampingMode> ClampingFlag(
    "clamping-mode", cl::cat(Category), cl::init(ClampingMode::MaskBased),
    cl::desc("How accesses are confined to the arena (default: mask-based)"),
    cl::values(clEnumValN(ClampingMode::MaskBased, "mask-based",
                          "(addr & (size-1)) | base: power-of-two, size-aligned arena"),
               clEnumValN(ClampingMode::ModuloBased, "modulo-based",
                          "base + (addr - base) % size: any arena size")));

cl::opt<bool> Verbose("verbose", cl::cat(Category),
                      cl::desc("Print the per-instruction analysis (space, kind, outcome "
                               "of every access)"));

cl::opt<bool> Summarize("summarize", cl::cat(Category),
                        cl::desc("Print the summary table (confined / proven safe / "
                                 "refused per space and kind)"));

cl::opt<SummaryFormat> SummaryFmt(
    "summary-format", cl::cat(Category), cl::init(SummaryFormat::Text),
    cl::desc("Summary format; implies --summarize (default: text)"),
    cl::values(clEnumValN(SummaryFormat::Text, "text", "a table for people"),
               clEnumValN(SummaryFormat::JSON, "json", "JSON for scripts")));

cl::opt<std::string> GpuArch("gpu-arch", cl::cat(Category), cl::init("sm_90"),
                             cl::value_desc("sm_XX"),
                             cl::desc("GPU to compile for (default: sm_90)"));

cl::opt<std::string> PtxVersion(
    "ptx-version", cl::cat(Category), cl::value_desc("NN"),
    cl::desc("PTX ISA version, e.g. 86 for 8.6 (default: LLVM's for --gpu-arch)"));

cl::opt<unsigned> OptLevel(
    "O", cl::cat(Category), cl::Prefix, cl::value_desc("0-3"),
    cl::desc("Prepare like the runtime first: libdevice, NVVMReflect, internalise, "
             "optimise (default: none; 2 for --emit=ptx)"));
// A separate option rather than a cl::alias: aliases are not listed in --help.
cl::opt<unsigned> OptLevelLong("opt-level", cl::cat(Category), cl::value_desc("0-3"),
                               cl::desc("Same as -O<N>"));

/// The -O / --opt-level the user gave, if any.
std::optional<unsigned> requestedOptLevel() {
  if (OptLevel.getNumOccurrences())
    return OptLevel.getValue();
  if (OptLevelLong.getNumOccurrences())
    return OptLevelLong.getValue();
  return std::nullopt;
}

cl::opt<std::string> Libdevice(
    "libdevice", cl::cat(Category), cl::value_desc("file"),
    cl::desc("libdevice to link for __nv_* calls (default: the configured CUDA "
             "toolkit's)"));

cl::opt<bool> UseWorker(
    "worker", cl::cat(Category),
    cl::desc("Compile (and assemble) in sandboxed atoll-compile-worker processes, as the "
             "runtime does: LLVM never parses the input in this process (--emit=ptx or "
             "--emit=cubin; reports only as --summary-format=json)"));

cl::opt<std::string> WorkerPath(
    "worker-path", cl::cat(Category), cl::value_desc("file"),
    cl::desc("The atoll-compile-worker for --worker (default: next to libatoll_runtime, "
             "in ../libexec/atoll or ../bin)"));

/// "<stdin>" for '-', else the path as given: the prefix of every message.
std::string displayName(StringRef Path) { return Path == "-" ? "<stdin>" : Path.str(); }

/// kernels.bc -> kernels.hardened.ll (next to the input).
std::string defaultOutputPath(StringRef Input, EmitKind Kind) {
  if (Input == "-")
    return "-";
  SmallString<256> P(Input);
  StringRef Ext = Kind == EmitKind::BC      ? "hardened.bc"
                  : Kind == EmitKind::PTX   ? "hardened.ptx"
                  : Kind == EmitKind::Cubin ? "hardened.cubin"
                                            : "hardened.ll";
  sys::path::replace_extension(P, Ext);
  return std::string(P);
}

/// Writes through a temporary file next to Path that is renamed over it only when
/// everything was written: a failure never leaves a partial output behind.
/// Devices (/dev/null, /dev/stdout) are written directly.
Error writeOutput(StringRef Path, const std::function<void(raw_ostream &)> &Write) {
  if (Path == "-") {
    Write(outs());
    outs().flush();
    if (outs().has_error())
      return createStringError(inconvertibleErrorCode(), "cannot write to stdout");
    return Error::success();
  }
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St) && sys::fs::exists(St) && !sys::fs::is_regular_file(St)) {
    // Not ToolOutputFile: on failure it would delete the path, i.e. the device.
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                               EC.message().c_str());
    Write(OS);
    OS.flush();
    if (OS.has_error()) {
      EC = OS.error();
      OS.clear_error();
      return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                               EC.message().c_str());
    }
    return Error::success();
  }

  auto Temp = sys::fs::TempFile::create(Path + ".tmp-%%%%%%");
  if (!Temp)
    return handleErrors(Temp.takeError(), [&](const ECError &E) {
      return createStringError(E.convertToErrorCode(), "cannot write '%s': %s",
                               Path.str().c_str(), E.message().c_str());
    });
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    Write(OS);
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      consumeError(Temp->discard());
      return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                               EC.message().c_str());
    }
  }
  // keep() renames; when that fails it removes the temporary file itself.
  if (Error E = Temp->keep(Path)) {
    std::string Msg = toString(std::move(E));
    return createStringError(inconvertibleErrorCode(), "cannot write '%s': %s",
                             Path.str().c_str(), Msg.c_str());
  }
  return Error::success();
}

void printReport(const HardeningReport &Report, raw_ostream &OS) {
  if (Verbose)
    Report.printVerbose(OS);
  if (Summarize || SummaryFmt.getNumOccurrences()) {
    if (SummaryFmt == SummaryFormat::JSON)
      Report.printJSON(OS);
    else
      Report.printSummary(OS);
  }
  OS.flush();
}

/// Prints a toolchain failure in LLVM's format and returns the exit status.
int reportFailure(Error E, StringRef File) {
  int Status = ExitError;
  handleAllErrors(
      std::move(E),
      [&](const tc::ToolchainError &TE) {
        if (TE.kind() != tc::FailureKind::Refused) {
          WithColor::error(errs(), File) << TE.message() << "\n";
          return;
        }
        Status = ExitRefused;
        // One line per diagnostic: "<file>: error: <location>: <message>".
        SmallVector<StringRef, 8> Lines;
        StringRef(TE.diagnostics()).split(Lines, '\n', -1, /*KeepEmpty=*/false);
        for (StringRef L : Lines) {
          L.consume_front("error: ");
          WithColor::error(errs(), File) << L << "\n";
        }
        if (Lines.empty())
          WithColor::error(errs(), File) << TE.message() << "\n";
        WithColor::note(errs(), "atoll-harden")
            << "the module was refused; nothing was written\n";
      },
      [&](const ErrorInfoBase &EI) { WithColor::error(errs(), File) << EI.message() << "\n"; });
  return Status;
}

int usageError(const Twine &Msg) {
  WithColor::error(errs(), "atoll-harden") << Msg << "\n";
  return ExitError;
}

/// A worker's refusal or error in the in-process format (same exit statuses).
int reportWorkerFailure(const compile::Failed &F, StringRef File, bool Assembling) {
  tc::FailureKind Kind = tc::FailureKind::CompileError;
  switch (F.kind) {
  case compile::FailureKind::InvalidInput: Kind = tc::FailureKind::InvalidInput; break;
  case compile::FailureKind::WrongTarget: Kind = tc::FailureKind::WrongTarget; break;
  case compile::FailureKind::Refused: Kind = tc::FailureKind::Refused; break;
  case compile::FailureKind::CompileError: Kind = tc::FailureKind::CompileError; break;
  }
  std::string Message =
      Assembling ? "the PTX assembler refused the hardened PTX: " + F.message : F.message;
  return reportFailure(make_error<tc::ToolchainError>(Kind, Message, F.diagnostics), File);
}

/// --worker: the runtime's out-of-process path (runtime/compile): a compile request
/// in one fresh worker, the PTX validated here, then (--emit=cubin) an assemble
/// request in another. A worker that crashes, hangs or exceeds a limit is an error
/// (exit 2) with the runtime's message.
int compileInWorker(std::unique_ptr<MemoryBuffer> Input, const std::string &InputName,
                    std::optional<unsigned> Level, std::string &Out, raw_ostream &ReportOS) {
  compile::PoolConfig C;
  C.workerPath = WorkerPath.getNumOccurrences() ? WorkerPath.getValue()
                                                : compile::CompilePool::defaultWorkerPath();
  if (C.workerPath.empty())
    return usageError("--worker: no atoll-compile-worker next to libatoll_runtime (looked in "
                      "../libexec/atoll and ../bin); give --worker-path=FILE");
  C.size = 2; // the compile and the assemble worker start together
  C.libdevicePath = Libdevice;
  // The tool has no module cap (in process neither): only the protocol's own bound on
  // the kernels; the decode stays bounded by the answer's size (review R10-F2).
  C.maxKernels = compile::kMaxKernels;
  auto Pool = compile::CompilePool::create(C);
  if (!Pool)
    return usageError("--worker: " + Pool.error().message());
  compile::CompileJob Job;
  Job.bitcode = (*Input).getBuffer().str();
  Input.reset();
  Job.name = InputName;
  Job.clamping = ClampingFlag == ClampingMode::MaskBased ? Clamping::MaskBased
                                                         : Clamping::ModuloBased;
  Job.arch = GpuArch;
  if (!PtxVersion.empty())
    Job.ptxVersion = "+ptx" + PtxVersion;
  Job.abiVersion = ATOLL_ABI_VERSION;
  Job.optLevel = Level.value_or(2);
  Job.wantReport = SummaryFmt.getNumOccurrences() != 0;
  const bool WantReport = Job.wantReport;
  auto R = (*Pool)->run(compile::Request(std::move(Job)));
  if (!R) {
    WithColor::error(errs(), InputName) << R.error().message() << "\n";
    return ExitError;
  }
  if (auto *F = std::get_if<compile::Failed>(&*R))
    return reportWorkerFailure(*F, InputName, false);
  auto *Compiled = std::get_if<compile::Compiled>(&*R);
  if (!Compiled) {
    WithColor::error(errs(), InputName) << "the compile worker answered with another kind of "
                                           "answer\n";
    return ExitError;
  }
  if (WantReport) {
    ReportOS << Compiled->report;
    if (!StringRef(Compiled->report).ends_with("\n"))
      ReportOS << "\n";
    ReportOS.flush();
  }
  // The service's own check of the worker's PTX (as the runtime does).
  ptx::Expectation Exp;
  Exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &K : Compiled->kernels)
    Exp.entries.push_back({K.name, uint32_t(K.params.size())});
  if (auto V = ptx::validate(Compiled->ptx, Exp)) {
    WithColor::error(errs(), InputName) << "refused by the PTX validator: " << V->describe()
                                        << "\n";
    return ExitRefused;
  }
  if (Emit != EmitKind::Cubin) {
    Out = std::move(Compiled->ptx);
    return ExitHardened;
  }
  if (!(*Pool)->assemblerAvailable()) {
    WithColor::error(errs(), InputName)
        << "--worker: the compile worker has no PTX assembler (nvJitLink was not found)\n";
    return ExitError;
  }
  auto A = (*Pool)->run(compile::Request(compile::AssembleJob{std::move(Compiled->ptx), GpuArch}));
  if (!A) {
    WithColor::error(errs(), InputName) << A.error().message() << "\n";
    return ExitError;
  }
  if (auto *F = std::get_if<compile::Failed>(&*A))
    return reportWorkerFailure(*F, InputName, true);
  auto *Cubin = std::get_if<compile::Assembled>(&*A);
  if (!Cubin) {
    WithColor::error(errs(), InputName) << "the compile worker answered with another kind of "
                                           "answer\n";
    return ExitError;
  }
  Out = std::move(Cubin->cubin);
  return ExitHardened;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "atoll-harden (AToLL " << ATOLL_VERSION << ") with LLVM " << LLVM_VERSION_STRING
       << "\n";
  });
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "atoll-harden: apply the AToLL hardening passes (promote-ptx-constant-globals, "
          "atoll-mem) to an NVPTX module.\n\n"
          "  atoll-harden kernels.bc                 writes kernels.hardened.ll\n"
          "  atoll-harden kernels.bc --emit=ptx      writes the PTX the runtime compiles\n"
          "  atoll-harden kernels.bc --emit=cubin    writes the cubin the runtime loads\n\n"
          "Exit status: 0 hardened, 1 refused (diagnostics on stderr, nothing written),\n"
          "2 usage, I/O or malformed input (nothing written).\n",
          &errs()))
    return ExitError;

  if (InputFilename.empty())
    return usageError("no input file (give a .bc or .ll file, or '-' for stdin)");
  if (OptLevel.getNumOccurrences() && OptLevelLong.getNumOccurrences() &&
      OptLevel != OptLevelLong)
    return usageError("-O" + Twine(OptLevel) + " and --opt-level=" + Twine(OptLevelLong) +
                      " disagree");
  const std::optional<unsigned> Level = requestedOptLevel();
  if (Level && *Level > 3)
    return usageError("invalid optimisation level -O" + Twine(*Level) + " (expected 0-3)");
  if (PtxVersion.getNumOccurrences() &&
      (PtxVersion.empty() || !all_of(PtxVersion, isDigit)))
    return usageError("invalid --ptx-version '" + PtxVersion +
                      "' (expected digits, e.g. 86 for PTX 8.6)");

  const std::string InputName = displayName(InputFilename);
  const std::string OutputPath = OutputFilename.getNumOccurrences()
                                     ? OutputFilename.getValue()
                                     : defaultOutputPath(InputFilename, Emit);
  if (OutputPath.empty())
    return usageError("empty output file name (use '-o -' for stdout)");
  if ((Emit == EmitKind::BC || Emit == EmitKind::Cubin) && OutputPath == "-" &&
      outs().is_displayed())
    return usageError(Twine("refusing to write ") +
                      (Emit == EmitKind::BC ? "bitcode" : "a cubin") +
                      " to a terminal (use -o FILE or redirect)");
  if (UseWorker && Emit != EmitKind::PTX && Emit != EmitKind::Cubin)
    return usageError("--worker compiles to PTX or a cubin: use --emit=ptx or --emit=cubin");
  if (UseWorker && (Verbose || (Summarize && SummaryFmt != SummaryFormat::JSON) ||
                    (SummaryFmt.getNumOccurrences() && SummaryFmt != SummaryFormat::JSON)))
    return usageError("--worker reports only as --summary-format=json (the worker sends the "
                      "report as JSON)");
  if (!UseWorker && WorkerPath.getNumOccurrences())
    return usageError("--worker-path needs --worker");
  // Analysis output goes where it does not mix with the module.
  raw_ostream &ReportOS = OutputPath == "-" ? errs() : outs();

  auto Buf = MemoryBuffer::getFileOrSTDIN(InputFilename, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Buf) {
    WithColor::error(errs(), InputName)
        << "cannot read: " << Buf.getError().message() << "\n";
    return ExitError;
  }

  if (UseWorker) {
    std::string Out;
    int Status = compileInWorker(std::move(*Buf), InputName, Level, Out, ReportOS);
    if (Status != ExitHardened)
      return Status;
    if (Error E = writeOutput(OutputPath, [&](raw_ostream &OS) { OS << Out; })) {
      WithColor::error(errs(), "atoll-harden") << toString(std::move(E)) << "\n";
      return ExitError;
    }
    return ExitHardened;
  }

  HardeningReport Report;
  tc::CompileOptions Opts;
  Opts.Mode = ClampingFlag;
  Opts.GpuArch = GpuArch;
  if (!PtxVersion.empty())
    Opts.PtxVersion = "+ptx" + PtxVersion;
  Opts.LibdevicePath = Libdevice;
  Opts.Report = &Report;

  LLVMContext Ctx;
  auto M = tc::parseModule(MemoryBufferRef((*Buf)->getBuffer(), InputName), Ctx);
  if (!M)
    return reportFailure(M.takeError(), InputName);

  std::function<void(raw_ostream &)> Write;
  std::string PTX;
  if (Emit == EmitKind::PTX || Emit == EmitKind::Cubin) {
    // The runtime's path (compile() after parsing), so the PTX is what it compiles
    // and the cubin what it loads: assembled only after the validator passed.
    Opts.OptLevel = Level.value_or(2);
    Opts.Assemble = Emit == EmitKind::Cubin;
    if (Emit == EmitKind::Cubin)
      if (Error E = tc::loadAssembler())
        return reportFailure(std::move(E), InputName);
    auto Out = tc::compileModule(**M, Opts);
    printReport(Report, ReportOS);
    if (!Out)
      return reportFailure(Out.takeError(), InputName);
    PTX = Emit == EmitKind::Cubin ? std::move(Out->cubin) : std::move(Out->ptx);
    Write = [&](raw_ostream &OS) { OS << PTX; };
  } else {
    if (Level) {
      Opts.OptLevel = *Level;
      if (Error E = tc::prepareModule(**M, Opts))
        return reportFailure(std::move(E), InputName);
    } else {
      // prepareModule strips the tenant's facts first; without it, so do we.
      ModuleAnalysisManager NoAnalyses;
      Atoll::StripFactsPass().run(**M, NoAnalyses);
    }
    Error E = tc::hardenModule(**M, Opts);
    printReport(Report, ReportOS);
    if (E)
      return reportFailure(std::move(E), InputName);
    if (Emit == EmitKind::BC)
      Write = [&](raw_ostream &OS) { WriteBitcodeToFile(**M, OS); };
    else
      Write = [&](raw_ostream &OS) { (*M)->print(OS, nullptr); };
  }

  if (Error E = writeOutput(OutputPath, Write)) {
    WithColor::error(errs(), "atoll-harden") << toString(std::move(E)) << "\n";
    return ExitError;
  }
  return ExitHardened;
}
