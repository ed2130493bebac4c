// The one error model of libatoll_runtime: every fallible call returns a Result<T>
// holding either a value or an Error (code + message + detail). No tenant input makes
// the library abort or throw.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace Atoll {

enum class ErrorCode {
  NoDriver,          // libcuda.so.1 could not be loaded
  NoDevice,          // the driver is there but has no usable device
  DriverError,       // a CUDA driver call failed (detail holds the driver's text)
  ContextLost,       // a sticky error poisoned the shared context; re-create the Runtime
  InvalidArgument,   // a caller passed something malformed
  InvalidBitcode,    // the bytes are not (valid) LLVM bitcode or IR
  WrongTarget,       // the module is not for nvptx64-nvidia-cuda
  Refused,           // the hardening passes refused the module (detail: diagnostics)
  CompileError,      // LLVM failed to optimise or generate PTX, or the compile worker crashed
  JitError,          // the driver refused the PTX (detail: JIT log)
  NotFound,          // no kernel/buffer/file of that name
  OutOfArena,        // a copy or buffer range leaves its buffer or arena
  ArenaExhausted,    // the arena has no free block large enough
  CapacityExceeded,  // admission control: the device-memory budget is spent
  InvalidLaunch,     // launch arguments or shape do not match the kernel
  Timeout,           // the pipeline's work did not finish within its timeout
  IoError,           // reading or writing a file failed
  Cancelled,         // the work was cancelled (Pipeline::cancel) before it finished
  FuelExhausted,     // a kernel thread spent its LaunchConfig::fuel and ended early
  CompileTimeout,    // the compile worker passed its wall-clock deadline and was killed
  CompileResources,  // the compile worker exceeded its memory, CPU time or output limit
  Unsupported,       // the device or driver lacks a feature the request needs (SM partitions)
};

/// Stable lower-case name of a code, e.g. "out-of-arena".
std::string_view to_string(ErrorCode code) noexcept;

class Error {
public:
  Error(ErrorCode code, std::string message, std::string detail = {})
      : code_(code), message_(std::move(message)), detail_(std::move(detail)) {}

  ErrorCode code() const noexcept { return code_; }
  /// One sentence naming the pipeline/application and what went wrong.
  const std::string &message() const noexcept { return message_; }
  /// The underlying driver error, JIT log or pass diagnostics (may be empty).
  const std::string &detail() const noexcept { return detail_; }
  /// "code: message" plus the detail on following lines.
  std::string describe() const;

  /// Prefixes the message with a context such as "pipeline 'tenant-a'".
  Error &within(std::string_view context);

private:
  ErrorCode code_;
  std::string message_;
  std::string detail_;
};

/// A value or an Error. Written by hand because std::expected is C++23 and
/// llvm::Expected would put LLVM into the public (LLVM-free) API.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T &value() & { assert(ok()); return std::get<0>(state_); }
  const T &value() const & { assert(ok()); return std::get<0>(state_); }
  T &&value() && { assert(ok()); return std::get<0>(std::move(state_)); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }

  const Error &error() const & { assert(!ok()); return std::get<1>(state_); }
  Error &&error() && { assert(!ok()); return std::get<1>(std::move(state_)); }

private:
  std::variant<T, Error> state_;
};

template <> class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}

  bool ok() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  void value() const { assert(ok()); }
  const Error &error() const & { assert(!ok()); return *error_; }
  Error &&error() && { assert(!ok()); return std::move(*error_); }

private:
  std::optional<Error> error_;
};

using Status = Result<void>;

} // namespace Atoll
