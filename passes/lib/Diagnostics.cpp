#include "atoll/passes/Diagnostics.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace Atoll {

int AtollDiagnostic::kindID() {
  static const int ID = getNextAvailablePluginDiagnosticKind();
  return ID;
}

AtollDiagnostic::AtollDiagnostic(StringRef PassName, const Function &F, const Instruction *I,
                                 const Twine &Reason, DiagnosticSeverity Severity)
    : DiagnosticInfo(kindID(), Severity), Location(sourceLocation(I)) {
  raw_string_ostream OS(Message);
  OS << PassName << ": refused in '" << F.getName() << "': " << Reason;
  if (I)
    OS << ": " << instructionText(I);
}

AtollDiagnostic::AtollDiagnostic(StringRef PassName, const GlobalValue &GV,
                                 const Twine &Reason)
    : DiagnosticInfo(kindID(), DS_Error) {
  raw_string_ostream OS(Message);
  OS << PassName << ": refused global '" << GV.getName() << "': " << Reason;
}

void AtollDiagnostic::print(DiagnosticPrinter &DP) const {
  if (!Location.empty())
    DP << Location << ": ";
  DP << Message;
}

std::string sourceLocation(const Instruction *I) {
  if (!I)
    return {};
  const DebugLoc &DL = I->getDebugLoc();
  if (!DL)
    return {};
  std::string S;
  raw_string_ostream OS(S);
  auto *Scope = cast<DIScope>(DL.getScope());
  OS << Scope->getFilename() << ":" << DL.getLine() << ":" << DL.getCol();
  return S;
}

std::string instructionText(const Instruction *I) {
  if (!I)
    return {};
  std::string S;
  raw_string_ostream OS(S);
  I->print(OS);
  StringRef T = StringRef(S).trim();
  // Drop trailing metadata attachments ("!tbaa !3, !dbg !7"): noise in a message.
  if (size_t Pos = T.find(", !"); Pos != StringRef::npos)
    T = T.take_front(Pos);
  std::string Out = T.str();
  if (Out.size() > 160)
    Out = Out.substr(0, 157) + "...";
  return Out;
}

} // namespace Atoll
