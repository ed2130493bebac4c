// Arenas and their pool: sizing, capacity admission, recycling and quarantine.
//
// The pool logic is pure C++ over an ArenaBackend (the CUDA one is in Arena.cpp; the
// unit tests use a fake), so that the rules are tested without a GPU:
//  - admission: arenas held by pipelines plus quarantined ones ("committed") never
//    exceed the budget; pooled arenas are evicted to make room for fresh ones.
//  - scrub before reuse: a released arena comes with its scrub already enqueued on
//    its pipeline's stream, after all of that pipeline's work, and an event recorded
//    after it. An arena whose stream was otherwise idle is reusable at once (the new
//    stream waits for the event); one whose stream was still busy (a wedged kernel)
//    is quarantined until the event has completed, and never freed before that.
//  - fresh arenas are scrubbed by the pipeline on its own stream before any work.
// Thread-safe (one mutex). Nothing waits with the mutex held: the backend is only
// asked non-blocking questions (workDone, usable) under it; allocate() and destroy()
// run after it is released (destroy() itself never waits: VMM unmaps return at once,
// cuMemFree is handed to the reclaim thread). Budget: committed + pooled bytes (each
// arena counted at its real device footprint) never exceed the budget.
#pragma once

#include "atoll/error.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>
#include <mutex>

namespace Atoll::detail {

struct ArenaSpec {
  uint64_t size = 0;
  bool maskCapable = false; // power of two, base aligned to size
  /// Device memory the arena really holds (VMM granularity, or twice the size for
  /// an aligned non-VMM mask arena); 0 = size. What the budget counts.
  uint64_t footprint = 0;
  uint64_t bytes() const { return footprint ? footprint : size; }
  friend bool operator==(const ArenaSpec &, const ArenaSpec &) = default;
};

/// The arena a request gets: a power-of-two request (or any request with
/// roundToPow2) becomes a mask-capable arena of max(bit_ceil(request), granularity,
/// ATOLL_MIN_ARENA_BYTES) bytes; anything else a modulo-only arena of the request
/// rounded up to ATOLL_BUFFER_ALIGNMENT. InvalidArgument for 0 or absurd sizes.
/// The footprint: with VMM the size rounded up to the granularity; without VMM a
/// mask arena is over-allocated twice its size to align it inside.
Result<ArenaSpec> arenaSpecFor(uint64_t requested, bool roundToPow2, uint64_t granularity,
                               bool vmm = true);

struct Arena {
  uint64_t base = 0;
  uint64_t size = 0;
  bool maskCapable = false;
  uint64_t footprint = 0; // see ArenaSpec
  // Backend data: the VMM reservation (0 when allocated with cuMemAlloc) and the
  // event recorded after the scrub.
  uint64_t reservation = 0;
  uint64_t reservationSize = 0;
  bool vmm = false;     // mapped with the VMM API (else cuMemAlloc)
  void *event = nullptr;
  uint64_t serial = 0; // unique per allocation (tests, diagnostics)
  /// Kept alive while the arena's work may still run (the modules of a wedged
  /// pipeline's kernels); dropped when the arena's event completes.
  std::vector<std::shared_ptr<const void>> pinned;
  ArenaSpec spec() const { return {size, maskCapable, footprint}; }
  uint64_t bytes() const { return footprint ? footprint : size; }
};

class ArenaBackend {
public:
  virtual ~ArenaBackend() = default;
  /// Device memory for the spec (not scrubbed yet) plus its event.
  virtual Result<Arena> allocate(const ArenaSpec &spec) = 0;
  /// Frees the memory. Called only once all work on the arena has completed, never
  /// with the pool's mutex held; must not wait for device work.
  virtual void destroy(Arena &arena) noexcept = 0;
  /// The arena's event (its scrub, after all earlier work of its stream) has
  /// completed. Does not wait.
  virtual bool workDone(const Arena &arena) noexcept = 0;
  /// False once the context is lost: then nothing may be touched or freed.
  virtual bool usable() noexcept = 0;
};

struct ArenaPoolStats {
  uint64_t budget = 0;
  uint64_t committed = 0;  // leased + quarantined (+ leaked)
  uint64_t pooled = 0;
  uint64_t pooledArenas = 0;
  uint64_t quarantinedArenas = 0;
  uint64_t leasedArenas = 0;
  uint64_t fromPool = 0;
  uint64_t allocated = 0;
  uint64_t freed = 0;
  uint64_t leaked = 0;
};

class ArenaPool {
public:
  ArenaPool(ArenaBackend &backend, uint64_t budget, bool pooling)
      : backend_(backend), budget_(budget), pooling_(pooling) {}

  enum class Source : uint8_t {
    Fresh,         // new memory: the caller must scrub it before any tenant work
    PoolClean,     // scrubbed and complete
    PoolScrubbing, // scrub enqueued: the caller's stream must wait for arena.event
  };
  struct Lease {
    Arena arena;
    Source source = Source::Fresh;
  };

  /// CapacityExceeded (naming requested, committed and budget) when the arena does
  /// not fit the budget, also after evicting every clean pooled arena and giving
  /// scrubbing/quarantined ones a short bounded chance (without the lock) to end;
  /// the backend's error when allocation fails.
  Result<Lease> acquire(const ArenaSpec &spec);
  /// Gives an arena back. Its scrub and event must have been enqueued after all of
  /// its pipeline's work; streamWasIdle: nothing else was pending at that point.
  void release(const Arena &arena, bool streamWasIdle);
  /// The arena could not be scrubbed (or its work cannot be tracked): it is never
  /// reused nor freed (it stays committed).
  void abandon(const Arena &arena);
  /// Returns a lease that never reached a tenant (e.g. stream creation failed after
  /// acquire). Its event must have been recorded after anything enqueued on it (or
  /// nothing was): a fresh arena is freed once the event completes, a pooled one
  /// goes back to the pool. Never waits.
  void cancel(const Lease &lease);
  /// Quarantined arenas whose work has ended join the pool. Returns how many stay.
  size_t collect();
  /// Frees every pooled arena whose scrub has completed.
  void trim();
  /// At teardown: waits up to `drain` (polling, without the lock) for quarantined
  /// and scrubbing arenas, then frees all it may.
  void shutdown(std::chrono::milliseconds drain);
  ArenaPoolStats stats() const;

private:
  // Doomed: a cancelled fresh arena, freed (never pooled) once its event completes.
  enum class State : uint8_t { Scrubbing, Clean, Quarantined, Doomed };
  struct Entry {
    Arena arena;
    State state;
  };
  /// Arenas to free and references to drop once the mutex is released.
  struct Garbage {
    std::vector<Arena> arenas;
    std::vector<std::shared_ptr<const void>> pinned;
  };
  size_t collectLocked(Garbage &garbage);
  /// Moves the clean pooled arena at `it` to `garbage` (freed after the lock is
  /// released) and returns the next entry.
  std::deque<Entry>::iterator evictLocked(std::deque<Entry>::iterator it, Garbage &garbage);
  /// Frees the garbage; the mutex must not be held.
  void dispose(Garbage &garbage) noexcept;
  /// Bytes of arenas that are not clean yet (scrubbing, quarantined, doomed).
  uint64_t pendingBytesLocked() const;

  ArenaBackend &backend_;
  const uint64_t budget_;
  const bool pooling_;
  mutable std::mutex mutex_;
  std::deque<Entry> entries_; // pooled and quarantined, oldest first
  ArenaPoolStats stats_;
};

} // namespace Atoll::detail
