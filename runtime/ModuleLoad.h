// Loading applications (Application.cpp: cache lookups and compilation;
// ModuleLoad.cpp: the driver load on the loader thread): what both halves share.
#pragma once

#include "atoll/application.h"
#include "atoll/error.h"

#include "llvm/Support/Error.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace Atoll::detail {

/// The result of a queued module load (PendingApplication).
struct LoadSlot {
  std::mutex mutex;
  std::condition_variable cv;
  std::optional<Result<std::shared_ptr<Application>>> result;
  std::string what; // "application 'name'"
  void set(Result<std::shared_ptr<Application>> r);
};

/// The runtime's Error for a toolchain failure (InvalidBitcode, WrongTarget,
/// Refused, CompileError), message and diagnostics kept.
Error toolchainError(llvm::Error err);

} // namespace Atoll::detail
