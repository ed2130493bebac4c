// Pipeline: one tenant's isolated execution context in the shared CUDA context: its
// own non-blocking CUDA stream and its own device arena. Buffers are regions of the
// arena; copies, fills and launches are validated before they reach the driver.
//
// Thread-safety: every method may be called from any thread (an internal mutex
// serialises them), but a Pipeline is meant for one tenant thread: calls from
// several threads are safe, their order is whatever order they take the mutex in.
// Destroying a Pipeline while another thread is inside one of its methods is a bug
// of the caller.
//
// Errors name the pipeline ("pipeline 'tenant-a': ..."). After a sticky driver
// error every call returns ContextLost. A Timeout cancels the work (cancelOnTimeout,
// the default); if it does not end within cancelDeadline, or without cancelOnTimeout,
// the pipeline is "wedged": calls that would queue work return Timeout until its
// earlier work has finished.
//
// Host-memory lifetime: synchronous copies (copyToDevice, copyToHost, ...) are done
// when they return. The *Async variants only enqueue: the host memory must stay
// valid (and, for copies to the device, unchanged) until synchronize() returns OK.
// With pageable host memory the driver may complete a copy before returning anyway;
// for that case the runtime first waits (bounded by the timeout) for earlier work on
// the pipeline, so no call can block forever behind a tenant's kernel. Use
// Runtime::allocateHost for truly asynchronous transfers. If synchronize() times
// out, keep the memory of pending async copies alive until wedged() is false.
#pragma once

#include "atoll/application.h"
#include "atoll/buffer.h"
#include "atoll/error.h"
#include "atoll/launch.h"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <span>
#include <string>
#include <string_view>

namespace Atoll {

namespace detail {
class PipelineImpl;
struct RuntimeState;
} // namespace detail

struct PipelineOptions {
  /// Arena size. A power of two up to ATOLL_MAX_MASK_ARENA_BYTES (4 GiB; rounded up
  /// to at least ATOLL_MIN_ARENA_BYTES) gives a mask-capable arena, aligned to its
  /// size, that runs applications of either clamping mode. Any other size, and any
  /// size above 4 GiB, gives a modulo-only arena of exactly that size (rounded up to
  /// ATOLL_BUFFER_ALIGNMENT), which runs only applications loaded with
  /// Clamping::ModuloBased; unless roundToPowerOfTwo is set (and the rounded size
  /// is at most 4 GiB).
  uint64_t arenaBytes = 64ull << 20;
  /// Round a non-power-of-two arenaBytes up to the next power of two (mask-capable).
  bool roundToPowerOfTwo = false;
  /// How long synchronize() (and the synchronous copies) wait for the pipeline's
  /// work; 0 = the largest timeout of the applications launched since the last
  /// synchronisation, or the runtime's default.
  std::chrono::milliseconds timeout{0};
  /// Tenant name used in every message; default "pipeline-<id>".
  std::string name;
  /// Measure GPU time (two events per synchronised batch of work).
  bool gpuTiming = true;
  /// When synchronize() times out, cancel the work (every kernel leaves at its next
  /// preemption check) instead of leaving it running (wedged). false keeps the
  /// cooperative behaviour of earlier versions (only an explicit cancel() stops
  /// work). Destroying the pipeline cancels its work either way: nothing else
  /// could cancel it afterwards.
  bool cancelOnTimeout = true;
  /// How long cancel() (and a cancelling timeout) waits for the work to end.
  std::chrono::milliseconds cancelDeadline{1000};
  /// The most live buffers (allocate() past it: CapacityExceeded). Each costs the
  /// service about 75 bytes of host memory for its bookkeeping; 0: 1,048,576.
  uint64_t maxBuffers = 0;
  /// SM quota (docs/runtime-api.md, "SM partitions"): the pipeline's kernels run on
  /// a partition of the device's SMs of its own (a CUDA green context), rounded up
  /// to the device's partition granularity (8 SMs on an H200). 0: no quota, the
  /// pipeline runs on the rest of the device (RuntimeOptions::quotaSms) or, without
  /// SMs set aside, on the whole device. Admission: the SMs of every partitioned
  /// pipeline together fit the device (the SMs set aside), else CapacityExceeded; a
  /// device or driver without green contexts answers Unsupported.
  uint32_t smCount = 0;
  /// The quota as a share of the device's SMs, in (0, 1] (rounded up to whole SMs);
  /// 0: none. Set at most one of smCount and smShare.
  double smShare = 0;
};

struct PipelineStats {
  uint64_t arenaBytes = 0;
  bool arenaFromPool = false;     // the arena was recycled (and scrubbed) from the pool
  bool streamFromPool = false;    // its stream was an ended pipeline's (RuntimeStats)
  uint64_t bytesAllocated = 0;    // current, in ATOLL_BUFFER_ALIGNMENT-rounded blocks
  uint64_t peakBytesAllocated = 0;
  uint64_t liveBuffers = 0;
  uint64_t launches = 0;
  uint64_t copiesToDevice = 0, bytesToDevice = 0;
  uint64_t copiesToHost = 0, bytesToHost = 0;
  uint64_t copiesDeviceToDevice = 0, bytesDeviceToDevice = 0;
  uint64_t fills = 0, bytesFilled = 0;
  uint64_t synchronizations = 0, timeouts = 0;
  uint64_t cancellations = 0;  // cancel() calls and cancelling timeouts that had work
  uint64_t fuelExhausted = 0;  // batches that reported FuelExhausted
  uint64_t watchdogCancels = 0; // busy periods cancelled by the runtime's watchdog
  uint32_t partitionSms = 0;   // SMs its kernels run on (partition or rest); 0: the whole device
  /// Accumulated GPU time of completed work: per synchronised batch, from the start
  /// of its first operation to the end of its last (events; ~0.5 us resolution).
  std::chrono::nanoseconds gpuTime{0};
};

class Pipeline {
public:
  /// Never throws and never blocks on tenant work: the arena is scrubbed on the
  /// pipeline's own stream and goes back to the pool; if work is still running
  /// (a wedged pipeline), the arena is quarantined until that work has ended.
  ~Pipeline();
  Pipeline(const Pipeline &) = delete;
  Pipeline &operator=(const Pipeline &) = delete;

