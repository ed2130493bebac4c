// Turning LLVM's fatal errors and crashes during a toolchain step into errors.
#include "ToolchainInternal.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llvm;

namespace Atoll::toolchain::detail {

namespace {
/// Where the current thread's fatal error message goes while it runs a step.
thread_local std::string *FatalMessage = nullptr;

void fatalErrorHandler(void *, const char *Reason, bool) {
  if (FatalMessage) {
    *FatalMessage = Reason;
    // Leave the step now. Returning lets LLVM abort (GenCrashDiag, which the
    // CrashRecoveryContext catches as a signal) or call exit(1), which nothing
    // catches: a usage error such as NVPTX's "does not support syncscope" ended
    // the whole process (the service with compileInProcess, atoll-harden with no
    // message, a compile worker without an answer).
    if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent())
      CRC->HandleExit(1);
    return;
  }
  // Not inside a toolchain step: LLVM's default behaviour.
  errs() << "LLVM ERROR: " << Reason << "\n";
}

void enableRecovery() {
  // Process-wide, once. Outside a recovery context the handlers restore the
  // previous signal dispositions and re-raise, so crashes elsewhere behave as before.
  static std::once_flag Once;
  std::call_once(Once, [] {
    CrashRecoveryContext::Enable();
    install_fatal_error_handler(fatalErrorHandler);
  });
}
} // namespace

Error runRecoverable(const Twine &What, function_ref<void()> Fn) {
  enableRecovery();
  std::string Message;
  FatalMessage = &Message;
  CrashRecoveryContext CRC;
  bool Completed = CRC.RunSafely(Fn);
  FatalMessage = nullptr;
  if (Completed)
    return Error::success();
  return makeError(FailureKind::CompileError,
                   What + " failed inside LLVM: " +
                       (Message.empty() ? std::string("crash") : Message));
}

} // namespace Atoll::toolchain::detail
