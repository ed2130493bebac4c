// The page-locked host blocks of a runtime (Runtime::allocateHost): which addresses
// are the runtime's own (a copy to or from them is asynchronous), and the released
// blocks kept for reuse. Found by review (R3-F3): a released block must not be
// handed to the next caller while a transfer that named it may still run, or the
// next owner reads what another tenant's copy-to-host writes into it, or its data
// lands in another tenant's arena. So every transfer that names a block records an
// event after itself on its stream, and a block is reused only once all of its
// events have completed. Nothing here waits: the events are only queried.
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

  /// True when [p, p + bytes) lies in one block handed out by allocateHost.
  bool contains(const void *p, size_t bytes) const;
  /// A new block from cuMemAllocHost, now owned by a caller.
  void add(void *p, size_t bytes);
  /// A released block of at least `bytes`, zeroed, whose transfers have all ended;
  /// null when there is none.
  void *reuse(size_t bytes);
  /// The owner dropped the block at p: kept for reuse (it stays the runtime's).
  void release(void *p);
  /// After a transfer naming [p, ...) was enqueued on `stream` by pipeline
  /// `pipeline`: records an event behind it (the block is reused only once it has
  /// completed). One event per pipeline and block: a later transfer of the same
  /// pipeline re-records it (its stream runs in order). Errors are the driver's.
  CUresult noteTransfer(const void *p, uint64_t pipeline, CUstream stream);
  /// Runtime teardown: hands every block's address to `freeBlock` and destroys the
  /// events (cuEventDestroy returns at once; a pending event is released later).
  void drain(const std::function<void(void *)> &freeBlock);

  struct Stats {
    size_t blocks = 0, released = 0, releasedBusy = 0, events = 0;
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
