// The IR half of the toolchain: libdevice, NVVMReflect, internalisation and the
// default optimisation pipeline (prepareModule), then the AToLL passes
// (hardenModule). Both run the new pass manager with the NVPTX TargetMachine so
// that the target's own pipeline callbacks (NVVMReflect, NVVMIntrRange, ...) and
// its cost model apply, exactly as in clang.
#include "ToolchainInternal.h"

#include "atoll/passes/HardeningReport.h"
#include "atoll/passes/Registration.h"
#include "atoll/passes/StripFacts.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

#ifndef ATOLL_DEFAULT_LIBDEVICE
#define ATOLL_DEFAULT_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

using namespace llvm;

namespace Atoll::toolchain {

using namespace detail;

namespace {

/// The analysis managers a PassBuilder run needs, wired together. Declared in
/// this order so that they are destroyed in reverse (LAM first, MAM last).
struct Analyses {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;

  explicit Analyses(PassBuilder &PB) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

OptimizationLevel optimizationLevel(unsigned Level) {
  switch (Level) {
  case 0: return OptimizationLevel::O0;
  case 1: return OptimizationLevel::O1;
  case 2: return OptimizationLevel::O2;
  default: return OptimizationLevel::O3;
  }
}

bool isLibdeviceName(StringRef Name) { return Name.starts_with("__nv_"); }

bool usesLibdevice(const Module &M) {
  return any_of(M.functions(), [](const Function &F) {
    return F.isDeclaration() && isLibdeviceName(F.getName());
  });
}

/// Links the libdevice functions the module needs (and only those: LinkOnlyNeeded
/// with a lazily read libdevice keeps this at a few milliseconds).
Error linkLibdevice(Module &M, const CompileOptions &Opts, DiagnosticCollector &Diags) {
  std::string Path = Opts.LibdevicePath.empty() ? ATOLL_DEFAULT_LIBDEVICE : Opts.LibdevicePath;
  auto Buf = Opts.LibdeviceBitcode.empty()
                 ? MemoryBuffer::getFile(Path)
                 : ErrorOr<std::unique_ptr<MemoryBuffer>>(MemoryBuffer::getMemBuffer(
                       Opts.LibdeviceBitcode, Path, /*RequiresNullTerminator=*/false));
  if (!Buf)
    return makeError(FailureKind::CompileError,
                     "cannot read libdevice '" + Path + "': " + Buf.getError().message() +
                         " (the module calls __nv_* math functions)");
  auto Lib = getOwningLazyBitcodeModule(std::move(*Buf), M.getContext());
  if (!Lib)
    return makeError(FailureKind::CompileError,
                     "cannot load libdevice '" + Path + "': " + toString(Lib.takeError()));
  // libdevice says nvptx64-nvidia-gpulibs and an older data layout; clang
  // overrides both before linking, and so do we (otherwise the linker warns).
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(*Lib), Linker::Flags::LinkOnlyNeeded) ||
      Diags.hasErrors())
    return makeError(FailureKind::CompileError, "linking libdevice '" + Path + "' failed",
                     Diags.errors());

  for (const Function &F : M.functions())
    if (F.isDeclaration() && isLibdeviceName(F.getName()) && !F.use_empty())
      return makeError(FailureKind::InvalidInput,
                       "the module calls '" + F.getName() +
                           "', which libdevice does not define");
  return Error::success();
}

/// NVVMReflect must have folded every __nvvm_reflect query (libdevice asks for
/// __CUDA_FTZ and __CUDA_ARCH); a leftover call would reach the backend as an
/// unresolved external function.
Error checkReflectFolded(const Module &M) {
  for (const Function &F : M.functions()) {
    StringRef N = F.getName();
    if ((N == "__nvvm_reflect" || N == "llvm.nvvm.reflect") && !F.use_empty())
      return makeError(FailureKind::CompileError,
                       "NVVMReflect left calls to '" + N + "' in the module");
  }
  return Error::success();
}

/// Kernels are the module's entry points, and what is checked must be what is
/// emitted: a kernel that -O2 could delete, merge or replace must not exist. Weak
/// and linkonce kernels (older producers emit template kernels so) are made
/// external, which keeps them; internal, private, available_externally and other
/// linkages are refused before anything else runs.
Error normaliseKernelLinkage(Module &M) {
  for (Function &F : M.functions()) {
    if (F.isDeclaration() || !isKernel(F) || F.hasExternalLinkage())
      continue;
    if (F.hasLinkOnceLinkage() || F.hasWeakLinkage()) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      continue;
    }
    std::string Why = "kernel '" + F.getName().str() +
                      "' does not have external linkage (optimisation could delete or "
                      "rename it)";
    return makeError(FailureKind::Refused, "refused: " + Why, "error: " + Why + "\n");
  }
  return Error::success();
}

} // namespace

