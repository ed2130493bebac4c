// The runtime's watchdog; see Watchdog.h.
#include "Watchdog.h"

#include "RuntimeState.h"
#include "atoll/abi.h"

#include <fmt/format.h>
#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace Atoll::detail {

using Clock = std::chrono::steady_clock;

Watchdog &Watchdog::instance() {
  static Watchdog *w = [] {
    auto *p = new Watchdog; // never destroyed: pipelines may be torn down at exit
    std::atexit(&Watchdog::atExit);
    return p;
  }();
  return *w;
}

void Watchdog::atExit() {
  Watchdog &w = instance();
  // Bounded: the thread may be inside a (non-waiting) driver call; then it sees
  // exiting_ before its next one.
  if (w.mutex_.try_lock_for(std::chrono::milliseconds(200))) {
    w.exiting_.store(true);
    w.mutex_.unlock();
  } else {
    w.exiting_.store(true);
  }
  w.cv_.notify_all();
}

std::shared_ptr<WatchedStream> Watchdog::add(RuntimeState &state, CUstream stream,
                                             uint64_t control,
                                             std::chrono::milliseconds limit) noexcept {
  try {
    auto e = std::make_shared<WatchedStream>();
    e->state = &state;
    e->stream = stream;
    e->control = control;
    e->limitMs.store(limit.count());
    std::lock_guard lock(mutex_);
    if (!started_) {
      std::thread t(&Watchdog::loop, this);
      pthread_setname_np(t.native_handle(), "atoll-watchdog");
      t.detach();
      started_ = true;
    }
    entries_.push_back(e);
    cv_.notify_all();
    return e;
  } catch (...) {
    return nullptr;
  }
}

void Watchdog::remove(const std::shared_ptr<WatchedStream> &entry) noexcept {
  if (!entry)
    return;
  std::lock_guard lock(mutex_);
  std::erase(entries_, entry);
  if (entry->event && entry->state->makeCurrent())
    entry->state->api->cuEventDestroy(entry->event);
  entry->event = nullptr;
}

size_t Watchdog::watched() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void Watchdog::loop() {
  std::unique_lock lock(mutex_);
  while (!exiting_.load()) {
    if (entries_.empty()) {
      cv_.wait(lock, [&] { return !entries_.empty() || exiting_.load(); });
      continue;
    }
    scan(Clock::now());
    cv_.wait_for(lock, kTick, [&] { return exiting_.load(); });
  }
}

void Watchdog::scan(Clock::time_point now) noexcept {
  for (const auto &p : entries_) {
    WatchedStream &e = *p;
    if (exiting_.load())
      return;
    // The pipeline saw its stream at rest since the last look: that busy period ended.
    if (uint64_t r = e.rests.load(std::memory_order_acquire); r != e.seenRests) {
      e.seenRests = r;
      e.busySince = Clock::time_point::max();
    }
    if (e.cancelPending.load(std::memory_order_acquire)) {
      e.awaitingReset = true; // cancelled: wait for the pipeline to take it
      continue;
    }
    if (e.awaitingReset) { // the pipeline queued its reset: a new period begins
      e.awaitingReset = false;
      e.busySince = Clock::time_point::max();
    }
    // Lost, abandoned or reset context: nothing to watch (touch no driver handle).
    if (!e.state->makeCurrent())
      continue;
    CUresult r = e.state->api->cuStreamQuery(e.stream); // never waits
    if (r != CUDA_ERROR_NOT_READY) {
      e.busySince = Clock::time_point::max(); // at rest (or an error: the next call sees it)
      continue;
    }
    if (e.busySince == Clock::time_point::max()) {
      e.busySince = now;
      continue;
    }
    const auto limit = std::chrono::milliseconds(e.limitMs.load(std::memory_order_relaxed));
    // In milliseconds: a limit of milliseconds::max() would overflow in nanoseconds.
    if (limit.count() > 0 &&
        std::chrono::duration_cast<std::chrono::milliseconds>(now - e.busySince) >= limit)
      cancel(e, now);
  }
}

