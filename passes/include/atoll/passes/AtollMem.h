// atoll-mem: the memory-isolation pass. See docs/passes.md.
#pragma once

#include "atoll/abi.h"
#include "atoll/clamping.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace Atoll {

class HardeningReport;

/// The one clamping-mode enum (atoll/clamping.h), under the passes' old name.
using ClampingMode = Clamping;

/// The name of a mode in pass options and the "atoll-hardened" attribute
/// (ATOLL_MODE_MASK / ATOLL_MODE_MODULO).
const char *clampingModeName(ClampingMode Mode);

struct AtollMemOptions {
  ClampingMode Mode = ClampingMode::MaskBased;
  bool Verbose = false;   // print the per-instruction analysis to stderr
  bool Summarize = false; // print the summary table to stderr
  HardeningReport *Report = nullptr; // optional sink for the records (not owned)
  /// Preemption checks on every cycle-closing edge (cancel, fuel). Off only to
  /// measure their cost (preempt=off); such kernels cannot be cancelled.
  bool Preempt = true;
  unsigned PollShift = 6; // ATOLL_DEFAULT_POLL_SHIFT: cancel word read every 2^k edges
  /// Largest stack frame (static allocas after inlining) per thread, in bytes
  /// (ATOLL_DEFAULT_MAX_LOCAL_BYTES); a kernel with a larger one is refused (R5-F4).
  uint64_t MaxLocalBytes = ATOLL_DEFAULT_MAX_LOCAL_BYTES;
};

/// The defaults of the pass options, from the command line (-atoll-clamping-mode,
/// -atoll-preempt, -atoll-poll-shift, -atoll-verbose, -atoll-summarize: opt flags,
/// or clang's -mllvm with -fpass-plugin); AtollMemOptions{} without them.
llvm::Expected<AtollMemOptions> defaultAtollMemOptions();

/// Parses the text between '<' and '>' of -passes='atoll-mem<...>', starting
/// from defaultAtollMemOptions():
///   clamping-mode=mask-based|modulo-based ; verbose ; summarize ;
///   preempt=on|off ; poll-shift=N (0..20) ; max-local-bytes=N (1..524288)
llvm::Expected<AtollMemOptions> parseAtollMemOptions(llvm::StringRef Params);

class AtollMemPass : public llvm::PassInfoMixin<AtollMemPass> {
public:
  explicit AtollMemPass(AtollMemOptions Opts = {}) : Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "atoll-mem"; }
  /// Prints every option, so that the printed pipeline parses back to this pass.
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)> MapClassName2PassName);

private:
  AtollMemOptions Opts;
};

} // namespace Atoll
