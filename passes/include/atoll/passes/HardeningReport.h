// What the passes found and did, per memory access: the data behind
// atoll-harden --verbose / --summarize / --summary-format=json.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace Atoll {

/// PTX state spaces, named after their NVPTX address spaces.
enum class StateSpace { Generic, Global, Shared, Local, Constant, Param, Unknown };
inline constexpr unsigned NumStateSpaces = 7;

enum class AccessKind {
  Load, Store, AtomicRMW, CmpXchg, MemTransfer, MemSet, Intrinsic, Call, InlineAsm, Global,
};
inline constexpr unsigned NumAccessKinds = 10;

enum class Outcome { Confined, ProvenSafe, Refused };
inline constexpr unsigned NumOutcomes = 3;

llvm::StringRef toString(StateSpace S);
llvm::StringRef toString(AccessKind K);
llvm::StringRef toString(Outcome O);

struct AccessRecord {
  std::string Pass;        // "atoll-mem" or "promote-ptx-constant-globals"
  std::string Function;    // kernel (or global) name
  std::string Instruction; // the instruction as printed IR, trimmed
  std::string Location;    // file:line:col when debug info exists, else empty
  StateSpace Space = StateSpace::Unknown;
  AccessKind Kind = AccessKind::Load;
  Outcome Result = Outcome::Confined;
  std::string Detail;      // how it was confined, why it is safe, or why refused
};

/// Collects records from the passes. Not thread-safe: one report per module run.
class HardeningReport {
public:
  /// Adds a record (and counts atoll-mem's in its statistics, Statistics.cpp).
  void add(AccessRecord R);
  const std::vector<AccessRecord> &records() const { return Records; }
  bool hasRefusals() const;
  unsigned count(StateSpace S, AccessKind K, Outcome O) const;
  unsigned count(Outcome O) const;

  /// One line per record: "kernel: space kind outcome: detail | instruction".
  void printVerbose(llvm::raw_ostream &OS) const;
  /// A table of counts per state space and kind, with confined/proven/refused columns.
  void printSummary(llvm::raw_ostream &OS) const;
  /// The same data as JSON: {"totals":{...},"rows":[...],"refusals":[...]}.
  void printJSON(llvm::raw_ostream &OS) const;
  void clear() { Records.clear(); }

private:
  std::vector<AccessRecord> Records;
};

} // namespace Atoll
