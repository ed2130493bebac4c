// atoll-strip-facts: removes every tenant-supplied fact that could narrow a value
// or a pointer (and so let an optimisation fold a clamp away). The toolchain runs
// it first, on the tenant's module, before libdevice linking and -O2.
#pragma once

#include "llvm/IR/PassManager.h"

namespace Atoll {

class StripFactsPass : public llvm::PassInfoMixin<StripFactsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "atoll-strip-facts"; }
};

} // namespace Atoll
