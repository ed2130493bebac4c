// SM partitions: per-pipeline shares of the device's SMs on CUDA green contexts
// (PipelineOptions::smCount / smShare; docs/runtime-api.md, "SM partitions").
//
// At start the device's SMs are split once (cuDevSmResourceSplitByCount at the
// partition granularity: 15 groups of 8 SMs and a remainder of 12 on an H200) into
// disjoint *units*. A partition is a green context over one or more free units
// (cuDevResourceGenerateDesc accepts several outputs of the same split), so
// partitions of any granted size never share an SM. Admission: a request takes free
// units or is refused (CapacityExceeded); nothing is over-promised.
//
// Green contexts cost ~1 ms to create and may wait for running kernels like other
// context-level calls, so they are created only on the runtime's loader thread in a
// quiet section of the device (RuntimeOptions::partitionPool creates them at start)
// and pooled: a pipeline of the same quota takes an idle one without any driver call
// but its stream's. They are destroyed only on the reclaimer (quiet sections), when
// the runtime goes or when too many are idle. A partition whose pipeline left with
// work still running keeps its SMs committed until an event after that work has
// completed ("draining"), so a new tenant never shares SMs with a wedged kernel.
//
// Devices or drivers without green contexts: supported() is false, quota requests
// answer Unsupported with the reason; everything else works as before.
#pragma once

#include "atoll/error.h"
#include "cuda/DriverApi.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Atoll::detail {

struct RuntimeState;

struct PartitionStats {
  uint32_t sms = 0;       // SMs in units (0: unsupported)
  uint32_t committed = 0; // SMs of units held by live or draining partitions
  uint64_t live = 0, pooled = 0, draining = 0;
  uint64_t created = 0, fromPool = 0;
};

class PartitionManager {
public:
  /// The most green contexts kept at once (128 over the same SMs were measured to
  /// coexist on the H200), and the most idle ones kept for reuse.
  static constexpr size_t kMaxPartitions = 128;
  static constexpr size_t kMaxIdle = 32;

  struct Partition;
  /// A pipeline's hold on a partition (released with release()).
  struct Lease {
    Partition *partition = nullptr;
    CUgreenCtx green = nullptr;
    uint32_t sms = 0; // SMs granted (at least the rounded request)
    bool fromPool = false;
  };

  explicit PartitionManager(RuntimeState &state);
  ~PartitionManager();
  PartitionManager(const PartitionManager &) = delete;
  PartitionManager &operator=(const PartitionManager &) = delete;

  /// Queries the device's SMs and splits them into units (returns at once; no green
  /// context is created). A device or driver without green contexts records why.
  void init(const cuda::DriverApi &api, CUdevice device);
  bool supported() const;
  /// Why quota requests are Unsupported (empty when supported).
  std::string unsupportedReason() const;
  /// SMs of the whole device (for smShare).
  uint32_t deviceSms() const;

  /// The quota of a pipeline in SMs (0: none). InvalidArgument for malformed
  /// options, Unsupported when quotas cannot be honoured here.
  Result<uint32_t> quotaFor(uint32_t smCount, double smShare) const;
  /// The SMs a request for `sms` is rounded up to (granularity, minimum).
  uint32_t rounded(uint32_t sms) const;

  /// A partition of at least `sms` SMs on units no other partition holds: a pooled
  /// one of the same size (no driver call), else a new one created on the loader
  /// thread in a quiet section; waits for that at most `limit` (Timeout: the
  /// creation goes on and its partition joins the pool). CapacityExceeded when the
  /// free units cannot hold it.
  Result<Lease> acquire(uint32_t sms, std::chrono::milliseconds limit);
  /// Gives the partition back. `done` null: its units are free at once; otherwise
  /// they stay committed until the event (recorded after the pipeline's last work)
  /// has completed, and the event is then destroyed.
  void release(const Lease &lease, CUevent done) noexcept;
  /// Creates partitions of these sizes (all at once, on disjoint units) and pools
  /// them; what does not fit is skipped. Returns how many were created.
  size_t prewarm(const std::vector<uint32_t> &sizes, std::chrono::milliseconds limit);
  PartitionStats stats();
  /// Runtime teardown (no pipeline is left): every green context is destroyed on
  /// the reclaimer (after the streams; dropped when the runtime is lost or
  /// abandoned), draining events destroyed.
  void shutdown() noexcept;

private:
  struct Unit {
    CUdevResource resource;
    uint32_t sms = 0;
    bool used = false;
  };
  void collectLocked() noexcept;
  void freeUnitsLocked(const Partition &p) noexcept;
  void destroyLater(CUgreenCtx green) noexcept;
  /// The loader task: creates the green context of `p` in a quiet section.
  void create(Partition *p);
  Lease leaseLocked(Partition &p, bool fromPool);

  RuntimeState &state_;
  const cuda::DriverApi *api_ = nullptr;
  CUdevice device_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::string unsupported_ = "SM partitions were not initialised";
  uint32_t deviceSms_ = 0, granularity_ = 1, minSms_ = 1;
  std::vector<Unit> units_;
  std::vector<std::unique_ptr<Partition>> partitions_;
  bool probed_ = false; // the event capability check ran (first creation)
  uint64_t created_ = 0, fromPool_ = 0, clock_ = 0;
};

} // namespace Atoll::detail