Error prepareModule(Module &M, const CompileOptions &Opts) {
  if (Error E = normaliseKernelLinkage(M))
    return E;
  if (Opts.OptLevel > 3)
    return makeError(FailureKind::CompileError,
                     "invalid optimisation level " + Twine(Opts.OptLevel) + " (expected 0-3)");
  auto TMOrErr = createTargetMachine(Opts);
  if (!TMOrErr)
    return TMOrErr.takeError();
  std::unique_ptr<TargetMachine> TM = std::move(*TMOrErr);
  // parseModule() gave the module the target's layout (or refused it); a module
  // built in memory must have it too: sizes were already read with it.
  if (M.getDataLayout().isDefault())
    M.setDataLayout(TM->createDataLayout());
  else if (M.getDataLayout() != TM->createDataLayout())
    return makeError(FailureKind::Refused,
                     "refused: the module's data layout '" + M.getDataLayoutStr() +
                         "' is not the NVPTX target's '" +
                         TM->createDataLayout().getStringRepresentation() + "'");

  // First, on the tenant's module alone: no promise of the tenant's (a range, an
  // alignment, an assumption) may reach the optimiser or outlive the clamps.
  {
    ModuleAnalysisManager NoAnalyses;
    StripFactsPass().run(M, NoAnalyses);
  }

  DiagnosticCollector Diags(M.getContext());
  if (usesLibdevice(M))
    if (Error E = linkLibdevice(M, Opts, Diags))
      return E;

  // clang sets this flag for CUDA device code; libdevice's __CUDA_FTZ query reads
  // it. Absent means IEEE denormals, which is CUDA's default.
  if (!M.getModuleFlag("nvvm-reflect-ftz"))
    M.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));

  if (Error E = runRecoverable("optimising the module", [&] {
        PassBuilder PB(TM.get());
        Analyses A(PB);
        ModulePassManager MPM;
        // Only the kernels are entry points; everything else (the tenant's device
        // functions, libdevice, module globals) may be inlined, specialised or dropped.
        MPM.addPass(InternalizePass([](const GlobalValue &GV) {
          const auto *F = dyn_cast<Function>(&GV);
          return F && isKernel(*F);
        }));
        OptimizationLevel Level = optimizationLevel(Opts.OptLevel);
        if (Level == OptimizationLevel::O0)
          MPM.addPass(PB.buildO0DefaultPipeline(Level));
        else
          MPM.addPass(PB.buildPerModuleDefaultPipeline(Level));
        MPM.run(M, A.MAM);
      }))
    return E;

  if (Diags.hasErrors())
    return makeError(FailureKind::CompileError, "optimising the module failed",
                     Diags.errors());
  return checkReflectFolded(M);
}

Error hardenModule(Module &M, const CompileOptions &Opts) {
  auto TMOrErr = createTargetMachine(Opts);
  if (!TMOrErr)
    return TMOrErr.takeError();
  std::unique_ptr<TargetMachine> TM = std::move(*TMOrErr);

  AtollMemOptions AO;
  AO.Mode = Opts.Mode;
  AO.Report = Opts.Report;
  AO.Preempt = Opts.Preempt;

  DiagnosticCollector Diags(M.getContext());
  if (Error E = runRecoverable("hardening the module", [&] {
        PassBuilder PB(TM.get());
        Analyses A(PB);
        ModulePassManager MPM;
        addHardeningPasses(MPM, AO);
        MPM.run(M, A.MAM);
      }))
    return E;

  if (Diags.hasErrors()) {
    StringRef First = StringRef(Diags.errors()).split('\n').first;
    First.consume_front("error: ");
    std::string More;
    if (Diags.numErrors() > 1)
      More = " (and " + std::to_string(Diags.numErrors() - 1) + " more)";
    return makeError(FailureKind::Refused, "refused: " + First + More, Diags.errors());
  }
  // A pass that records a refusal without a diagnostic still refuses the module.
  if (Opts.Report && Opts.Report->hasRefusals()) {
    std::string Lines;
    for (const AccessRecord &R : Opts.Report->records())
      if (R.Result == Outcome::Refused)
        Lines += "error: " + (R.Location.empty() ? "" : R.Location + ": ") + R.Pass +
                 ": refused in '" + R.Function + "': " + R.Detail + "\n";
    return makeError(FailureKind::Refused, "refused by the hardening passes", Lines);
  }

  // The passes rewrite every memory access; a bug there must be a clean error,
  // not a crash in the backend.
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    return makeError(FailureKind::CompileError,
                     "the hardened module is invalid (a bug in the AToLL passes)", Broken);
  return Error::success();
}

} // namespace Atoll::toolchain
