// Pieces shared by the toolchain's source files; not part of its API.
#pragma once

#include "atoll/toolchain/Toolchain.h"

#include "atoll/passes/NVPTX.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class DiagnosticInfo;
class Function;
class LLVMContext;
class TargetMachine;
} // namespace llvm

namespace Atoll::toolchain::detail {

/// Registers the NVPTX target with LLVM's TargetRegistry, once per process. Safe
/// to call from many threads at once; nothing else in the toolchain is global.
void initializeNVPTX();

/// An NVPTX TargetMachine for Opts.GpuArch / Opts.PtxVersion. An unknown GPU
/// architecture or PTX feature is a CompileError (LLVM would only warn and
/// silently fall back to a default target).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CompileOptions &Opts);

/// A kernel: the passes' definition (atoll/passes/NVPTX.h), so that what is
/// hardened and what is loaded as a kernel are the same functions.
using Atoll::isKernel;

/// Creates a typed toolchain error.
llvm::Error makeError(FailureKind Kind, const llvm::Twine &Message,
                      std::string Diagnostics = {});

/// Runs Fn so that an LLVM fatal error (report_fatal_error, e.g. the backend's
/// "Cannot select" for an intrinsic the GPU lacks) or a crash inside LLVM becomes a
/// CompileError naming What instead of ending the process: tenant bitcode must not
/// be able to take down the service. Uses llvm::CrashRecoveryContext, as clang does
/// for its in-process cc1. Objects created inside Fn leak when it is abandoned, and
/// the IR it worked on is left half-transformed: callers must discard the module.
/// Keep RAII state that must be unwound (e.g. a DiagnosticCollector) outside Fn.
llvm::Error runRecoverable(const llvm::Twine &What, llvm::function_ref<void()> Fn);

/// Collects the diagnostics LLVM reports into a context for as long as it lives
/// and restores the previous handler afterwards. Without it, LLVMContext::diagnose
/// prints an error and calls exit(1), which would take down a multi-tenant service.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(llvm::LLVMContext &Ctx);
  ~DiagnosticCollector();
  DiagnosticCollector(const DiagnosticCollector &) = delete;
  DiagnosticCollector &operator=(const DiagnosticCollector &) = delete;

  bool hasErrors() const { return NumErrors != 0; }
  unsigned numErrors() const { return NumErrors; }
  /// One line per error diagnostic: "error: <location>: <message>".
  const std::string &errors() const { return Errors; }

private:
  struct Handler;
  void record(const llvm::DiagnosticInfo &DI);

  llvm::LLVMContext &Ctx;
  std::unique_ptr<llvm::DiagnosticHandler> Previous;
  std::string Errors;
  unsigned NumErrors = 0;
};

} // namespace Atoll::toolchain::detail