  uint64_t id() const noexcept;
  const std::string &name() const noexcept;
  uint64_t arenaBytes() const noexcept;
  /// Device address of the arena (for diagnostics; kernels get it as a hidden param).
  uint64_t arenaBase() const noexcept;
  /// MaskBased when the arena is a size-aligned power of two (runs both modes).
  Clamping arenaMode() const noexcept;
  bool supports(Clamping mode) const noexcept;
  std::chrono::milliseconds timeout() const noexcept;
  /// SMs its kernels run on: its partition (PipelineOptions::smCount) or, without a
  /// quota, the rest of the device (RuntimeOptions::quotaSms); 0: the whole device.
  uint32_t partitionSms() const noexcept;
  /// True after a Timeout until the pipeline's earlier work has finished.
  bool wedged() const;
  PipelineStats stats() const;

  // --- buffers -----------------------------------------------------------------
  /// A region of at least `bytes` bytes, ATOLL_BUFFER_ALIGNMENT-aligned. Its contents
  /// are whatever this tenant last wrote there (zero for a fresh arena).
  /// ArenaExhausted when no free block is large enough.
  Result<Buffer> allocate(uint64_t bytes);
  /// InvalidArgument for a buffer of another pipeline, a freed one or a forged one.
  Status free(const Buffer &buffer);
  /// Device address of buffer + offset (for diagnostics and tests).
  Result<uint64_t> deviceAddress(const Buffer &buffer, uint64_t offset = 0) const;

  // --- copies ----------------------------------------------------------------------
  // Every range is checked against the buffer and the arena (overflow-safe); a bad
  // range is OutOfArena and nothing is copied.
  Status copyToDevice(const Buffer &dst, uint64_t dstOffset, const void *src, uint64_t bytes);
  Status copyToHost(void *dst, const Buffer &src, uint64_t srcOffset, uint64_t bytes);
  /// Within this pipeline only; the two ranges must not overlap.
  Status copyDeviceToDevice(const Buffer &dst, uint64_t dstOffset, const Buffer &src,
                            uint64_t srcOffset, uint64_t bytes);
  Status fill(const Buffer &dst, uint64_t offset, uint64_t bytes, uint8_t value);

