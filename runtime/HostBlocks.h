// The page-locked host blocks of a runtime (Runtime::allocateHost): which addresses
// are the runtime's own (a copy to or from them is asynchronous), and the released
// blocks kept for reuse. Found by review (R3-F3): a released block must not be
// handed to the next caller while a transfer that named it may still run, or the
// next owner reads what another tenant's copy-to-host writes into it, or its data
// lands in another tenant's arena. So every transfer that names a block records an
// event after itself on its stream, and a block is reused only once all of its
// events have completed. Nothing here waits: the events are only queried.
//
// Found by review (R9-F2): the fence is recorded only after the transfer is
// enqueued, and a copy may wait (lock released) between deciding that its host range
// is a pinned block and the enqueue; a release plus reuse in that window handed the
// block to another owner before any fence named it. So a copy holds the block (a
// Use, taken under the mutex when it classifies the range) until its last fence is
// recorded: a held block is never handed out, released or not.
#pragma once

#include "cuda/DriverApi.h"

#include "atoll/error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace Atoll::detail {

class HostBlocks {
public:
  explicit HostBlocks(const cuda::DriverApi *api) : api_(api) {}
  HostBlocks(const HostBlocks &) = delete;
  HostBlocks &operator=(const HostBlocks &) = delete;

  /// A copy's hold on one block (review R9-F2): while any Use of a block exists, the
  /// block is not handed to another owner (reuse skips it), even once released.
  /// Movable; dropped on destruction or reset(). Its HostBlocks must outlive it.
  class Use {
  public:
    Use() = default;
    Use(Use &&other) noexcept : owner_(other.owner_), start_(other.start_) {
      other.owner_ = nullptr;
    }
    Use &operator=(Use &&other) noexcept;
    Use(const Use &) = delete;
    Use &operator=(const Use &) = delete;
    ~Use() { reset(); }
    explicit operator bool() const noexcept { return owner_ != nullptr; }
    void reset() noexcept;

  private:
    friend class HostBlocks;
    Use(HostBlocks *owner, uintptr_t start) : owner_(owner), start_(start) {}
    HostBlocks *owner_ = nullptr;
    uintptr_t start_ = 0;
  };

  /// What a copy's host range [p, p + bytes) is to the runtime.
  enum class Range : uint8_t {
    Foreign,   // overlaps no block of the runtime's: the caller's own (pageable) memory
    Pinned,    // inside one owned block: `use` holds it for the copy
    Released,  // overlaps a released block, which no caller owns: refused
    Straddles, // overlaps an owned block without lying inside it: refused
  };
  struct Classified {
    Range range = Range::Foreign;
    Use use{}; // set for Pinned
  };
  /// Classifies [p, p + bytes) (bytes > 0) under the mutex and, when it is Pinned,
  /// takes a Use of its block in the same step.
  Classified classify(const void *p, size_t bytes);
  /// True when the owner released the block that `use` holds since it was taken.
  bool released(const Use &use) const;
  /// A new block from cuMemAllocHost, now owned by a caller.
  void add(void *p, size_t bytes);
  /// A released block of at least `bytes`, zeroed, that no copy holds (Use) and
  /// whose transfers have all ended; null when there is none.
  void *reuse(size_t bytes);
  /// The owner dropped the block at p: kept for reuse (it stays the runtime's).
  void release(void *p);
  /// After a transfer naming the block that `use` holds was enqueued on `stream` by
  /// pipeline `pipeline`: records an event behind it (the block is reused only once
  /// it has completed). One event per pipeline and block: a later transfer of the
  /// same pipeline re-records it (its stream runs in order). Errors are the
  /// driver's; then the block is retired (never handed out again: a transfer that
  /// names it has no fence).
  CUresult noteTransfer(const Use &use, uint64_t pipeline, CUstream stream);
  /// Runtime teardown: hands every block's address to `freeBlock` and destroys the
  /// events (cuEventDestroy returns at once; a pending event is released later).
  void drain(const std::function<void(void *)> &freeBlock);

  struct Stats {
    size_t blocks = 0, released = 0, releasedBusy = 0, events = 0, held = 0, retired = 0;
  };
  Stats stats() const;

private:
  struct Fence {
    uint64_t pipeline;
    CUevent event;
  };
  struct Block {
    size_t bytes = 0;
    bool released = false;
    bool retired = false; // a transfer without a fence named it: never reused
    size_t uses = 0;      // copies holding it (Use)
    std::vector<Fence> fences{};
  };
  /// True when every transfer recorded on the block has completed.
  bool idle(const Block &b) const;

  const cuda::DriverApi *api_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, Block> blocks_;     // start -> block
  std::multimap<size_t, uintptr_t> free_; // released: bytes -> start
};

} // namespace Atoll::detail
