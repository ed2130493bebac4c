// Pipeline lanes: a pipeline's stream, its cancel event and its control-block slot,
// kept together and reused by the next pipeline of the same context (the primary
// context, the rest of the device or one partition's green context).
//
// Why: creating a stream (cuStreamCreate, cuGreenCtxStreamCreate) takes microseconds,
// a large share of createPipeline, and so does creating an event; a lane from the
// pool costs neither (the bench's step profile, bench/src/Partition.cpp, shows it).
//
// The rule (review R5-F5 for the slot, R8-F2 for the stream): a lane is pooled only
// when its stream was seen idle (cuStreamQuery == CUDA_SUCCESS, not "no kernel was
// launched": a tenant's queued copies and fills would run ahead of the next owner's
// work and count against its timeout) and the control stream is idle (every cancel
// set for the slot has landed). The only work queued after that check is the
// runtime's own: the last owner's arena scrub (one fill of its arena). take() hands
// out a lane only when its stream is idle again; a lane still running that scrub is
// parked (left in the pool, skipped: it ends on its own, and retiring it would cost
// the next create its stream), a lane whose query fails is disposed of. The next
// owner zeroes the slot on that stream before its first launch: the slot's words
// never reach another tenant's kernel. Nothing else travels with a lane (timing
// events, the watchdog's entry and the arena are per pipeline).
//
// A lane's stream is registered with DeviceActivity for as long as the lane exists
// (a pooled stream counts as idle for quiet sections once its queued copies end).
#pragma once

#include "cuda/DriverApi.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace Atoll::detail {

struct RuntimeState;

struct Lane {
  CUstream stream = nullptr;
  CUevent cancelEvent = nullptr; // recorded on the control stream after a cancel set
  uint64_t control = 0;          // the control block's device address (0: none)
};

class LanePool {
public:
  /// Lanes kept per context; more are disposed of.
  static constexpr size_t kMaxPerContext = 32;

  explicit LanePool(RuntimeState &state) : state_(state) {}
  LanePool(const LanePool &) = delete;
  LanePool &operator=(const LanePool &) = delete;

  /// A pooled lane of `green` (nullptr: the primary context) whose stream is idle
  /// now, if any (busy ones stay parked; failing ones are disposed of). Context
  /// current.
  std::optional<Lane> take(CUgreenCtx green) noexcept;
  /// Pools a lane of `green` that follows the rule above; false when the context's
  /// pool is full (the caller disposes of the lane).
  bool put(CUgreenCtx green, const Lane &lane) noexcept;
  /// Disposes of every pooled lane of `green`: before that green context is
  /// destroyed (its streams are destroyed first, by the quiet check). Context current.
  void drop(CUgreenCtx green) noexcept;
  /// Gives back a lane (fields may be null: a lane partly made): its slot reused
  /// when its stream is idle, else quarantined behind an event on it; its stream
  /// destroyed when idle, else retired (DeviceActivity); its event destroyed. Only a
  /// lane no kernel can still use (the rule above). Context current.
  void dispose(const Lane &lane) noexcept;
  /// Runtime teardown. `usable`: the context is current and not lost, every pooled
  /// lane is disposed of; otherwise their streams are retired without a driver call
  /// (a reset context frees them).
  void shutdown(bool usable) noexcept;

  /// Lanes pooled now, and pipelines that took a pooled lane so far.
  size_t pooled() const;
  uint64_t reused() const noexcept { return reused_.load(std::memory_order_relaxed); }

private:
  struct Pool {
    CUgreenCtx green;
    std::vector<Lane> lanes;
  };
  RuntimeState &state_;
  mutable std::mutex mutex_;
  std::vector<Pool> pools_;
  std::atomic<uint64_t> reused_{0};
};

} // namespace Atoll::detail
