// The counters of atoll-mem (Statistics.cpp).
#pragma once

#include "atoll/passes/HardeningReport.h"

namespace Atoll {

/// Counts one record of atoll-mem by space and outcome (other passes: ignored).
void countOutcome(const AccessRecord &R);
/// Counts one clamp emitted by the rewrite.
void countClamp();
/// With -stats and an LLVM built without statistics, prints the counters at exit.
void enableStatisticsOutput();

} // namespace Atoll
