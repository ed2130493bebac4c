// The state of one pipeline: its stream, arena lease, buffer allocator, batch and
// accounting. Every member after `mutex` is guarded by it.
#pragma once

#include "BlockAllocator.h"
#include "DeviceActivity.h"
#include "Lanes.h"
#include "RuntimeState.h"
#include "Validation.h"
#include "Watchdog.h"

#include "atoll/pipeline.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Atoll::detail {

class PipelineImpl {
public:
  PipelineImpl(std::shared_ptr<RuntimeState> state, uint64_t id, std::string name,
               const PipelineOptions &opts, ArenaPool::Lease lease, Lane lane,
               bool laneFromPool, CUevent start, CUevent end,
               PartitionManager::Lease partition);
  ~PipelineImpl();

  const std::shared_ptr<RuntimeState> state;
  const uint64_t id;
  const std::string name;
  const std::string prefix; // "pipeline 'name'"
  const std::chrono::milliseconds configuredTimeout; // 0 = dynamic
  const bool gpuTiming;
  const ArenaPool::Source arenaSource;
  const bool laneFromPool; // stream, cancel event and slot reused (Lanes.h)
  Arena arena;
  const CUstream stream;
  const CUevent startEvent, endEvent;
  const uint64_t control;      // device address of the control block (abi.h)
  const CUevent cancelEvent;   // recorded on the control stream after a cancel set
  const bool cancelOnTimeout;
  const std::chrono::milliseconds cancelDeadline;
  static constexpr uint64_t kDefaultMaxBuffers = uint64_t(1) << 20;
  const uint64_t maxBuffers; // live buffers (host bookkeeping per buffer, review R3-F7)
  /// The SM partition the stream belongs to (a green context's stream); empty: the
  /// whole device.
  const PartitionManager::Lease partition;

  mutable std::mutex mutex;
  BlockAllocator allocator;
  bool wedged = false;
  bool startRecorded = false;
  uint64_t enqueued = 0;  // operations enqueued so far
  uint64_t completed = 0; // all operations up to this one are known complete
  /// Bytes of copies and fills enqueued since the stream was last known idle (at most
  /// RuntimeOptions::maxQueuedCopyBytes; 0 whenever completed == enqueued).
  uint64_t queuedBytes = 0;
  uint64_t endRecordedAt = ~uint64_t(0); // `enqueued` when endEvent was last recorded
  std::chrono::milliseconds batchAppTimeout{0};
  std::vector<std::shared_ptr<const LoadedModule>> batchModules; // pinned until complete
  PipelineStats counters;
  uint64_t cancelEpoch = 0;   // bumped by every cancel: a wait that sees it change was cancelled
  uint64_t fuelWritten = 0;   // the control block's fuel word as last enqueued
  bool batchUsedFuel = false; // read the status word when the batch completes
  bool statusDirty = false;   // clear the status word before the next launch
  /// The watchdog's view of this pipeline (Watchdog.h); set by createPipeline.
  std::shared_ptr<WatchedStream> watch;

  using Lock = std::unique_lock<std::mutex>;

  ArenaView view() const noexcept { return {id, arena.base, arena.size, &allocator, control}; }
  Error named(Error e) const { return std::move(e.within(prefix)); }
  std::chrono::milliseconds effectiveTimeout() const noexcept;
  /// The longest busy period the watchdog allows (PipelineWatchdog.cpp): the
  /// timeout (at most RuntimeOptions::maxBusyTime) with cancelOnTimeout, else
  /// maxBusyTime. Published to the watchdog whenever the timeout may change.
  std::chrono::milliseconds watchdogLimit() const noexcept;
  void publishWatchdogLimit() noexcept;
  /// The stream was seen at rest: the watchdog's busy period ends.
  void noteRest() noexcept;
  /// If the watchdog cancelled this pipeline's work: queues the control block's
  /// reset after its set (the pipeline is usable again) and returns the Timeout that
  /// reports it; else OK.
  Status takeWatchdogCancel(Lock &lock);

