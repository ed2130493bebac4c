// Pipeline lanes; see Lanes.h.
#include "Lanes.h"

#include "RuntimeState.h"

#include <algorithm>

namespace Atoll::detail {

std::optional<Lane> LanePool::take(CUgreenCtx green) noexcept {
  // Deny by default (review R8-F2): a pooled lane is handed out only when its stream
  // is idle now. A lane whose stream still runs (the last owner's arena scrub, the
  // runtime's own bounded work: put() admits nothing else) stays parked for a later
  // take; one whose query fails is disposed of. Newest first, at most kMaxPerContext
  // queries.
  const cuda::DriverApi &api = *state_.api;
  std::vector<Lane> broken;
  std::optional<Lane> found;
  {
    std::lock_guard lock(mutex_);
    for (Pool &p : pools_) {
      if (p.green != green)
        continue;
      for (size_t i = p.lanes.size(); i-- > 0;) {
        const CUresult q = api.cuStreamQuery(p.lanes[i].stream);
        if (q == CUDA_ERROR_NOT_READY)
          continue;
        if (q != CUDA_SUCCESS) {
          try {
            broken.push_back(p.lanes[i]);
          } catch (...) {
            continue; // stays pooled; looked at again by the next take
          }
          p.lanes.erase(p.lanes.begin() + ptrdiff_t(i));
          continue;
        }
        found = p.lanes[i];
        p.lanes.erase(p.lanes.begin() + ptrdiff_t(i));
        reused_.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      break;
    }
  }
  for (const Lane &l : broken)
    dispose(l);
  return found;
}

bool LanePool::put(CUgreenCtx green, const Lane &lane) noexcept {
  if (!lane.stream || !lane.cancelEvent || !lane.control)
    return false;
  // The caller saw the stream idle before its arena scrub (review R8-F2); take()
  // checks again.
  std::lock_guard lock(mutex_);
  try {
    auto it = std::find_if(pools_.begin(), pools_.end(),
                           [&](const Pool &p) { return p.green == green; });
    if (it == pools_.end()) {
      pools_.push_back({green, {}});
      it = pools_.end() - 1;
      it->lanes.reserve(kMaxPerContext);
    }
    if (it->lanes.size() >= kMaxPerContext)
      return false;
    it->lanes.push_back(lane); // reserved: never allocates
    return true;
  } catch (...) {
    return false;
  }
}

void LanePool::drop(CUgreenCtx green) noexcept {
  std::vector<Lane> lanes;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(pools_.begin(), pools_.end(),
                           [&](const Pool &p) { return p.green == green; });
    if (it == pools_.end())
      return;
    lanes.swap(it->lanes);
    pools_.erase(it);
  }
  for (const Lane &l : lanes)
    dispose(l);
}

void LanePool::dispose(const Lane &l) noexcept {
  const cuda::DriverApi &api = *state_.api;
  DeviceActivity &device = DeviceActivity::of(state_.info.ordinal);
  if (!l.stream) {
    if (l.control) // nothing was ever queued for it
      state_.controls.release(l.control, true);
  } else {
    const CUresult q = api.cuStreamQuery(l.stream);
    if (l.control) {
      CUevent done = nullptr;
      if (q == CUDA_SUCCESS) {
        state_.controls.release(l.control, true);
      } else if (q == CUDA_ERROR_NOT_READY &&
                 api.cuEventCreate(&done, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
                 api.cuEventRecord(done, l.stream) == CUDA_SUCCESS) {
        // Writes to it may still be queued on the stream: reused once they landed.
        state_.controls.quarantine(l.control, done);
      } else {
        if (done)
          api.cuEventDestroy(done);
        state_.controls.release(l.control, false); // never reused
      }
    }
    if (q == CUDA_SUCCESS) {
      device.removeStream(l.stream);
      api.cuStreamDestroy(l.stream);
    } else {
      device.retireStream(l.stream); // destroyed by the quiet check that finds it idle
    }
  }
  if (l.cancelEvent)
    api.cuEventDestroy(l.cancelEvent);
}

void LanePool::shutdown(bool usable) noexcept {
  std::vector<Pool> pools;
  {
    std::lock_guard lock(mutex_);
    pools.swap(pools_);
  }
  for (const Pool &p : pools)
    for (const Lane &l : p.lanes) {
      if (usable)
        dispose(l);
      else
        DeviceActivity::of(state_.info.ordinal).retireStream(l.stream);
    }
}

size_t LanePool::pooled() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const Pool &p : pools_)
    n += p.lanes.size();
  return n;
}

} // namespace Atoll::detail
