// Shared by the GPU tests and the timed calls (TimedCall.h): sizes and elapsed time.
#pragma once

#include <chrono>
#include <cstdint>

namespace atoll_test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr uint64_t MiB = uint64_t(1) << 20;

/// Milliseconds since `t`.
inline double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

} // namespace atoll_test
