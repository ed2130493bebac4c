// The counters of atoll-mem (Statistics.cpp).
#pragma once

#include "atoll/passes/HardeningReport.h"

#include "llvm/ADT/Statistic.h"

/// A counter of the passes that -stats prints in every LLVM build (the Debian LLVM
/// has no statistics: plain STATISTICs are no-ops there), after the access table.
#define ATOLL_STATISTIC(VAR, DESC)                                                         \
  ALWAYS_ENABLED_STATISTIC(VAR, DESC);                                                     \
  [[maybe_unused]] static const bool VAR##Listed = ::Atoll::listStatistic(VAR)

namespace Atoll {

/// Counts one record of atoll-mem by space and outcome (other passes: ignored).
void countOutcome(const AccessRecord &R);
/// Counts one clamp emitted by the rewrite.
void countClamp();
/// Adds a counter to what -stats prints (ATOLL_STATISTIC); returns true.
bool listStatistic(llvm::TrackingStatistic &S);
/// With -stats and an LLVM built without statistics, prints the counters at exit.
void enableStatisticsOutput();

} // namespace Atoll
