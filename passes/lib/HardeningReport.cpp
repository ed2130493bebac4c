#include "atoll/passes/HardeningReport.h"

#include "Statistics.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace Atoll {

void HardeningReport::add(AccessRecord R) {
  countOutcome(R);
  Records.push_back(std::move(R));
}


StringRef toString(StateSpace S) {
  switch (S) {
  case StateSpace::Generic: return "generic";
  case StateSpace::Global: return "global";
  case StateSpace::Shared: return "shared";
  case StateSpace::Local: return "local";
  case StateSpace::Constant: return "constant";
  case StateSpace::Param: return "param";
  case StateSpace::Unknown: return "unknown";
  }
  return "unknown";
}

StringRef toString(AccessKind K) {
  switch (K) {
  case AccessKind::Load: return "load";
  case AccessKind::Store: return "store";
  case AccessKind::AtomicRMW: return "atomicrmw";
  case AccessKind::CmpXchg: return "cmpxchg";
  case AccessKind::MemTransfer: return "memcpy";
  case AccessKind::MemSet: return "memset";
  case AccessKind::Intrinsic: return "intrinsic";
  case AccessKind::Call: return "call";
  case AccessKind::InlineAsm: return "inline-asm";
  case AccessKind::Global: return "global-var";
  }
  return "unknown";
}

StringRef toString(Outcome O) {
  switch (O) {
  case Outcome::Confined: return "confined";
  case Outcome::ProvenSafe: return "proven-safe";
  case Outcome::Refused: return "refused";
  }
  return "unknown";
}

bool HardeningReport::hasRefusals() const { return count(Outcome::Refused) != 0; }

unsigned HardeningReport::count(StateSpace S, AccessKind K, Outcome O) const {
  unsigned N = 0;
  for (const AccessRecord &R : Records)
    N += R.Space == S && R.Kind == K && R.Result == O;
  return N;
}

unsigned HardeningReport::count(Outcome O) const {
  unsigned N = 0;
  for (const AccessRecord &R : Records)
    N += R.Result == O;
  return N;
}

void HardeningReport::printVerbose(raw_ostream &OS) const {
  for (const AccessRecord &R : Records) {
    OS << R.Pass << ": " << R.Function << ": " << toString(R.Space) << " "
       << toString(R.Kind) << " " << toString(R.Result);
    if (!R.Detail.empty())
      OS << ": " << R.Detail;
    if (!R.Location.empty())
      OS << " [" << R.Location << "]";
    if (!R.Instruction.empty())
      OS << " | " << R.Instruction;
    OS << "\n";
  }
}

namespace {
struct Row {
  StateSpace Space;
  AccessKind Kind;
  unsigned Counts[NumOutcomes] = {};
};

std::vector<Row> rows(const std::vector<AccessRecord> &Records) {
  std::vector<Row> Rows;
  for (unsigned S = 0; S < NumStateSpaces; ++S)
    for (unsigned K = 0; K < NumAccessKinds; ++K) {
      Row R{StateSpace(S), AccessKind(K)};
      bool Any = false;
      for (const AccessRecord &A : Records)
        if (A.Space == R.Space && A.Kind == R.Kind) {
          ++R.Counts[unsigned(A.Result)];
          Any = true;
        }
      if (Any)
        Rows.push_back(R);
    }
  return Rows;
}
} // namespace

void HardeningReport::printSummary(raw_ostream &OS) const {
  OS << "AToLL hardening summary\n";
  OS << format("%-10s %-12s %10s %12s %9s\n", "space", "kind", "confined", "proven-safe",
               "refused");
  unsigned Totals[NumOutcomes] = {};
  for (const Row &R : rows(Records)) {
    OS << format("%-10s %-12s %10u %12u %9u\n", toString(R.Space).str().c_str(),
                 toString(R.Kind).str().c_str(), R.Counts[0], R.Counts[1], R.Counts[2]);
    for (unsigned O = 0; O < NumOutcomes; ++O)
      Totals[O] += R.Counts[O];
  }
  OS << format("%-10s %-12s %10u %12u %9u\n", "total", "", Totals[0], Totals[1], Totals[2]);
}

void HardeningReport::printJSON(raw_ostream &OS) const {
  json::Array JRows, JRefusals;
  for (const Row &R : rows(Records))
    JRows.push_back(json::Object{{"space", toString(R.Space)},
                                 {"kind", toString(R.Kind)},
                                 {"confined", R.Counts[0]},
                                 {"proven_safe", R.Counts[1]},
                                 {"refused", R.Counts[2]}});
  for (const AccessRecord &R : Records)
    if (R.Result == Outcome::Refused)
      JRefusals.push_back(json::Object{{"pass", R.Pass},
                                       {"function", R.Function},
                                       {"space", toString(R.Space)},
                                       {"kind", toString(R.Kind)},
                                       {"reason", R.Detail},
                                       {"instruction", R.Instruction},
                                       {"location", R.Location}});
  json::Object Root{{"totals", json::Object{{"confined", count(Outcome::Confined)},
                                            {"proven_safe", count(Outcome::ProvenSafe)},
                                            {"refused", count(Outcome::Refused)}}},
                    {"rows", std::move(JRows)},
                    {"refusals", std::move(JRefusals)}};
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

} // namespace Atoll
