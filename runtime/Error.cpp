#include "atoll/error.h"

#include <fmt/format.h>

namespace Atoll {

std::string_view to_string(ErrorCode code) noexcept {
  switch (code) {
  case ErrorCode::NoDriver: return "no-driver";
  case ErrorCode::NoDevice: return "no-device";
  case ErrorCode::DriverError: return "driver-error";
  case ErrorCode::ContextLost: return "context-lost";
  case ErrorCode::InvalidArgument: return "invalid-argument";
  case ErrorCode::InvalidBitcode: return "invalid-bitcode";
  case ErrorCode::WrongTarget: return "wrong-target";
  case ErrorCode::Refused: return "refused";
  case ErrorCode::CompileError: return "compile-error";
  case ErrorCode::JitError: return "jit-error";
  case ErrorCode::NotFound: return "not-found";
  case ErrorCode::OutOfArena: return "out-of-arena";
  case ErrorCode::ArenaExhausted: return "arena-exhausted";
  case ErrorCode::CapacityExceeded: return "capacity-exceeded";
  case ErrorCode::InvalidLaunch: return "invalid-launch";
  case ErrorCode::Timeout: return "timeout";
  case ErrorCode::Cancelled: return "cancelled";
  case ErrorCode::FuelExhausted: return "fuel-exhausted";
  case ErrorCode::IoError: return "io-error";
  case ErrorCode::CompileTimeout: return "compile-timeout";
  case ErrorCode::CompileResources: return "compile-resources";
  case ErrorCode::Unsupported: return "unsupported";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string out = fmt::format("{}: {}", to_string(code_), message_);
  if (!detail_.empty())
    out += "\n" + detail_;
  return out;
}

Error &Error::within(std::string_view context) {
  message_ = fmt::format("{}: {}", context, message_);
  return *this;
}

} // namespace Atoll
