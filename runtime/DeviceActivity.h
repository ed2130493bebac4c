// Process-wide bookkeeping of the kernels that may run in a device's primary context,
// and the one place where driver calls that wait for them are made.
//
// Every runtime of the process on a device shares its primary context, and in it a
// module load or unload, cuMemFree, cuMemFreeHost, cuMemHostUnregister (and the
// context's last release) wait for ANY running kernel; while one thread waits in such
// a call, other threads' immediate calls wait too (measured on the H200,
// docs/architecture.md). So those calls are made only in a *quiet section*: new
// launches are held at a gate, and every stream that can carry a tenant kernel (each
// pipeline's, of every runtime) was seen idle. Such a call then waits for nothing
// that can run long. Every enqueue of device work on a tenant stream (kernels, their
// control-block writes, copies, fills, a new pipeline's zeroing and scrub) passes the
// gate (review R8-F6: a cancel word stops kernels, not a memset or a DMA), and the
// bytes of copies and fills a pipeline may have queued are bounded
// (RuntimeOptions::maxQueuedCopyBytes): once the gate is closed what is queued ends
// within a bounded time. Not gated: a cancel's control-block reset (tiny, and a cancel
// never waits for a section) and a teardown's scrub (one fill of the arena; teardown
// never waits, and creation, which comes first, is gated).
#pragma once

#include "cuda/DriverApi.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace Atoll::detail {

class DeviceActivity {
public:
  /// The device's activity (process-wide, never destroyed).
  static DeviceActivity &of(int ordinal);

  /// A stream that may carry tenant kernels (a pipeline's), of context `generation`.
  void addStream(CUstream s, uint64_t generation);
  /// Before cuStreamDestroy of a registered stream.
  void removeStream(CUstream s);
  /// A registered stream whose work may still run: it stays counted and is destroyed
  /// (cuStreamDestroy returns at once) by the next quiet check that finds it idle.
  void retireStream(CUstream s);

  /// Held across every enqueue of device work on a tenant stream (cuLaunchKernel,
  /// copies and fills: R8-F6): waits while a quiet section runs (bounded by that
  /// section: driver calls on an idle device, at most kMaxQuietBatch of them) or a
  /// drain waits (at most drainHold()).
  class LaunchPass {
  public:
    explicit LaunchPass(DeviceActivity &a);
    ~LaunchPass();
    LaunchPass(const LaunchPass &) = delete;
    LaunchPass &operator=(const LaunchPass &) = delete;

  private:
    DeviceActivity &a_;
  };

  /// While alive, no kernel runs in the context and none can start.
  class QuietSection {
  public:
    explicit QuietSection(DeviceActivity &a, std::unique_lock<std::mutex> order);
    ~QuietSection();
    QuietSection(QuietSection &&) = default;

  private:
    DeviceActivity *a_;
    std::unique_lock<std::mutex> order_;
  };