  Status copyToDeviceAsync(const Buffer &dst, uint64_t dstOffset, const void *src,
                           uint64_t bytes);
  Status copyToHostAsync(void *dst, const Buffer &src, uint64_t srcOffset, uint64_t bytes);
  Status copyDeviceToDeviceAsync(const Buffer &dst, uint64_t dstOffset, const Buffer &src,
                                 uint64_t srcOffset, uint64_t bytes);
  Status fillAsync(const Buffer &dst, uint64_t offset, uint64_t bytes, uint8_t value);

  /// Typed conveniences over contiguous ranges of trivially copyable elements.
  template <std::ranges::contiguous_range R>
    requires std::is_trivially_copyable_v<std::ranges::range_value_t<R>>
  Status copyToDevice(const Buffer &dst, const R &src, uint64_t dstOffset = 0) {
    return copyToDevice(dst, dstOffset, std::ranges::data(src),
                        std::ranges::size(src) * sizeof(std::ranges::range_value_t<R>));
  }
  template <std::ranges::contiguous_range R>
    requires std::is_trivially_copyable_v<std::ranges::range_value_t<R>>
  Status copyToHost(R &&dst, const Buffer &src, uint64_t srcOffset = 0) {
    return copyToHost(std::ranges::data(dst), src, srcOffset,
                      std::ranges::size(dst) * sizeof(std::ranges::range_value_t<R>));
  }

  // --- launches --------------------------------------------------------------------
  /// Validates the arguments against the kernel's signature and the shape against
  /// the device and kernel limits, appends the hidden arena parameters and enqueues
  /// the kernel on the pipeline's stream. A mismatch is InvalidLaunch naming the
  /// parameter; nothing is launched.
  Status launch(const Kernel &kernel, const LaunchConfig &config, std::span<const Arg> args);
  Status launch(const Kernel &kernel, const LaunchConfig &config,
                std::initializer_list<Arg> args) {
    return launch(kernel, config, std::span<const Arg>(args.begin(), args.size()));
  }
  /// By kernel name (a short linear search over the application's kernels).
  Status launch(const Application &app, std::string_view kernel, const LaunchConfig &config,
                std::span<const Arg> args);
  Status launch(const Application &app, std::string_view kernel, const LaunchConfig &config,
                std::initializer_list<Arg> args) {
    return launch(app, kernel, config, std::span<const Arg>(args.begin(), args.size()));
  }
  /// Variadic: every argument goes through Arg::from (Buffer, integers, float,
  /// double, bool, nullptr, Arg).
  template <LaunchArgument... Ts>
  Status launch(const Kernel &kernel, const LaunchConfig &config, const Ts &...args) {
    if constexpr (sizeof...(Ts) == 0) {
      return launch(kernel, config, std::span<const Arg>());
    } else {
      const Arg list[] = {Arg::from(args)...};
      return launch(kernel, config, std::span<const Arg>(list));
    }
  }
  template <LaunchArgument... Ts>
  Status launch(const Application &app, std::string_view kernel, const LaunchConfig &config,
                const Ts &...args) {
    if constexpr (sizeof...(Ts) == 0) {
      return launch(app, kernel, config, std::span<const Arg>());
    } else {
      const Arg list[] = {Arg::from(args)...};
      return launch(app, kernel, config, std::span<const Arg>(list));
    }
  }

  // --- completion --------------------------------------------------------------------
  /// Waits for all work enqueued so far, at most timeout(). Timeout names the
  /// pipeline and marks it wedged; other pipelines are not affected.
  Status synchronize();
  /// True when all enqueued work has finished (does not wait).
  Result<bool> idle();
  /// Ends all work enqueued so far: every kernel thread leaves at its next preemption
  /// check (a loop back edge; a thread without loops ends anyway), copies finish.
  /// Returns OK once the work has ended (also when there was none), Timeout when it is
  /// still running after `deadline` (0: PipelineOptions::cancelDeadline; the pipeline
  /// is wedged then). A synchronize() waiting concurrently returns Cancelled. The
  /// pipeline stays usable: its control block is reset before the next launch; its
  /// buffers keep whatever the cancelled kernels wrote (partial results).
  Status cancel(std::chrono::milliseconds deadline = std::chrono::milliseconds(0));

  /// Internal.
  explicit Pipeline(std::unique_ptr<detail::PipelineImpl> impl);

private:
  std::unique_ptr<detail::PipelineImpl> impl_;
};

} // namespace Atoll
