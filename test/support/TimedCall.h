// Timed calls for the host-stall tests (test/unit/HostStallMockTest.cpp on the
// stand-in driver, test/gpu/HostStallGpuTest.cpp on a GPU): a call runs on a
// detached thread, so that one that blocks fails the test instead of hanging it.
#pragma once

#include "TestTime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace atoll_test {

/// A call on a detached thread that every wait bounds: a std::async future would
/// block in its destructor, and a plain join forever, if the call never returns.
class Detached {
  struct State {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
  };
  std::shared_ptr<State> st_ = std::make_shared<State>();

public:
  explicit Detached(std::function<void()> fn) {
    std::thread([st = st_, fn = std::move(fn)] {
      fn();
      std::lock_guard l(st->m);
      st->done = true;
      st->cv.notify_all();
    }).detach();
  }
  bool waitFor(std::chrono::milliseconds limit) {
    std::unique_lock l(st_->m);
    return st_->cv.wait_for(l, limit, [&] { return st_->done; });
  }
};

/// A call still blocked references the test's objects: the process cannot go on
/// (nor unwind them). The failure is printed, and the exit code says so: the test
/// runner sees a failure, never a hang.
[[noreturn]] inline void giveUp(const char *tag, const char *what,
                                std::chrono::milliseconds waited) {
  std::printf("[%s] FAILED: %s is still blocked after %lld ms more; ending the process\n", tag,
              what, static_cast<long long>(waited.count()));
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(3);
}

/// How a timed call reports: the tag of its lines ("host-stall") and the width of
/// the call's name column.
struct TimedLog {
  const char *tag;
  int width;
};

/// Runs `fn` on another thread and returns how long it took (ms, the bound when it
/// did not return in time); fails the test if it has not returned after `limit`.
/// Then `unblock` (if any) removes what may keep it blocked, and the call gets
/// `grace` more to return before the process ends (giveUp).
inline double timedCall(TimedLog log, const char *what, std::chrono::milliseconds limit,
                        std::function<void()> fn, const std::function<void()> &unblock,
                        std::chrono::milliseconds grace) {
  auto start = Clock::now();
  Detached call(std::move(fn));
  const bool inTime = call.waitFor(limit);
  double ms = msSince(start);
  if (!inTime) {
    ADD_FAILURE() << what << " did not return within " << limit.count() << " ms";
    std::printf("[%s] %-*s %9s    (bound %lld ms) FAILED\n", log.tag, log.width, what, "blocked",
                static_cast<long long>(limit.count()));
    std::fflush(stdout);
    if (unblock)
      unblock();
    if (!call.waitFor(grace))
      giveUp(log.tag, what, grace);
    std::printf("[%s] %-*s returned after %.1f ms, once unblocked\n", log.tag, log.width, what,
                msSince(start));
    std::fflush(stdout);
    return ms;
  }
  std::printf("[%s] %-*s %9.1f ms (bound %lld ms)\n", log.tag, log.width, what, ms,
              static_cast<long long>(limit.count()));
  std::fflush(stdout);
  return ms;
}

/// Waits (bounded) for a background call that must end; gives up if it does not.
inline void finish(const char *tag, Detached &d, const char *what,
                   std::chrono::milliseconds limit) {
  if (!d.waitFor(limit)) {
    ADD_FAILURE() << what << " did not end within " << limit.count() << " ms";
    giveUp(tag, what, limit);
  }
}

} // namespace atoll_test
