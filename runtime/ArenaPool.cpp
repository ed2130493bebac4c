#include "ArenaPool.h"
#include "Deadline.h"

#include "atoll/abi.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <thread>

namespace Atoll::detail {

Result<ArenaSpec> arenaSpecFor(uint64_t requested, bool roundToPow2, uint64_t granularity,
                               bool vmm) {
  constexpr uint64_t kMax = 1ull << 52; // 4 PiB: beyond any device
  if (requested == 0)
    return Error(ErrorCode::InvalidArgument, "an arena of 0 bytes was requested");
  if (requested > kMax)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("an arena of {} bytes was requested (more than any device has)",
                             requested));
  // Mask-mode offsets are 32-bit: a larger arena is modulo-only, of exactly the
  // requested size.
  if ((std::has_single_bit(requested) || roundToPow2) &&
      std::bit_ceil(requested) <= ATOLL_MAX_MASK_ARENA_BYTES) {
    uint64_t size = std::bit_ceil(requested);
    size = std::max<uint64_t>(size, ATOLL_MIN_ARENA_BYTES);
    if (granularity > 1)
      size = std::max<uint64_t>(size, std::bit_ceil(granularity));
    // Without VMM the base is aligned inside an allocation of twice the size.
    return ArenaSpec{size, true, vmm ? size : size * 2};
  }
  uint64_t size = (requested + ATOLL_BUFFER_ALIGNMENT - 1) & ~uint64_t(ATOLL_BUFFER_ALIGNMENT - 1);
  uint64_t footprint = size;
  if (vmm && granularity > 1)
    footprint = (size + granularity - 1) / granularity * granularity;
  return ArenaSpec{size, false, footprint};
}

void ArenaPool::dispose(Garbage &g) noexcept {
  for (Arena &a : g.arenas)
    backend_.destroy(a);
  g.arenas.clear();
  g.pinned.clear(); // may drop the last reference to a module: its unload is queued
}

uint64_t ArenaPool::pendingBytesLocked() const {
  uint64_t n = 0;
  for (const Entry &e : entries_)
    if (e.state != State::Clean)
      n += e.arena.bytes();
  return n;
}

Result<ArenaPool::Lease> ArenaPool::acquire(const ArenaSpec &spec) {
  const uint64_t need = spec.bytes();
  Garbage garbage;
  std::unique_lock lock(mutex_);
  auto refuse = [&] {
    Error e(ErrorCode::CapacityExceeded,
            fmt::format("an arena of {} bytes ({} bytes of device memory) does not fit the "
                        "device-memory budget: {} of {} bytes are committed ({} quarantined "
                        "arenas), {} pooled",
                        spec.size, need, stats_.committed, budget_, stats_.quarantinedArenas,
                        stats_.pooled));
    lock.unlock();
    dispose(garbage);
    return e;
  };
  if (need > budget_)
    return refuse();
  // Arenas of just-destroyed pipelines stay committed (or pooled but not yet clean)
  // until their stream drains (usually microseconds: the scrub). Give them a short,
  // bounded chance, polling without the lock, before refusing admission.
  for (int attempt = 0;; ++attempt) {
    collectLocked(garbage);
    // A pooled arena of the same shape: prefer one whose scrub has completed.
    auto pick = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->arena.spec() != spec ||
          (it->state != State::Clean && it->state != State::Scrubbing))
        continue;
      if (it->state == State::Clean) {
        pick = it;
        break;
      }
      if (pick == entries_.end())
        pick = it;
    }
    if (pick != entries_.end() && stats_.committed + need <= budget_) {
      Lease lease{pick->arena, pick->state == State::Clean ? Source::PoolClean
                                                           : Source::PoolScrubbing};
      entries_.erase(pick);
      stats_.pooled -= need;
      stats_.pooledArenas--;
      stats_.committed += need;
      stats_.leasedArenas++;
      stats_.fromPool++;
      lock.unlock();
      dispose(garbage);
      return lease;
    }
    // Fresh memory: make room by evicting clean pooled arenas (oldest first). Only
    // clean ones: nothing waits here for a scrub.
    for (auto it = entries_.begin();
         it != entries_.end() && stats_.committed + stats_.pooled + need > budget_;) {
      if (it->state != State::Clean) {
        ++it;
        continue;
      }
      it = evictLocked(it, garbage);
    }
    // The budget is checked after eviction, against everything still held.
    if (stats_.committed + stats_.pooled + need <= budget_)
      break;
    // Waiting helps only if what is still scrubbing or quarantined would make room.
    if (attempt >= 50 ||
        stats_.committed + stats_.pooled + need - pendingBytesLocked() > budget_)
      return refuse();
    lock.unlock();
    dispose(garbage);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    lock.lock();
  }
  // Reserve the budget, allocate without the lock (allocation can take 100 us).
  stats_.committed += need;
  stats_.leasedArenas++;
  lock.unlock();
  dispose(garbage);
  Result<Arena> arena = backend_.allocate(spec);
  lock.lock();
  if (!arena) {
    stats_.committed -= need;
    stats_.leasedArenas--;
    return std::move(arena).error();
  }
  stats_.allocated++;
  return Lease{*arena, Source::Fresh};
}

