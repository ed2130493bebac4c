// Preemption checks on every cycle-closing edge (ABI v2 control block); see
// Preemption.cpp.
#pragma once

#include "AtollMemInternal.h"
#include "atoll/abi.h"

namespace Atoll {

struct PreemptOptions {
  bool Enabled = true;
  unsigned PollShift = ATOLL_DEFAULT_POLL_SHIFT; // read the cancel word every 2^PollShift edges
};

/// Inserts the checks into kernel F (already confined); Control is the i64 hidden
/// parameter holding the control block's device address. Returns false after
/// Refuse when a cycle cannot take a check.
bool insertPreemptionChecks(llvm::Function &F, llvm::Value *Control,
                            const PreemptOptions &Opts, const RefuseFn &Refuse);

} // namespace Atoll
