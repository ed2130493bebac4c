#include "ArenaPool.h"

#include "atoll/abi.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <thread>

namespace Atoll::detail {

Result<ArenaSpec> arenaSpecFor(uint64_t requested, bool roundToPow2, uint64_t granularity) {
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
    return ArenaSpec{size, true};
  }
  uint64_t size = (requested + ATOLL_BUFFER_ALIGNMENT - 1) & ~uint64_t(ATOLL_BUFFER_ALIGNMENT - 1);
  return ArenaSpec{size, false};
}

Result<ArenaPool::Lease> ArenaPool::acquire(const ArenaSpec &spec) {
  std::unique_lock lock(mutex_);
  collectLocked();
  // Arenas of just-destroyed pipelines stay committed until their stream drains
  // (usually microseconds: the scrub). Give them a short, bounded chance before
  // refusing admission.
  for (int i = 0; i < 50 && spec.size <= budget_ && stats_.committed > budget_ - spec.size &&
                  stats_.quarantinedArenas > 0;
       ++i) {
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    lock.lock();
    collectLocked();
  }
  if (spec.size > budget_ || stats_.committed > budget_ - spec.size)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("an arena of {} bytes does not fit the device-memory budget: {} "
                             "of {} bytes are committed",
                             spec.size, stats_.committed, budget_));
  // A pooled arena of the same shape: prefer one whose scrub has completed.
  auto pick = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->arena.spec() != spec || it->state == State::Quarantined)
      continue;
    if (it->state == State::Clean) {
      pick = it;
      break;
    }
    if (pick == entries_.end())
      pick = it;
  }
  if (pick != entries_.end()) {
    Lease lease{pick->arena, pick->state == State::Clean ? Source::PoolClean
                                                         : Source::PoolScrubbing};
    entries_.erase(pick);
    stats_.pooled -= spec.size;
    stats_.pooledArenas--;
    stats_.committed += spec.size;
    stats_.leasedArenas++;
    stats_.fromPool++;
    return lease;
  }
  // Fresh memory: make room by evicting pooled arenas (oldest first).
  for (size_t i = 0;
       i < entries_.size() && stats_.committed + stats_.pooled + spec.size > budget_;) {
    if (entries_[i].state == State::Quarantined) {
      ++i;
      continue;
    }
    size_t before = entries_.size();
    evictLocked(entries_.begin() + std::ptrdiff_t(i));
    if (entries_.size() == before)
      ++i; // quarantined in place
  }
  // Reserve the budget, allocate without the lock (allocation can take 100 us).
  stats_.committed += spec.size;
  stats_.leasedArenas++;
  lock.unlock();
  Result<Arena> arena = backend_.allocate(spec);
  lock.lock();
  if (!arena) {
    stats_.committed -= spec.size;
    stats_.leasedArenas--;
    return std::move(arena).error();
  }
  stats_.allocated++;
  return Lease{*arena, Source::Fresh};
}

void ArenaPool::evictLocked(std::deque<Entry>::iterator it) {
  // Scrubbing arenas only wait for their scrub (their stream was idle).
  if (it->state == State::Scrubbing &&
      !backend_.waitWorkDone(it->arena, std::chrono::milliseconds(1000))) {
    it->state = State::Quarantined; // unexpectedly slow: keep it out of reach
    stats_.pooled -= it->arena.size;
    stats_.pooledArenas--;
    stats_.committed += it->arena.size;
    stats_.quarantinedArenas++;
    return;
  }
  Arena arena = it->arena;
  stats_.pooled -= arena.size;
  stats_.pooledArenas--;
  entries_.erase(it);
  backend_.destroy(arena);
  stats_.freed++;
}

void ArenaPool::release(const Arena &arena, bool streamWasIdle) {
  std::lock_guard lock(mutex_);
  stats_.leasedArenas--;
  if (streamWasIdle) {
    stats_.committed -= arena.size;
    stats_.pooled += arena.size;
    stats_.pooledArenas++;
    entries_.push_back({arena, State::Scrubbing});
  } else {
    stats_.quarantinedArenas++;
    entries_.push_back({arena, State::Quarantined});
  }
  collectLocked();
}

void ArenaPool::abandon(const Arena &arena) {
  std::lock_guard lock(mutex_);
  stats_.leasedArenas--;
  stats_.leaked++;
}

void ArenaPool::cancel(const Lease &lease) {
  std::lock_guard lock(mutex_);
  stats_.leasedArenas--;
  stats_.committed -= lease.arena.size;
  if (lease.source == Source::Fresh || !pooling_) {
    Arena a = lease.arena;
    if (backend_.usable() && backend_.waitWorkDone(a, std::chrono::milliseconds(1000))) {
      backend_.destroy(a);
      stats_.freed++;
    } else {
      stats_.leaked++;
      stats_.committed += lease.arena.size;
    }
    return;
  }
  stats_.pooled += lease.arena.size;
  stats_.pooledArenas++;
  entries_.push_back({lease.arena, lease.source == Source::PoolClean ? State::Clean
                                                                     : State::Scrubbing});
}

size_t ArenaPool::collect() {
  std::lock_guard lock(mutex_);
  return collectLocked();
}

size_t ArenaPool::collectLocked() {
  if (!backend_.usable())
    return stats_.quarantinedArenas;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->state == State::Clean || !backend_.workDone(it->arena)) {
      ++it;
      continue;
    }
    if (it->state == State::Quarantined) {
      stats_.quarantinedArenas--;
      stats_.committed -= it->arena.size;
      stats_.pooled += it->arena.size;
      stats_.pooledArenas++;
    }
    it->state = State::Clean;
    it->arena.pinned.clear(); // its work has ended: modules may be unloaded
    if (!pooling_) {
      Arena arena = it->arena;
      stats_.pooled -= arena.size;
      stats_.pooledArenas--;
      it = entries_.erase(it);
      backend_.destroy(arena);
      stats_.freed++;
      continue;
    }
    ++it;
  }
  return stats_.quarantinedArenas;
}

void ArenaPool::trim() {
  std::lock_guard lock(mutex_);
  if (!backend_.usable())
    return;
  collectLocked();
  for (size_t i = 0; i < entries_.size();) {
    if (entries_[i].state == State::Quarantined) {
      ++i;
      continue;
    }
    size_t before = entries_.size();
    evictLocked(entries_.begin() + std::ptrdiff_t(i));
    if (entries_.size() == before)
      ++i; // quarantined in place
  }
}

void ArenaPool::shutdown(std::chrono::milliseconds drain) {
  auto deadline = std::chrono::steady_clock::now() + drain;
  while (true) {
    size_t left;
    {
      std::lock_guard lock(mutex_);
      if (!backend_.usable())
        return; // a lost context is reset/released as a whole
      left = collectLocked();
    }
    if (left == 0 || std::chrono::steady_clock::now() >= deadline)
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
