// The buffer allocator inside one arena: best-fit over a free list kept in two
// ordered indexes (by offset, to coalesce neighbours; by size, to find the best
// fit), ATOLL_BUFFER_ALIGNMENT-aligned blocks. Pure C++ (no CUDA): unit-tested
// on its own. Not thread-safe: the owning pipeline's mutex guards it.
#pragma once

#include "atoll/error.h"

#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace Atoll::detail {

class BlockAllocator {
public:
  struct Block {
    uint64_t offset = 0;
    uint64_t size = 0;     // as requested
    uint64_t reserved = 0; // size rounded up to the alignment
    uint64_t id = 0;
  };

  /// Manages [0, capacity) rounded down to the alignment (a power of two).
  explicit BlockAllocator(uint64_t capacity, uint64_t alignment = 256);

  /// Best fit; InvalidArgument for 0 bytes or sizes beyond the capacity,
  /// ArenaExhausted when no free block is large enough.
  Result<Block> allocate(uint64_t bytes);
  /// InvalidArgument when (offset, id) is not a live block (double free, stale or
  /// forged handle). Coalesces with free neighbours.
  Status free(uint64_t offset, uint64_t id);
  /// The live block at offset with that id, or nullptr.
  const Block *find(uint64_t offset, uint64_t id) const noexcept;
  /// Frees everything (ids keep increasing).
  void reset();

  uint64_t capacity() const noexcept { return capacity_; }
  uint64_t alignment() const noexcept { return alignment_; }
  uint64_t usedBytes() const noexcept { return used_; }
  uint64_t peakBytes() const noexcept { return peak_; }
  uint64_t freeBytes() const noexcept { return capacity_ - used_; }
  uint64_t liveBlocks() const noexcept { return live_.size(); }
  uint64_t freeBlocks() const noexcept { return byOffset_.size(); }
  uint64_t largestFreeBlock() const noexcept;

  /// Internal consistency (free list covers exactly what is not allocated, no two
  /// free neighbours); for tests.
  bool checkInvariants() const;

private:
  void insertFree(uint64_t offset, uint64_t size);
  void eraseFree(std::map<uint64_t, uint64_t>::iterator it);

  uint64_t capacity_;
  uint64_t alignment_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
  uint64_t nextId_ = 1;
  std::map<uint64_t, uint64_t> byOffset_;           // free: offset -> size
  std::set<std::pair<uint64_t, uint64_t>> bySize_;  // free: (size, offset)
  std::unordered_map<uint64_t, Block> live_;        // offset -> block
};

} // namespace Atoll::detail
