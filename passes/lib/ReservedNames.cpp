// The reserved namespace: the passes create their module-scope helpers (the shared
// pad, the dynamic-shared base) and the hidden parameters under names starting with
// "__atoll", and the PTX they become is named the same. A tenant symbol of such a
// name could stand in for a helper (were it looked up by name) or collide with one
// in the PTX; a tenant parameter of such a name would push the hidden parameter's
// name aside. So every one is refused, before anything else: functions, globals,
// aliases and ifuncs, declared or defined, used or dead, and every parameter of
// every function.
#include "AtollMemInternal.h"

#include "atoll/abi.h"
#include "atoll/passes/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

STATISTIC(NumReservedNames, "Tenant symbols or parameters refused for a reserved name");

namespace Atoll {

static bool isReserved(StringRef Name) { return Name.starts_with(ReservedPrefix); }

bool refuseReservedNames(Module &M, StringRef PassName, HardeningReport *Report) {
  assert(isReserved(ATOLL_HIDDEN_ARENA_BASE_NAME) && isReserved(ATOLL_HIDDEN_ARENA_SIZE_NAME) &&
         "the ABI's names are in the reserved namespace");
  bool OK = true;
  auto Refuse = [&](const GlobalValue &GV, const Function *F, const Twine &Why) {
    ++NumReservedNames;
    OK = false;
    std::string Reason = Why.str();
    if (Report)
      Report->add({PassName.str(), GV.getName().str(), "", "", StateSpace::Unknown,
                   F ? AccessKind::Call : AccessKind::Global, Outcome::Refused, Reason});
    if (F) {
      AtollDiagnostic D(PassName, *F, nullptr, Reason);
      M.getContext().diagnose(D);
    } else {
      AtollDiagnostic D(PassName, GV, Reason);
      M.getContext().diagnose(D);
    }
  };
  const std::string Why = std::string("the name is reserved: names starting with '") +
                          ReservedPrefix + "' belong to the AToLL passes, runtime and ABI";
  for (GlobalValue &GV : M.global_values()) {
    if (isReserved(GV.getName()))
      Refuse(GV, dyn_cast<Function>(&GV), Why);
    if (auto *F = dyn_cast<Function>(&GV))
      for (const Argument &A : F->args())
        if (isReserved(A.getName()))
          Refuse(GV, F, "parameter '" + A.getName() + "': " + Why);
  }
  return OK;
}

} // namespace Atoll
