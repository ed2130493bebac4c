// Control-block slots and the control stream; see ControlBlocks.h.
#include "ControlBlocks.h"

#include "RuntimeState.h"
#include "atoll/abi.h"

namespace Atoll::detail {

Result<uint64_t> ControlBlocks::acquire() {
  std::lock_guard lock(mutex_);
  const cuda::DriverApi &api = *state_.api;
  if (!base_) {
    // cuMemAlloc (not an arena, not VMM-mapped into one): returns at once even while
    // kernels run (measured), and is 256-byte aligned.
    CUdeviceptr p = 0;
    if (CUresult r = api.cuMemAlloc(&p, size_t(kSlots) * ATOLL_CONTROL_BLOCK_BYTES);
        r != CUDA_SUCCESS)
      return state_.fail(r, "allocating the control blocks");
    CUstream s = nullptr;
    if (CUresult r = api.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS) {
      // cuMemFree waits for every running kernel of the context: reclaim thread.
      state_.reclaim([api = state_.api, p] { api->cuMemFree(p); });
      return state_.fail(r, "creating the control stream");
    }
    try {
      free_.reserve(kSlots); // collectLocked (noexcept) never allocates
    } catch (...) {
      state_.api->cuStreamDestroy(s);
      state_.reclaim([api = state_.api, p] { api->cuMemFree(p); });
      return Error(ErrorCode::CapacityExceeded, "allocating the control blocks: out of host memory");
    }
    base_ = p;
    stream_ = s;
  }
  uint32_t slot;
  if (free_.empty())
    collectLocked();
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else if (next_ < kSlots) {
    slot = next_++;
  } else {
    return Error(ErrorCode::CapacityExceeded, "every pipeline control block is in use");
  }
  return uint64_t(base_) + uint64_t(slot) * ATOLL_CONTROL_BLOCK_BYTES;
}

void ControlBlocks::release(uint64_t addr, bool idle) noexcept {
  if (!idle)
    return;
  std::lock_guard lock(mutex_);
  if (base_ && addr >= base_)
    free_.push_back(uint32_t((addr - base_) / ATOLL_CONTROL_BLOCK_BYTES));
}

void ControlBlocks::quarantine(uint64_t addr, CUevent done, CUevent controlDone) noexcept {
  std::lock_guard lock(mutex_);
  try {
    if (base_ && addr >= base_) {
      quarantined_.push_back(
          {uint32_t((addr - base_) / ATOLL_CONTROL_BLOCK_BYTES), done, controlDone});
      return;
    }
  } catch (...) {
  }
  state_.api->cuEventDestroy(done); // no memory: the slot is dropped (never reused)
  if (controlDone)
    state_.api->cuEventDestroy(controlDone);
}

size_t ControlBlocks::quarantined() const {
  std::lock_guard lock(mutex_);
  return quarantined_.size();
}

void ControlBlocks::collectLocked() noexcept {
  const cuda::DriverApi &api = *state_.api;
  for (auto it = quarantined_.begin(); it != quarantined_.end();) {
    // Running (or lost: kept), on either stream.
    if (api.cuEventQuery(it->done) != CUDA_SUCCESS ||
        (it->controlDone && api.cuEventQuery(it->controlDone) != CUDA_SUCCESS)) {
      ++it;
      continue;
    }
    api.cuEventDestroy(it->done);
    if (it->controlDone)
      api.cuEventDestroy(it->controlDone);
    free_.push_back(it->slot);
    it = quarantined_.erase(it);
  }
}

void ControlBlocks::shutdown() noexcept {
  std::lock_guard lock(mutex_);
  for (const Quarantined &q : quarantined_) {
    state_.api->cuEventDestroy(q.done);
    if (q.controlDone)
      state_.api->cuEventDestroy(q.controlDone);
  }
  quarantined_.clear();
  if (stream_)
    state_.api->cuStreamDestroy(stream_);
  // cuMemFree waits for every running kernel of the context: reclaim thread.
  if (base_)
    state_.reclaim([api = state_.api, p = base_] { api->cuMemFree(p); });
  stream_ = nullptr;
  base_ = 0;
  free_.clear();
  next_ = 0;
}

} // namespace Atoll::detail
