// promote-ptx-constant-globals: move immutable module globals into PTX constant
// memory (address space 4) and refuse writable module-scope storage.
#pragma once

#include "llvm/IR/PassManager.h"

namespace Atoll {

class HardeningReport;

struct PromoteOptions {
  HardeningReport *Report = nullptr; // optional sink for the records (not owned)
};

class PromotePtxConstantGlobalsPass
    : public llvm::PassInfoMixin<PromotePtxConstantGlobalsPass> {
public:
  explicit PromotePtxConstantGlobalsPass(PromoteOptions Opts = {}) : Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "promote-ptx-constant-globals"; }

private:
  PromoteOptions Opts;
};

} // namespace Atoll