void ArenaPool::release(const Arena &arena, bool streamWasIdle) {
  Garbage garbage;
  {
    std::lock_guard lock(mutex_);
    stats_.leasedArenas--;
    if (streamWasIdle) {
      stats_.committed -= arena.bytes();
      stats_.pooled += arena.bytes();
      stats_.pooledArenas++;
      entries_.push_back({arena, State::Scrubbing});
    } else {
      stats_.quarantinedArenas++;
      entries_.push_back({arena, State::Quarantined});
    }
    collectLocked(garbage);
  }
  dispose(garbage);
}

void ArenaPool::abandon(const Arena &) {
  std::lock_guard lock(mutex_);
  stats_.leasedArenas--;
  stats_.leaked++;
}

void ArenaPool::cancel(const Lease &lease) {
  Garbage garbage;
  {
    std::lock_guard lock(mutex_);
    stats_.leasedArenas--;
    if (lease.source == Source::Fresh || !pooling_) {
      // Unscrubbed (fresh) memory never joins the pool: freed once its event is done.
      entries_.push_back({lease.arena, State::Doomed});
    } else {
      stats_.committed -= lease.arena.bytes();
      stats_.pooled += lease.arena.bytes();
      stats_.pooledArenas++;
      entries_.push_back({lease.arena, lease.source == Source::PoolClean ? State::Clean
                                                                         : State::Scrubbing});
    }
    collectLocked(garbage);
  }
  dispose(garbage);
}

size_t ArenaPool::collect() {
  Garbage garbage;
  size_t left;
  {
    std::lock_guard lock(mutex_);
    left = collectLocked(garbage);
  }
  dispose(garbage);
  return left;
}

size_t ArenaPool::collectLocked(Garbage &garbage) {
  if (!backend_.usable())
    return stats_.quarantinedArenas;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->state == State::Clean || !backend_.workDone(it->arena)) {
      ++it;
      continue;
    }
    for (auto &p : it->arena.pinned) // its work has ended: modules may be unloaded
      garbage.pinned.push_back(std::move(p));
    it->arena.pinned.clear();
    if (it->state == State::Doomed) {
      stats_.committed -= it->arena.bytes();
      stats_.freed++;
      garbage.arenas.push_back(std::move(it->arena));
      it = entries_.erase(it);
      continue;
    }
    if (it->state == State::Quarantined) {
      stats_.quarantinedArenas--;
      stats_.committed -= it->arena.bytes();
      stats_.pooled += it->arena.bytes();
      stats_.pooledArenas++;
    }
    it->state = State::Clean;
    if (!pooling_) {
      it = evictLocked(it, garbage);
      continue;
    }
    ++it;
  }
  return stats_.quarantinedArenas;
}

std::deque<ArenaPool::Entry>::iterator ArenaPool::evictLocked(std::deque<Entry>::iterator it,
                                                             Garbage &garbage) {
  stats_.pooled -= it->arena.bytes();
  stats_.pooledArenas--;
  stats_.freed++;
  garbage.arenas.push_back(std::move(it->arena));
  return entries_.erase(it);
}

void ArenaPool::trim() {
  Garbage garbage;
  {
    std::lock_guard lock(mutex_);
    if (!backend_.usable())
      return;
    collectLocked(garbage);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->state != State::Clean) {
        ++it;
        continue;
      }
      it = evictLocked(it, garbage);
    }
  }
  dispose(garbage);
}

void ArenaPool::shutdown(std::chrono::milliseconds drain) {
  const auto deadline = deadlineAfter(std::chrono::steady_clock::now(), drain); // saturated
  while (true) {
    Garbage garbage;
    bool pending;
    {
      std::lock_guard lock(mutex_);
      if (!backend_.usable())
        return; // a lost context is reset/released as a whole
      collectLocked(garbage);
      pending = pendingBytesLocked() > 0;
    }
    dispose(garbage);
    if (!pending || std::chrono::steady_clock::now() >= deadline)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  trim();
}

ArenaPoolStats ArenaPool::stats() const {
  std::lock_guard lock(mutex_);
  ArenaPoolStats s = stats_;
  s.budget = budget_;
  return s;
}

} // namespace Atoll::detail