  /// A caller starved for a while (kernels back to back) may ask to hold launches for
  /// a moment so that short kernels drain: at most kMaxSettle, at most once every
  /// kSettleEvery per device (launches wait at most 2.5% of the time for it).
  static constexpr std::chrono::microseconds kMaxSettle{5'000};
  static constexpr std::chrono::milliseconds kSettleEvery{200};

  /// Checks every registered stream with the gate open; all idle: closes the gate,
  /// waits for launches in progress to leave it, checks again (waiting at most
  /// `settle`, the gate closed, see kMaxSettle). All idle: the section (the gate
  /// stays closed until it ends). Else the gate reopens: nullopt. The caller has the
  /// context of `generation` current.
  std::optional<QuietSection> tryQuiet(const cuda::DriverApi &api, uint64_t generation,
                                       std::chrono::microseconds settle);

  /// Starvation (review R5-F3): every pipeline's busy period is bounded by the
  /// watchdog (Watchdog.h), but streams need not rest at the same time. A caller
  /// starved for kStarveAfter may *drain*: close the gate and wait, with no new
  /// kernel starting, until every stream rests, at most drainHold() (the longest
  /// busy limit + cancel deadline of any runtime + 2 watchdog ticks). Rate-limited:
  /// after a drain of D the next starts no earlier than max(kDrainGap, 4 D) later,
  /// so drains hold launches at most a fifth of the time.
  static constexpr std::chrono::milliseconds kStarveAfter{2000};
  static constexpr std::chrono::milliseconds kDrainGap{1000};
  std::optional<QuietSection> tryDrain(const cuda::DriverApi &api, uint64_t generation);
  /// A runtime's bound on a drain (the largest of all runtimes' is used).
  void noteDrainHold(std::chrono::milliseconds hold) noexcept;
  std::chrono::milliseconds drainHold() const noexcept {
    return std::chrono::milliseconds(drainHoldMs_.load());
  }
  /// Drains so far, and those that ended quiet (tests).
  uint64_t drains() const noexcept { return drains_.load(); }

  /// Streams registered (retired ones included): tests.
  size_t streams() const;

private:
  struct Entry {
    CUstream stream;
    uint64_t generation;
    bool retired;
  };
  /// True when every stream is idle; destroys retired idle streams, forgets streams
  /// of an older generation (the reset context freed them). Under mutex_.
  bool allIdleLocked(const cuda::DriverApi &api, uint64_t generation);

  mutable std::mutex mutex_; // guards streams_, launching_, closed_
  std::condition_variable cv_;
  std::vector<Entry> streams_;
  unsigned launching_ = 0;
  bool closed_ = false;
  std::chrono::steady_clock::time_point lastSettle_{};
  std::chrono::steady_clock::time_point nextDrain_{}; // under order_
  std::atomic<int64_t> drainHoldMs_{0};
  std::atomic<uint64_t> drains_{0};
  std::mutex order_; // one quiet section at a time (loaders, the reclaimer)
};

/// The process-wide reclaim thread: the waiting calls of every runtime are queued
/// here and made in quiet sections, in order, in batches. It outlives every Runtime
/// (never destroyed; at exit it stops touching the driver, see Reclaimer.cpp), so a
/// teardown hands its frees and its context release over and returns.
class Reclaimer {
public:
  struct Task {
    int ordinal = 0;
    uint64_t generation = 0;
    CUcontext ctx = nullptr;
    const cuda::DriverApi *api = nullptr;
    /// Set when the owning runtime is lost or abandoned: the task is dropped (leaked).
    std::shared_ptr<std::atomic<bool>> inert;
    std::function<void()> fn;
  };
  /// The most tasks queued (about 100 bytes each plus what they capture): past it a
  /// task is dropped and counted as leaked (the resource stays allocated, which is
  /// safe). Reached only while kernels keep the device busy for ever.
  static constexpr size_t kMaxQueued = size_t(1) << 16;
  /// The most tasks of one quiet section, and its time budget: launches wait at the
  /// gate meanwhile.
  static constexpr size_t kMaxQuietBatch = 64;
  static constexpr std::chrono::milliseconds kQuietBudget{5};

  static Reclaimer &instance();
  void post(Task task) noexcept;
  uint64_t queued() const noexcept { return queued_.load(); }
  uint64_t leaked() const noexcept { return leaked_.load(); }
  /// The process is exiting: nothing touches the driver any more.
  bool exiting() const noexcept;
  /// Test hook: a smaller queue limit (0 = kMaxQueued).
  void setLimitForTesting(size_t limit) noexcept { limit_.store(limit ? limit : kMaxQueued); }

private:
  Reclaimer() = default;
  void loop();
  bool dead(const Task &t) const noexcept;

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool started_ = false;
  std::atomic<uint64_t> queued_{0}, leaked_{0};
  std::atomic<size_t> limit_{kMaxQueued};
  /// Held by the thread across its driver calls; taken (bounded) at exit, after
  /// which `exiting_` keeps the thread away from the driver the process tears down.
  std::timed_mutex driver_;
  std::atomic<bool> exiting_{false};
  static void atExit();
};

} // namespace Atoll::detail
