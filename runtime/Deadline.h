// Deadlines from caller-supplied timeouts, saturated: `now + timeout` with a huge
// timeout (e.g. milliseconds::max()) must not overflow into the past, which would
// make a wait time out at once.
#pragma once

#include <chrono>

namespace Atoll::detail {

inline std::chrono::steady_clock::time_point deadlineAfter(std::chrono::steady_clock::time_point now,
                                                           std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  if (timeout.count() <= 0)
    return now;
  // What is left before the clock's maximum, in milliseconds (rounded down).
  auto room = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now);
  if (timeout >= room)
    return Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(timeout);
}

} // namespace Atoll::detail
