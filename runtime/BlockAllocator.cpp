#include "BlockAllocator.h"

#include <fmt/format.h>

namespace Atoll::detail {

BlockAllocator::BlockAllocator(uint64_t capacity, uint64_t alignment)
    : capacity_(capacity & ~(alignment - 1)), alignment_(alignment) {
  reset();
}

void BlockAllocator::reset() {
  byOffset_.clear();
  bySize_.clear();
  live_.clear();
  used_ = 0;
  if (capacity_ > 0)
    insertFree(0, capacity_);
}

void BlockAllocator::insertFree(uint64_t offset, uint64_t size) {
  byOffset_.emplace(offset, size);
  bySize_.emplace(size, offset);
}

void BlockAllocator::eraseFree(std::map<uint64_t, uint64_t>::iterator it) {
  bySize_.erase({it->second, it->first});
  byOffset_.erase(it);
}

uint64_t BlockAllocator::largestFreeBlock() const noexcept {
  return bySize_.empty() ? 0 : bySize_.rbegin()->first;
}

Result<BlockAllocator::Block> BlockAllocator::allocate(uint64_t bytes) {
  if (bytes == 0)
    return Error(ErrorCode::InvalidArgument, "cannot allocate a buffer of 0 bytes");
  if (bytes > capacity_)
    return Error(ErrorCode::ArenaExhausted,
                 fmt::format("a buffer of {} bytes is larger than the arena ({} bytes)",
                             bytes, capacity_));
  uint64_t reserved = (bytes + alignment_ - 1) & ~(alignment_ - 1); // no overflow: bytes <= capacity_
  auto fit = bySize_.lower_bound({reserved, 0});
  if (fit == bySize_.end())
    return Error(ErrorCode::ArenaExhausted,
                 fmt::format("no free block of {} bytes in the arena ({} of {} bytes free in "
                             "{} blocks, the largest {} bytes)",
                             reserved, freeBytes(), capacity_, freeBlocks(),
                             largestFreeBlock()));
  auto [blockSize, offset] = *fit;
  eraseFree(byOffset_.find(offset));
  if (blockSize > reserved)
    insertFree(offset + reserved, blockSize - reserved);
  Block b{offset, bytes, reserved, nextId_++};
  live_.emplace(offset, b);
  used_ += reserved;
  if (used_ > peak_)
    peak_ = used_;
  return b;
}

Status BlockAllocator::free(uint64_t offset, uint64_t id) {
  auto it = live_.find(offset);
  if (it == live_.end() || it->second.id != id)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("buffer {} at offset {} is not allocated (freed twice, stale or "
                             "not from this pipeline)",
                             id, offset));
  uint64_t start = offset, size = it->second.reserved;
  used_ -= size;
  live_.erase(it);
  // Coalesce with the free neighbours.
  auto next = byOffset_.lower_bound(start);
  if (next != byOffset_.end() && next->first == start + size) {
    size += next->second;
    auto victim = next++;
    eraseFree(victim);
  }
  if (next != byOffset_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      eraseFree(prev);
    }
  }
  insertFree(start, size);
  return {};
}

const BlockAllocator::Block *BlockAllocator::find(uint64_t offset, uint64_t id) const noexcept {
  auto it = live_.find(offset);
  if (it == live_.end() || it->second.id != id)
    return nullptr;
  return &it->second;
}

bool BlockAllocator::checkInvariants() const {
  if (byOffset_.size() != bySize_.size())
    return false;
  std::map<uint64_t, uint64_t> all(byOffset_);
  for (const auto &[off, b] : live_) {
    if (off % alignment_ != 0 || b.reserved % alignment_ != 0 || b.reserved < b.size)
      return false;
    if (!all.emplace(off, b.reserved).second)
      return false;
  }
  uint64_t expect = 0, usedSum = 0;
  for (const auto &[off, size] : all) {
    if (off != expect || size == 0)
      return false;
    expect = off + size;
  }
  for (const auto &[off, b] : live_)
    usedSum += b.reserved;
  if (expect != capacity_ || usedSum != used_)
    return false;
  // No two free blocks are adjacent (they would have been coalesced).
  uint64_t prevEnd = UINT64_MAX;
  for (const auto &[off, size] : byOffset_) {
    if (off == prevEnd)
      return false;
    if (!bySize_.count({size, off}))
      return false;
    prevEnd = off + size;
  }
  return true;
}

} // namespace Atoll::detail
