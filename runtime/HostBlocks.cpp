#include "HostBlocks.h"

#include <cstring>
#include <iterator>

namespace Atoll::detail {

HostBlocks::Use &HostBlocks::Use::operator=(Use &&other) noexcept {
  if (this != &other) {
    reset();
    owner_ = other.owner_;
    start_ = other.start_;
    other.owner_ = nullptr;
  }
  return *this;
}

void HostBlocks::Use::reset() noexcept {
  if (!owner_)
    return;
  std::lock_guard lock(owner_->mutex_);
  if (auto it = owner_->blocks_.find(start_); it != owner_->blocks_.end() && it->second.uses)
    it->second.uses--;
  owner_ = nullptr;
}

HostBlocks::Classified HostBlocks::classify(const void *p, size_t bytes) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  // One past the range's last byte, saturated (a range that wraps reaches the top).
  const uintptr_t end = bytes > UINTPTR_MAX - a ? UINTPTR_MAX : a + bytes;
  std::lock_guard lock(mutex_);
  // The block that starts at or before `a`, then those that start inside the range:
  // the first one the range overlaps decides (blocks never overlap each other).
  auto it = blocks_.upper_bound(a);
  if (it != blocks_.begin()) {
    auto prev = std::prev(it);
    if (a - prev->first < prev->second.bytes)
      it = prev;
  }
  if (it == blocks_.end() || it->first >= end)
    return {}; // Foreign: no block of the runtime's is concerned
  Block &b = it->second;
  if (b.released)
    return {.range = Range::Released};
  if (it->first > a || end - it->first > b.bytes)
    return {.range = Range::Straddles};
  b.uses++;
  return {.range = Range::Pinned, .use = Use(this, it->first)};
}

bool HostBlocks::released(const Use &use) const {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(use.start_);
  return it == blocks_.end() || it->second.released;
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
  // The smallest released block that fits, that no copy holds (review R9-F2: a copy
  // that took it before the release may not have recorded its fence yet) and whose
  // transfers have ended.
  for (auto it = free_.lower_bound(bytes); it != free_.end(); ++it) {
    Block &b = blocks_.at(it->second);
    if (b.uses || b.retired || !idle(b))
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

CUresult HostBlocks::noteTransfer(const Use &u, uint64_t pipeline, CUstream stream) {
  std::lock_guard lock(mutex_);
  auto it = u.owner_ == this ? blocks_.find(u.start_) : blocks_.end();
  if (it == blocks_.end())
    return CUDA_ERROR_INVALID_VALUE;
  Block &b = it->second;
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
    if (CUresult r = api_->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS) {
      b.retired = true; // the transfer has no fence: nothing says when it ends
      return r;
    }
    use = &b.fences.emplace_back(Fence{pipeline, e});
  }
  CUresult r = api_->cuEventRecord(use->event, stream);
  if (r != CUDA_SUCCESS)
    b.retired = true;
  return r;
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
    s.held += b.uses != 0;
    s.retired += b.retired;
    if (b.released) {
      s.released++;
      if (!idle(b))
        s.releasedBusy++;
    }
  }
  return s;
}

} // namespace Atoll::detail