void Watchdog::cancel(WatchedStream &e, Clock::time_point now) noexcept {
  const cuda::DriverApi &api = *e.state->api;
  const CUstream cs = e.state->controls.stream();
  if (!cs)
    return;
  if (!e.event && api.cuEventCreate(&e.event, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    e.event = nullptr;
    return; // retried at the next tick
  }
  // The set of requestCancel, on the control stream (no tenant work there), then an
  // event behind it: the pipeline's reset waits for it. Flagged (2) before the set:
  // a waiter that sees the work end must learn that it was cancelled.
  e.cancelPending.store(2, std::memory_order_release);
  if (api.cuMemsetD32Async(e.control + ATOLL_CONTROL_CANCEL_OFFSET, 1, 1, cs) != CUDA_SUCCESS ||
      api.cuEventRecord(e.event, cs) != CUDA_SUCCESS) {
    // Not set (or not behind an event): a sticky error marks the runtime lost at its
    // next call; retried at the next tick otherwise.
    e.cancelPending.store(0, std::memory_order_release);
    return;
  }
  e.cancelledAfterMs.store(
      std::chrono::duration_cast<std::chrono::milliseconds>(now - e.busySince).count());
  e.cancelledLimitMs.store(e.limitMs.load());
  e.state->watchdogCancels++;
  e.cancelPending.store(1, std::memory_order_release);
  e.awaitingReset = true;
}

// --- limits ------------------------------------------------------------------------

Status checkRuntimeLimits(const RuntimeOptions &o) {
  if (o.maxTimeout.count() <= 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::maxTimeout must be positive");
  if (o.maxCancelDeadline.count() <= 0)
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::maxCancelDeadline must be positive");
  if (o.maxBusyTime.count() <= 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::maxBusyTime must be positive");
  if (o.defaultTimeout > o.maxTimeout)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("RuntimeOptions::defaultTimeout ({} ms) exceeds "
                             "RuntimeOptions::maxTimeout ({} ms)",
                             o.defaultTimeout.count(), o.maxTimeout.count()));
  if (o.maxKernelsPerModule == 0)
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::maxKernelsPerModule must be positive");
  if (o.maxCubinBytes == 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::maxCubinBytes must be positive");
  if (o.moduleMemoryBudget == 0)
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::moduleMemoryBudget must be positive");
  return {};
}

Status checkPipelineLimits(const RuntimeOptions &o, const PipelineOptions &p) {
  if (p.timeout.count() < 0)
    return Error(ErrorCode::InvalidArgument, "PipelineOptions::timeout is negative");
  if (p.timeout > o.maxTimeout)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("PipelineOptions::timeout ({} ms) exceeds the runtime's "
                             "RuntimeOptions::maxTimeout ({} ms)",
                             p.timeout.count(), o.maxTimeout.count()));
  if (p.cancelDeadline.count() < 0)
    return Error(ErrorCode::InvalidArgument, "PipelineOptions::cancelDeadline is negative");
  if (p.cancelDeadline > o.maxCancelDeadline)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("PipelineOptions::cancelDeadline ({} ms) exceeds the runtime's "
                             "RuntimeOptions::maxCancelDeadline ({} ms)",
                             p.cancelDeadline.count(), o.maxCancelDeadline.count()));
  return {};
}

Status checkAppTimeout(const RuntimeOptions &o, std::chrono::milliseconds timeout) {
  if (timeout.count() < 0)
    return Error(ErrorCode::InvalidArgument, "AppOptions::timeout is negative");
  if (timeout > o.maxTimeout)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("AppOptions::timeout ({} ms) exceeds the runtime's "
                             "RuntimeOptions::maxTimeout ({} ms)",
                             timeout.count(), o.maxTimeout.count()));
  return {};
}

} // namespace Atoll::detail
