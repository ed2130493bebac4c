// atoll-mem: the memory-isolation pass. See docs/passes.md.
#pragma once

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace Atoll {

class HardeningReport;

enum class ClampingMode {
  MaskBased,   // power-of-two arena aligned to its size: (addr & mask) | base
  ModuloBased, // any arena size: base + (addr - base) % size
};

struct AtollMemOptions {
  ClampingMode Mode = ClampingMode::MaskBased;
  bool Verbose = false;   // print the per-instruction analysis to stderr
  bool Summarize = false; // print the summary table to stderr
  HardeningReport *Report = nullptr; // optional sink for the records (not owned)
  /// Preemption checks on every cycle-closing edge (cancel, fuel). Off only to
  /// measure their cost (preempt=off); such kernels cannot be cancelled.
  bool Preempt = true;
  unsigned PollShift = 6; // ATOLL_DEFAULT_POLL_SHIFT: cancel word read every 2^k edges
};

/// Parses the text between '<' and '>' of -passes='atoll-mem<...>':
///   clamping-mode=mask-based|modulo-based ; verbose ; summarize ;
///   preempt=on|off ; poll-shift=N (0..20)
llvm::Expected<AtollMemOptions> parseAtollMemOptions(llvm::StringRef Params);

class AtollMemPass : public llvm::PassInfoMixin<AtollMemPass> {
public:
  explicit AtollMemPass(AtollMemOptions Opts = {}) : Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "atoll-mem"; }

private:
  AtollMemOptions Opts;
};

} // namespace Atoll
