// The counters of atoll-mem (opt -stats; docs/passes.md, "Statistics"): accesses
// confined, proven safe and refused per state space, and the clamps inserted.
// Counted as the records reach the report (HardeningReport::add), the one place
// every outcome passes through, so that refusals count even when opt exits at
// the first error diagnostic.
#include "Statistics.h"

#include "atoll/passes/AtollMem.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

// ALWAYS_ENABLED: the Debian LLVM is built without assertions, where plain
// STATISTICs are no-ops and -stats prints only "Statistics are disabled".
ALWAYS_ENABLED_STATISTIC(NumClamps, "Clamps inserted (a group of accesses shares one)");
ALWAYS_ENABLED_STATISTIC(NumGlobalConfined, "Global accesses confined");
ALWAYS_ENABLED_STATISTIC(NumGlobalProven, "Global accesses proven safe");
ALWAYS_ENABLED_STATISTIC(NumGlobalRefused, "Global accesses refused");
ALWAYS_ENABLED_STATISTIC(NumSharedConfined, "Shared accesses confined");
ALWAYS_ENABLED_STATISTIC(NumSharedProven, "Shared accesses proven safe");
ALWAYS_ENABLED_STATISTIC(NumSharedRefused, "Shared accesses refused");
ALWAYS_ENABLED_STATISTIC(NumLocalConfined, "Local accesses confined");
ALWAYS_ENABLED_STATISTIC(NumLocalProven, "Local accesses proven safe");
ALWAYS_ENABLED_STATISTIC(NumLocalRefused, "Local accesses refused");
ALWAYS_ENABLED_STATISTIC(NumConstantConfined, "Constant accesses confined");
ALWAYS_ENABLED_STATISTIC(NumConstantProven, "Constant accesses proven safe");
ALWAYS_ENABLED_STATISTIC(NumConstantRefused, "Constant accesses refused");
ALWAYS_ENABLED_STATISTIC(NumParamConfined, "Param accesses confined");
ALWAYS_ENABLED_STATISTIC(NumParamProven, "Param accesses proven safe");
ALWAYS_ENABLED_STATISTIC(NumParamRefused, "Param accesses refused");
ALWAYS_ENABLED_STATISTIC(NumUnknownConfined, "Unknown-space accesses and operands confined");
ALWAYS_ENABLED_STATISTIC(NumUnknownProven, "Unknown-space instructions proven safe (inline asm)");
ALWAYS_ENABLED_STATISTIC(NumUnknownRefused, "Unknown-space instructions refused");

namespace Atoll {

namespace {
std::vector<TrackingStatistic *> &listed() {
  static std::vector<TrackingStatistic *> L;
  return L;
}

TrackingStatistic *const Outcomes[][NumOutcomes] = {
    {&NumGlobalConfined, &NumGlobalProven, &NumGlobalRefused},
    {&NumSharedConfined, &NumSharedProven, &NumSharedRefused},
    {&NumLocalConfined, &NumLocalProven, &NumLocalRefused},
    {&NumConstantConfined, &NumConstantProven, &NumConstantRefused},
    {&NumParamConfined, &NumParamProven, &NumParamRefused},
    {&NumUnknownConfined, &NumUnknownProven, &NumUnknownRefused},
};

// LLVM prints registered statistics only when it is built with them (its
// PrintStatistics() at shutdown); without, the pass prints its own at exit,
// in LLVM's format. At exit, not at the end of the pass: opt exits at the first
// error diagnostic, and a refused module must still show its counts.
void printAtExit() {
  std::vector<TrackingStatistic *> All{&NumClamps};
  for (auto &Row : Outcomes)
    for (TrackingStatistic *S : Row)
      All.push_back(S);
  All.insert(All.end(), listed().begin(), listed().end());
  unsigned Width = 1;
  for (TrackingStatistic *S : All)
    Width = std::max<unsigned>(Width, std::to_string(S->getValue()).size());
  raw_ostream &OS = errs();
  OS << "===" << std::string(73, '-') << "===\n"
     << "                          ... Statistics Collected ...\n"
     << "===" << std::string(73, '-') << "===\n\n";
  for (TrackingStatistic *S : All)
    if (S->getValue())
      OS << format("%*" PRIu64 " %s - %s\n", Width, S->getValue(), S->getDebugType(),
                   S->getDesc());
  OS << '\n';
  OS.flush();
}
} // namespace

void countOutcome(const AccessRecord &R) {
  if (R.Pass != AtollMemPass::name())
    return;
  unsigned Row;
  switch (R.Space) {
  case StateSpace::Global: Row = 0; break;
  case StateSpace::Shared: Row = 1; break;
  case StateSpace::Local: Row = 2; break;
  case StateSpace::Constant: Row = 3; break;
  case StateSpace::Param: Row = 4; break;
  default: Row = 5; break;
  }
  ++*Outcomes[Row][unsigned(R.Result)];
}

void countClamp() { ++NumClamps; }

bool listStatistic(TrackingStatistic &S) {
  listed().push_back(&S);
  return true;
}

void enableStatisticsOutput() {
#if !LLVM_ENABLE_STATS
  static const bool Registered = AreStatisticsEnabled() && std::atexit(printAtExit) == 0;
  (void)Registered;
#endif
}

} // namespace Atoll
