#include "HostBlocks.h"

#include <cstring>

namespace Atoll::detail {

bool HostBlocks::contains(const void *p, size_t bytes) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(mutex_);
  auto it = blocks_.upper_bound(a);
  if (it == blocks_.begin())
    return false;
  --it;
  return !it->second.released && a - it->first <= it->second.bytes &&
         bytes <= it->second.bytes - (a - it->first);
}

void HostBlocks::add(void *p, size_t bytes) {
  std::lock_guard lock(mutex_);
  blocks_[reinterpret_cast<uintptr_t>(p)] = Block{.bytes = bytes};
}

bool HostBlocks::idle(const Block &b) const {
  for (const Fence &f : b.fences)
    if (api_->cuEventQuery(f.event) != CUDA_SUCCESS) // NOT_READY, or an error: not idle
      return false;
  return true;
}

void *HostBlocks::reuse(size_t bytes) {
  std::lock_guard lock(mutex_);
  // The smallest released block that fits and whose transfers have ended.
  for (auto it = free_.lower_bound(bytes); it != free_.end(); ++it) {
    Block &b = blocks_.at(it->second);
    if (!idle(b))
      continue;
    void *p = reinterpret_cast<void *>(it->second);
    free_.erase(it);
    b.released = false;
    std::memset(p, 0, b.bytes); // no residue of the previous owner
    return p;
  }
  return nullptr;
}

void HostBlocks::release(void *p) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(reinterpret_cast<uintptr_t>(p));
  if (it == blocks_.end() || it->second.released)
    return;
  it->second.released = true;
  free_.emplace(it->second.bytes, it->first);
}

CUresult HostBlocks::noteTransfer(const void *p, uint64_t pipeline, CUstream stream) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(mutex_);
  auto it = blocks_.upper_bound(a);
  if (it == blocks_.begin())
    return CUDA_ERROR_INVALID_VALUE;
  Block &b = (--it)->second;
  // The pipeline's own event (its stream runs in order, so the new record covers
  // the older transfers too), else one whose transfers have ended, else a new one:
  // a block holds at most one pending event per pipeline that is using it.
  Fence *use = nullptr;
  for (Fence &f : b.fences)
    if (f.pipeline == pipeline)
      use = &f;
  if (!use)
    for (Fence &f : b.fences)
      if (api_->cuEventQuery(f.event) == CUDA_SUCCESS) {
        f.pipeline = pipeline;
        use = &f;
        break;
      }
  if (!use) {
    CUevent e = nullptr;
    if (CUresult r = api_->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS)
      return r;
    use = &b.fences.emplace_back(Fence{pipeline, e});
  }
  return api_->cuEventRecord(use->event, stream);
}

void HostBlocks::drain(const std::function<void(void *)> &freeBlock) {
  std::lock_guard lock(mutex_);
  for (auto &[a, b] : blocks_) {
    for (Fence &f : b.fences)
      api_->cuEventDestroy(f.event);
    freeBlock(reinterpret_cast<void *>(a));
  }
  blocks_.clear();
  free_.clear();
}

HostBlocks::Stats HostBlocks::stats() const {
  std::lock_guard lock(mutex_);
  Stats s;
  s.blocks = blocks_.size();
  for (auto &[a, b] : blocks_) {
    s.events += b.fences.size();
    if (b.released) {
      s.released++;
      if (!idle(b))
        s.releasedBusy++;
    }
  }
  return s;
}

} // namespace Atoll::detail
