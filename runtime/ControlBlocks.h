// The runtime's control blocks (abi.h atoll_control_block): one slot per pipeline in a
// single runtime-owned device allocation that is never part of any arena (so no
// tenant access can reach it), and the runtime's own non-blocking stream on which
// cancel words are set without waiting behind any tenant's stream.
#pragma once

#include "atoll/error.h"
#include "cuda/DriverApi.h"

#include <mutex>
#include <utility>
#include <vector>

namespace Atoll::detail {

struct RuntimeState;

class ControlBlocks {
public:
  static constexpr uint32_t kSlots = 16384; // 512 KiB of control blocks

  explicit ControlBlocks(RuntimeState &state) : state_(state) {}
  ControlBlocks(const ControlBlocks &) = delete;
  ControlBlocks &operator=(const ControlBlocks &) = delete;

  /// A slot's device address (allocating the block and the stream on first use).
  /// The caller zeroes it on its own stream before the first launch.
  /// CapacityExceeded when every slot is taken.
  Result<uint64_t> acquire();
  /// idle: no kernel can still read the slot, so it is reused; otherwise it is
  /// never handed out again (32 bytes; a cancelled kernel may still be leaving).
  void release(uint64_t slot, bool idle) noexcept;
  /// A slot whose kernels or writes may still run: reused once `done` (recorded
  /// after all of its pipeline's work) and `controlDone` (recorded on the control
  /// stream after every cancel set for it; null: none) have completed, polled by
  /// acquire(); the events are then destroyed. Lost or shut down first: dropped
  /// with the context.
  void quarantine(uint64_t slot, CUevent done, CUevent controlDone = nullptr) noexcept;
  /// Slots quarantined now (tests).
  size_t quarantined() const;
  /// The runtime's control stream (valid after a successful acquire).
  CUstream stream() const noexcept { return stream_; }
  /// Frees the device memory and the stream (context current, no work running).
  void shutdown() noexcept;

private:
  RuntimeState &state_;
  mutable std::mutex mutex_;
  CUdeviceptr base_ = 0;
  CUstream stream_ = nullptr;
  uint32_t next_ = 0;
  std::vector<uint32_t> free_;
  struct Quarantined {
    uint32_t slot;
    CUevent done, controlDone;
  };
  std::vector<Quarantined> quarantined_;
  /// Moves quarantined slots whose work has ended to free_ (cuEventQuery, at once).
  void collectLocked() noexcept;
};

} // namespace Atoll::detail