  /// Before enqueueing work: ContextLost / Timeout (still wedged); makes the context
  /// current.
  Status usable(Lock &lock);
  /// After enqueueing work: timing start, batch bookkeeping.
  Status beginBatch();
  void noteEnqueued() noexcept { ++enqueued; }
  /// Waits (bounded by the timeout, polling without the lock) until everything
  /// enqueued before the call has completed. Timeout cancels the work (or marks the
  /// pipeline wedged). A `callerDeadline` earlier than the timeout cuts the wait
  /// short: then Timeout means only "not yet" (nothing cancelled, not wedged).
  Status waitIdle(Lock &lock, bool countAsSync,
                  std::chrono::steady_clock::time_point callerDeadline =
                      std::chrono::steady_clock::time_point::max());
  /// The most operations kept queued on the stream. The driver's queue is finite
  /// (about a thousand launches); an enqueue on a full queue blocks until the GPU has
  /// drained some, i.e. it waits for tenant kernels, here under the pipeline lock.
  /// Far below that limit, so that no enqueue ever waits (launches add at most 4
  /// operations, a cancel 1, past the check).
  static constexpr uint64_t kMaxQueued = 128;
  /// Waits, bounded by the timeout plus the cancel deadline, until at most
  /// `maxQueued` operations are queued (0: the stream is idle) with the lock held
  /// since that was known. `recheck` (if any) validates the request again after
  /// each wait (the lock was released). Work cancelled by another thread meanwhile
  /// is no error here: the wait goes on. `what` names the call in a Timeout.
  struct CopyRequest;
  Status waitForRoom(Lock &lock, uint64_t maxQueued, std::string_view what,
                     const CopyRequest *recheck = nullptr);
  /// Sets the cancel word from the runtime's control stream (never queued behind this
  /// pipeline's stream) and queues the control block's reset on this pipeline's
  /// stream after the set has landed: every kernel queued before the reset leaves at
  /// its next check, every kernel launched later runs normally.
  Status requestCancel(Lock &lock);
  /// Polls (without the lock) until the stream is idle or `deadline`: true when idle.
  /// Yields for the first `spin`, then sleeps with backoff.
  Result<bool> waitStream(Lock &lock, std::chrono::steady_clock::time_point deadline,
                          std::chrono::microseconds spin = std::chrono::microseconds(100));
  /// Queries the stream (no waiting): true when idle; finishes the batch then.
  Result<bool> pollIdle(Lock &lock);

  Status launch(const Application &app, uint32_t kernelIndex, const LaunchConfig &config,
                std::span<const Arg> args);

  enum class CopyKind : uint8_t { ToDevice, ToHost, DeviceToDevice, Fill };
  // Buffers by value: the caller's handles are read once, on entry (another thread
  // could change them while the lock is released).
  // `kind` and `device` have no default: every request names them (GCC's
  // -Wmissing-field-initializers says so when one does not); the rest have one.
  struct CopyRequest {
    CopyKind kind;
    Buffer device; // the destination, or the source of ToHost
    uint64_t deviceOffset = 0;
    Buffer src{}; // DeviceToDevice source
    uint64_t srcOffset = 0;
    const void *hostSrc = nullptr;
    void *hostDst = nullptr;
    uint64_t bytes = 0;
    uint8_t value = 0;
    bool async = false;
  };
  Status copy(const CopyRequest &request);

  /// The buffers and ranges of a copy, against the current allocator state.
  Status checkCopy(const CopyRequest &request) const;
  /// Marks everything up to `upTo` complete (batch accounting).
  void finishBatch(uint64_t upTo);
};

/// Test hook: when set, createPipeline throws std::bad_alloc right after the arena
/// lease (tests that nothing leaks and no exception crosses the API).
extern std::atomic<bool> failCreatePipelineAfterLease;

/// Bench hook (bench/src/Partition.cpp): while profileCreatePipeline is set, every
/// createPipeline that succeeds adds how long each of its steps took (steady clock,
/// with the real driver) to createProfile(), and every teardown its duration.
enum class CreateStep : uint8_t {
  Checks,    // the context made current, option checks, the arena's shape, the quota
  Partition, // PartitionManager::acquire (a pooled partition) or the rest of the device
  Arena,     // ArenaPool::acquire
  Lane,      // a pooled lane, or a new one (slot, stream, cancel event)
  Reset,     // the control block's zeroing (cuMemsetD32Async)
  Events,    // timing events (PipelineOptions::gpuTiming)
  Scrub,     // a fresh arena's scrub, or the wait for a pooled one's
  Impl,      // the PipelineImpl
  Watch,     // the watchdog's entry and the Pipeline
  Count
};
const char *createStepName(CreateStep s) noexcept;
struct CreateSample {
  uint32_t ns[size_t(CreateStep::Count)] = {};
  bool laneReused = false;
};
struct CreateProfile {
  std::mutex mutex;
  std::vector<CreateSample> creates;
  std::vector<uint32_t> teardownNs;
};
extern std::atomic<bool> profileCreatePipeline;
CreateProfile &createProfile();

/// Creates the stream and events, leases and prepares the arena (scrub of fresh
/// memory, or a wait for the pooled arena's scrub). Exception-safe: if anything
/// throws after the lease, the stream, events and lease are released first.
Result<std::unique_ptr<Pipeline>> createPipeline(const std::shared_ptr<RuntimeState> &state,
                                                 const PipelineOptions &opts);

} // namespace Atoll::detail
