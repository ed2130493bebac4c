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
// The rest of the device (RuntimeOptions::quotaSms): reserve() sets units aside for
// quota pipelines and makes one green context, the *remainder*, over every other
// unit and the split's leftover SMs; pipelines without a quota run their streams
// there, so none of their kernels runs on a quota pipeline's SMs, whatever quotas
// come and go. Admission then counts the reserved units only. Without a reserve,
// quota partitions come from the whole device and pipelines without a quota run on
// every SM.
//
// Devices or drivers without green contexts: supported() is false, quota requests
// answer Unsupported with the reason; everything else works as before (a reserve
// is ignored: pipelines without a quota run on the whole device).
#pragma once

#include "atoll/error.h"
#include "cuda/DriverApi.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace Atoll::detail {

struct RuntimeState;

struct PartitionStats {
  uint32_t sms = 0;       // SMs in units (0: unsupported)
  uint32_t committed = 0; // SMs of units held by live or draining partitions
  uint32_t remainder = 0; // SMs of the remainder (pipelines without a quota); 0: none
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

  /// Sets units of at least `sms` SMs (rounded up to the granularity) aside for quota
  /// pipelines and creates the remainder's green context over all the other SMs
  /// (on the loader thread, waited for at most `limit`). InvalidArgument when no
  /// units would be left for the remainder; Unsupported when the driver turns out
  /// not to run partitions (then nothing is reserved and everything runs as before).
  Status reserve(uint32_t sms, std::chrono::milliseconds limit);
  /// Where pipelines without a quota run: the remainder (a Lease with no partition:
  /// nothing to release) or, without a reserve, the whole device (green null).
  Lease remainder() const;

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
    bool remainder = false; // part of the remainder (never given to a quota)
  };
  void collectLocked() noexcept;
  void freeUnitsLocked(const Partition &p) noexcept;
  void destroyLater(CUgreenCtx green) noexcept;
  /// The loader task: creates the green context of `p` in a quiet section.
  void create(Partition *p);
  /// Posts the creation of `p` to the loader thread and waits for it at most `limit`
  /// (with `lock` on mutex_, released while waiting). Returns p's state afterwards.
  void createAndWait(std::unique_lock<std::mutex> &lock, Partition *p,
                     std::chrono::milliseconds limit);
  Lease leaseLocked(Partition &p, bool fromPool);

  RuntimeState &state_;
  const cuda::DriverApi *api_ = nullptr;
  CUdevice device_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::string unsupported_ = "SM partitions were not initialised";
  uint32_t deviceSms_ = 0, granularity_ = 1, minSms_ = 1;
  std::vector<Unit> units_;
  /// The split's leftover SMs too few for a unit (part of the remainder, if any).
  std::optional<CUdevResource> leftover_;
  Partition *remainder_ = nullptr; // the remainder's partition (owned by partitions_)
  std::vector<std::unique_ptr<Partition>> partitions_;
  bool probed_ = false; // the event capability check ran (first creation)
  uint64_t created_ = 0, fromPool_ = 0, clock_ = 0;
};

} // namespace Atoll::detail
