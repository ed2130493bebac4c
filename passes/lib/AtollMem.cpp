#include "atoll/passes/AtollMem.h"

#include "atoll/passes/HardeningReport.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace Atoll {

Expected<AtollMemOptions> parseAtollMemOptions(StringRef Params) {
  AtollMemOptions Opts;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param == "verbose") {
      Opts.Verbose = true;
    } else if (Param == "summarize") {
      Opts.Summarize = true;
    } else if (Param.consume_front("clamping-mode=")) {
      if (Param == "mask-based")
        Opts.Mode = ClampingMode::MaskBased;
      else if (Param == "modulo-based")
        Opts.Mode = ClampingMode::ModuloBased;
      else
        return createStringError(inconvertibleErrorCode(),
                                 "atoll-mem: invalid clamping-mode '%s' (expected "
                                 "mask-based or modulo-based)",
                                 Param.str().c_str());
    } else {
      return createStringError(inconvertibleErrorCode(),
                               "atoll-mem: unknown parameter '%s' (expected "
                               "clamping-mode=..., verbose or summarize)",
                               Param.str().c_str());
    }
  }
  return Opts;
}

PreservedAnalyses AtollMemPass::run(Module &M, ModuleAnalysisManager &AM) {
  // The hardening itself lands in the next commit (work in progress).
  return PreservedAnalyses::all();
}

} // namespace Atoll
