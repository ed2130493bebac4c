// Refusals are reported as LLVM diagnostics (severity error), so that opt and clang
// print them in LLVM's format and exit cleanly, and in-process callers (the runtime,
// atoll-harden) collect them with a diagnostic handler instead.
#pragma once

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DiagnosticInfo.h"

#include <string>

namespace llvm {
class Function;
class GlobalValue;
class Instruction;
} // namespace llvm

namespace Atoll {

class HardeningReport;

/// A refusal by one of the AToLL passes. print() gives
///   "<pass>: refused <what> in '<function>': <reason>: <instruction>"
/// and the location (file:line:col) comes from the instruction's debug info.
class AtollDiagnostic : public llvm::DiagnosticInfo {
public:
  AtollDiagnostic(llvm::StringRef PassName, const llvm::Function &F,
                  const llvm::Instruction *I, const llvm::Twine &Reason,
                  llvm::DiagnosticSeverity Severity = llvm::DS_Error);
  /// A refusal about a module-scope symbol (no instruction to point at).
  AtollDiagnostic(llvm::StringRef PassName, const llvm::GlobalValue &GV,
                  const llvm::Twine &Reason);

  void print(llvm::DiagnosticPrinter &DP) const override;
  /// The refusal without the location prefix.
  const std::string &message() const { return Message; }
  /// "file:line:col", or "" without debug info.
  const std::string &location() const { return Location; }

  static int kindID();
  static bool classof(const llvm::DiagnosticInfo *DI) {
    return DI->getKind() == kindID();
  }

private:
  std::string Message;
  std::string Location;
};

/// "file:line:col" of the instruction's debug location, or "" without debug info.
std::string sourceLocation(const llvm::Instruction *I);
/// The instruction printed as IR on one line, shortened to at most 160 characters.
std::string instructionText(const llvm::Instruction *I);

} // namespace Atoll
