// The walk over every cycle of a kernel that the preemption checks are inserted,
// verified and re-checked after code generation with: atoll-mem (Preemption.cpp) and
// the toolchain's check of the final module (FinalModule.cpp) see the same cycles.
#pragma once

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/Function.h"

namespace Atoll {

/// Calls Visit on every cycle of F's cycle forest (CycleInfo: irreducible cycles
/// included), each cycle before the cycles nested in it (a worklist: the last
/// top-level cycle first). Visit returns false to stop; forEachCycle then returns
/// false. The forest is computed once, before the first Visit: Visit may change
/// instructions and metadata but not the CFG.
inline bool forEachCycle(llvm::Function &F,
                         llvm::function_ref<bool(const llvm::CycleInfo::CycleT &)> Visit) {
  llvm::CycleInfo CI;
  CI.compute(F);
  llvm::SmallVector<const llvm::CycleInfo::CycleT *, 16> Work(CI.toplevel_cycles());
  while (!Work.empty()) {
    const llvm::CycleInfo::CycleT *C = Work.pop_back_val();
    llvm::append_range(Work, C->children());
    if (!Visit(*C))
      return false;
  }
  return true;
}

} // namespace Atoll
