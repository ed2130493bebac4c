// The runtime's watchdog (review R5-F3): timeouts act whether or not anyone waits.
//
// One process-wide thread polls the stream of every pipeline (cuStreamQuery, which
// never waits) and, once a stream has been busy without coming to rest for longer
// than its pipeline's limit, sets that pipeline's cancel word from the runtime's
// control stream (cuMemsetD32Async + cuEventRecord there: exactly the set of
// requestCancel, never queued behind a tenant's stream). It takes no pipeline lock:
// the pipeline's next call sees the cancel (WatchedStream::cancelPending), queues the
// control block's reset after the set and reports Timeout. It makes no driver call
// that waits, so neither a busy device nor a quiet section can stall it.
//
// The clock: a *busy period*, from the first time the stream is seen busy after it
// was last seen at rest (by the watchdog, or by the pipeline itself in a wait or a
// query) to now. Not per launch: a quiet section needs every stream at rest at once,
// so a stream that never rests (one endless kernel, or short kernels back to back)
// starves module loads and reclaims alike; and a busy period needs no event per
// launch (the launch path makes no extra driver call).
#pragma once

#include "cuda/DriverApi.h"

#include "atoll/error.h"
#include "atoll/pipeline.h"
#include "atoll/runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace Atoll::detail {

struct RuntimeState;

/// One pipeline's stream as the watchdog sees it. Shared by the pipeline and the
/// watchdog's registry; the watchdog touches the driver for it only while it is
/// registered (Watchdog::remove waits for a scan in progress).
struct WatchedStream {
  RuntimeState *state = nullptr; // outlives the entry (the pipeline holds it)
  CUstream stream = nullptr;
  uint64_t control = 0; // the pipeline's control block
  /// The longest busy period allowed, in ms (PipelineImpl::watchdogLimit).
  std::atomic<int64_t> limitMs{0};
  /// Bumped by the pipeline whenever it sees its stream at rest: a busy period ends.
  std::atomic<uint64_t> rests{0};
  /// 2 while the watchdog sets the cancel word, 1 once it has (and recorded `event`
  /// behind the set on the control stream); back to 0 when the pipeline has queued
  /// its reset.
  std::atomic<uint32_t> cancelPending{0};
  std::atomic<int64_t> cancelledAfterMs{0}; // the busy period it was cancelled at
  std::atomic<int64_t> cancelledLimitMs{0}; // the limit it exceeded
  CUevent event = nullptr; // created by the watchdog at its first cancel

  // Watchdog-private (under its mutex).
  uint64_t seenRests = 0;
  bool awaitingReset = false;
  std::chrono::steady_clock::time_point busySince = std::chrono::steady_clock::time_point::max();
};

class Watchdog {
public:
  /// How often every registered stream is queried: the slack of every limit.
  static constexpr std::chrono::milliseconds kTick{5};

  static Watchdog &instance();
  /// Registers a pipeline's stream (starts the thread on first use). Never throws:
  /// without memory or a thread, nullptr (the pipeline creation fails).
  std::shared_ptr<WatchedStream> add(RuntimeState &state, CUstream stream, uint64_t control,
                                     std::chrono::milliseconds limit) noexcept;
  /// Unregisters; after it returns the watchdog never touches the entry again.
  /// Destroys the entry's event (the caller has recorded what must follow the set).
  void remove(const std::shared_ptr<WatchedStream> &entry) noexcept;
  /// Streams registered (tests).
  size_t watched() const;

private:
  Watchdog() = default;
  void loop();
  void scan(std::chrono::steady_clock::time_point now) noexcept;
  void cancel(WatchedStream &e, std::chrono::steady_clock::time_point now) noexcept;
  static void atExit();

  mutable std::timed_mutex mutex_; // registry and every entry's private fields
  std::condition_variable_any cv_;
  std::vector<std::shared_ptr<WatchedStream>> entries_;
  bool started_ = false;
  std::atomic<bool> exiting_{false};
};

/// Checks the service-set bounds of RuntimeOptions (maxTimeout, maxCancelDeadline,
/// maxBusyTime, the module caps) and that defaultTimeout is within maxTimeout.
Status checkRuntimeLimits(const RuntimeOptions &options);
/// Checks a pipeline's timeout and cancelDeadline against the runtime's caps.
Status checkPipelineLimits(const RuntimeOptions &options, const PipelineOptions &opts);
/// Checks an application's timeout against RuntimeOptions::maxTimeout.
Status checkAppTimeout(const RuntimeOptions &options, std::chrono::milliseconds timeout);

} // namespace Atoll::detail
