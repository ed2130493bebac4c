// Registers the AToLL passes with a PassBuilder (for -passes= parsing) and builds
// the hardening pipeline that atoll-harden and the runtime share.
#pragma once

#include "atoll/passes/AtollMem.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace Atoll {

/// Makes "atoll-mem<...>" and "promote-ptx-constant-globals" known to -passes=.
void registerAtollPasses(llvm::PassBuilder &PB);

/// promote-ptx-constant-globals, then atoll-mem, then cleanup (instcombine, DCE)
/// of the confinement code. Report may be null.
void addHardeningPasses(llvm::ModulePassManager &MPM, const AtollMemOptions &Opts);

} // namespace Atoll
