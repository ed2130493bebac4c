// Arena sizing, the pool and capacity admission over a fake backend (no GPU): reuse
// of released arenas, scrub-before-reuse states, quarantine of arenas whose work is
// still running (never reused, never freed before it ends), budget admission and
// eviction, and concurrent use.
#include "ArenaPool.h"

#include "atoll/abi.h"

#include <gtest/gtest.h>

#include <future>

#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace Atoll::detail;

namespace {

constexpr uint64_t MiB = 1ull << 20;

/// Arenas are numbers; "work done" is a flag per arena the test controls.
class FakeBackend : public ArenaBackend {
public:
  Result<Arena> allocate(const ArenaSpec &spec) override {
    std::lock_guard lock(mutex);
    if (failNext) {
      failNext = false;
      return Error(ErrorCode::CapacityExceeded, "the device has no memory left (fake)");
    }
    Arena a;
    a.size = spec.size;
    a.maskCapable = spec.maskCapable;
    a.footprint = spec.footprint;
    a.serial = ++serial;
    a.base = (nextBase + spec.size - 1) & ~(spec.size - 1);
    nextBase = a.base + spec.size;
    a.event = reinterpret_cast<void *>(a.serial);
    live.insert(a.serial);
    done[a.serial] = true;
    return a;
  }
  void destroy(Arena &a) noexcept override {
    if (probe) {
      // The pool's mutex must be free while arenas are destroyed (destroy may be a
      // driver call): another thread can take it.
      auto f = std::async(std::launch::async, [&] { return probe->stats(); });
      EXPECT_EQ(f.wait_for(std::chrono::seconds(2)), std::future_status::ready)
          << "destroy() ran with the pool's mutex held";
      f.wait();
    }
    std::lock_guard lock(mutex);
    EXPECT_TRUE(done[a.serial]) << "arena " << a.serial << " freed while its work runs";
    EXPECT_TRUE(live.erase(a.serial)) << "arena " << a.serial << " freed twice";
    destroyed.push_back(a.serial);
  }
  bool workDone(const Arena &a) noexcept override {
    std::lock_guard lock(mutex);
    return done[a.serial];
  }
  bool usable() noexcept override { return usableFlag; }

  void setDone(uint64_t serial, bool d) {
    std::lock_guard lock(mutex);
    done[serial] = d;
  }

  std::mutex mutex;
  uint64_t serial = 0;
  uint64_t nextBase = 1ull << 40;
  std::set<uint64_t> live;
  std::map<uint64_t, bool> done;
  std::vector<uint64_t> destroyed;
  bool failNext = false;
  bool usableFlag = true;
  ArenaPool *probe = nullptr;
};

ArenaSpec mask(uint64_t size) { return {size, true}; }

} // namespace

TEST(ArenaSpec, PowersOfTwoAreMaskCapableAndAtLeastTheMinimum) {
  auto s = arenaSpecFor(64 * MiB, false, 2 * MiB);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size, 64 * MiB);
  EXPECT_TRUE(s->maskCapable);
  s = arenaSpecFor(1 * MiB, false, 2 * MiB);
  EXPECT_EQ(s->size, ATOLL_MIN_ARENA_BYTES);
  EXPECT_TRUE(s->maskCapable);
  s = arenaSpecFor(256, false, 0);
  EXPECT_EQ(s->size, ATOLL_MIN_ARENA_BYTES);
  s = arenaSpecFor(4 * MiB, false, 8 * MiB); // a coarser granularity wins
  EXPECT_EQ(s->size, 8 * MiB);
}

TEST(ArenaSpec, OtherSizesAreModuloOnlyUnlessRounded) {
  auto s = arenaSpecFor(3 * MiB, false, 2 * MiB);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size, 3 * MiB);
  EXPECT_FALSE(s->maskCapable);
  s = arenaSpecFor(1000, false, 2 * MiB);
  EXPECT_EQ(s->size, 1024u); // rounded up to ATOLL_BUFFER_ALIGNMENT
  EXPECT_FALSE(s->maskCapable);
  s = arenaSpecFor(3 * MiB, true, 2 * MiB);
  EXPECT_EQ(s->size, 4 * MiB);
  EXPECT_TRUE(s->maskCapable);
  s = arenaSpecFor(100 * MiB + 1, true, 2 * MiB);
  EXPECT_EQ(s->size, 128 * MiB);
}

TEST(ArenaSpec, MaskCapableArenasAreAtMostFourGiB) {
  // Mask-mode kernels confine with 32-bit offsets (ATOLL_MAX_MASK_ARENA_BYTES).
  constexpr uint64_t GiB = 1024 * MiB;
  auto s = arenaSpecFor(4 * GiB, false, 2 * MiB);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size, 4 * GiB);
  EXPECT_TRUE(s->maskCapable);
  s = arenaSpecFor(3 * GiB, true, 2 * MiB); // rounds up to exactly the limit
  EXPECT_EQ(s->size, 4 * GiB);
  EXPECT_TRUE(s->maskCapable);
  s = arenaSpecFor(8 * GiB, false, 2 * MiB); // a power of two above it: modulo-only
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size, 8 * GiB);
  EXPECT_FALSE(s->maskCapable);
  s = arenaSpecFor(5 * GiB, true, 2 * MiB); // not rounded past the limit
  EXPECT_EQ(s->size, 5 * GiB);
  EXPECT_FALSE(s->maskCapable);
}

TEST(ArenaSpec, ZeroAndAbsurdSizesAreInvalid) {
  for (uint64_t n : {uint64_t(0), uint64_t(UINT64_MAX), uint64_t((1ull << 63) + 1)}) {
    auto s = arenaSpecFor(n, true, 2 * MiB);
    ASSERT_FALSE(s) << n;
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument);
  }
}

TEST(ArenaPool, ReleasedArenaIsReusedAfterItsScrub) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto l1 = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(l1);
  EXPECT_EQ(l1->source, ArenaPool::Source::Fresh);
  be.setDone(l1->arena.serial, false); // the scrub was just enqueued
  pool.release(l1->arena, /*streamWasIdle=*/true);
  EXPECT_EQ(pool.stats().pooledArenas, 1u);

  // Scrub pending: reusable, but the new stream must wait for it.
  auto l2 = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(l2);
  EXPECT_EQ(l2->arena.serial, l1->arena.serial);
  EXPECT_EQ(l2->source, ArenaPool::Source::PoolScrubbing);
  be.setDone(l2->arena.serial, true);
  pool.release(l2->arena, true);
  // Scrub complete: handed out as clean.
  auto l3 = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(l3);
  EXPECT_EQ(l3->arena.serial, l1->arena.serial);
  EXPECT_EQ(l3->source, ArenaPool::Source::PoolClean);
  EXPECT_EQ(pool.stats().fromPool, 2u);
  EXPECT_EQ(pool.stats().allocated, 1u);
}

TEST(ArenaPool, OnlyTheSameShapeIsReused) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto a = *pool.acquire(mask(64 * MiB));
  pool.release(a.arena, true);
  auto b = pool.acquire(mask(32 * MiB));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->source, ArenaPool::Source::Fresh);
  auto c = pool.acquire({64 * MiB, false}); // same size, modulo-only: not the same arena
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, ArenaPool::Source::Fresh);
  EXPECT_NE(c->arena.serial, a.arena.serial);
}

TEST(ArenaPool, BusyArenasAreQuarantinedUntilTheirWorkEnds) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto a = *pool.acquire(mask(64 * MiB));
  be.setDone(a.arena.serial, false); // a wedged kernel is still running on it
  pool.release(a.arena, /*streamWasIdle=*/false);
  EXPECT_EQ(pool.stats().quarantinedArenas, 1u);
  EXPECT_EQ(pool.stats().committed, 64 * MiB); // still counts against the budget

  auto b = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(b);
  EXPECT_NE(b->arena.serial, a.arena.serial) << "a quarantined arena was handed out";
  EXPECT_EQ(b->source, ArenaPool::Source::Fresh);

  pool.trim();
  pool.shutdown(std::chrono::milliseconds(5));
  EXPECT_TRUE(be.live.count(a.arena.serial)) << "a busy arena was freed";
  EXPECT_EQ(pool.collect(), 1u);

  be.setDone(a.arena.serial, true);
  EXPECT_EQ(pool.collect(), 0u);
  EXPECT_EQ(pool.stats().pooledArenas, 1u);
  pool.release(b->arena, true);
  auto c = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, ArenaPool::Source::PoolClean);
}

TEST(ArenaPool, PinnedObjectsLiveUntilTheWorkEnds) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto a = *pool.acquire(mask(2 * MiB));
  auto module = std::make_shared<int>(42);
  std::weak_ptr<int> watch = module;
  a.arena.pinned.push_back(module);
  module.reset();
  be.setDone(a.arena.serial, false);
  pool.release(a.arena, false);
  a.arena.pinned.clear();
  EXPECT_FALSE(watch.expired()) << "the module of a running kernel was released";
  be.setDone(a.arena.serial, true);
  pool.collect();
  EXPECT_TRUE(watch.expired());
}

TEST(ArenaPool, AdmissionRefusesWhatExceedsTheBudget) {
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto a = pool.acquire(mask(32 * MiB));
  auto b = pool.acquire(mask(32 * MiB));
  ASSERT_TRUE(a && b);
  auto c = pool.acquire(mask(2 * MiB));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_EQ(c.error().message(),
            "an arena of 2097152 bytes (2097152 bytes of device memory) does not fit the "
            "device-memory budget: 67108864 of 67108864 bytes are committed (0 quarantined "
            "arenas), 0 pooled");
  auto huge = pool.acquire(mask(1ull << 40));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code(), ErrorCode::CapacityExceeded);
  pool.release(a->arena, true);
  EXPECT_TRUE(pool.acquire(mask(2 * MiB))); // evicts the pooled 32 MiB arena
  EXPECT_EQ(pool.stats().freed, 1u);
  EXPECT_LE(pool.stats().committed + pool.stats().pooled, 64 * MiB);
}

TEST(ArenaPool, QuarantinedArenasCountAgainstTheBudget) {
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto a = *pool.acquire(mask(64 * MiB));
  be.setDone(a.arena.serial, false);
  pool.release(a.arena, false);
  auto b = pool.acquire(mask(64 * MiB));
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), ErrorCode::CapacityExceeded);
  be.setDone(a.arena.serial, true);
  auto c = pool.acquire(mask(64 * MiB));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->arena.serial, a.arena.serial);
}

TEST(ArenaPool, FailedAllocationGivesTheBudgetBack) {
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  be.failNext = true;
  auto a = pool.acquire(mask(64 * MiB));
  ASSERT_FALSE(a);
  EXPECT_EQ(pool.stats().committed, 0u);
  EXPECT_TRUE(pool.acquire(mask(64 * MiB)));
}

TEST(ArenaPool, WithoutPoolingArenasAreFreedOnceScrubbed) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, false);
  auto a = *pool.acquire(mask(8 * MiB));
  be.setDone(a.arena.serial, false);
  pool.release(a.arena, true);
  EXPECT_TRUE(be.live.count(a.arena.serial));
  be.setDone(a.arena.serial, true);
  pool.collect();
  EXPECT_FALSE(be.live.count(a.arena.serial));
  EXPECT_EQ(pool.stats().pooled, 0u);
  EXPECT_EQ(pool.stats().committed, 0u);
}

TEST(ArenaPool, CancelledLeases) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto fresh = *pool.acquire(mask(8 * MiB));
  pool.cancel(fresh); // never scrubbed: must not be pooled
  EXPECT_FALSE(be.live.count(fresh.arena.serial));
  auto b = *pool.acquire(mask(8 * MiB));
  pool.release(b.arena, true);
  auto pooled = *pool.acquire(mask(8 * MiB));
  ASSERT_NE(pooled.source, ArenaPool::Source::Fresh);
  pool.cancel(pooled); // already scrubbed: back into the pool
  EXPECT_EQ(pool.stats().pooledArenas, 1u);
  EXPECT_EQ(pool.stats().committed, 0u);
}

TEST(ArenaPool, AbandonedArenasAreNeverReusedNorFreed) {
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto a = *pool.acquire(mask(32 * MiB));
  pool.abandon(a.arena);
  pool.trim();
  pool.shutdown(std::chrono::milliseconds(1));
  EXPECT_TRUE(be.live.count(a.arena.serial));
  EXPECT_EQ(pool.stats().leaked, 1u);
  EXPECT_EQ(pool.stats().committed, 32 * MiB);
  auto b = pool.acquire(mask(32 * MiB));
  ASSERT_TRUE(b);
  EXPECT_NE(b->arena.serial, a.arena.serial);
}

TEST(ArenaPool, LostContextFreesNothing) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  auto a = *pool.acquire(mask(8 * MiB));
  pool.release(a.arena, true);
  be.usableFlag = false;
  pool.trim();
  pool.shutdown(std::chrono::milliseconds(1));
  EXPECT_TRUE(be.destroyed.empty());
}

TEST(ArenaPool, TrimAndShutdownFreeEverythingIdle) {
  FakeBackend be;
  ArenaPool pool(be, 1024 * MiB, true);
  std::vector<ArenaPool::Lease> leases;
  for (int i = 0; i < 4; ++i)
    leases.push_back(*pool.acquire(mask(i < 2 ? 8 * MiB : 16 * MiB)));
  for (auto &l : leases)
    pool.release(l.arena, true);
  pool.shutdown(std::chrono::milliseconds(10));
  EXPECT_TRUE(be.live.empty());
  EXPECT_EQ(pool.stats().pooled, 0u);
  EXPECT_EQ(pool.stats().committed, 0u);
}

TEST(ArenaPool, ConcurrentAcquireAndReleaseKeepTheBooks) {
  FakeBackend be;
  const uint64_t budget = 256 * MiB;
  ArenaPool pool(be, budget, true);
  std::vector<std::thread> threads;
  std::atomic<int> refused{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        uint64_t size = (i + t) % 3 == 0 ? 64 * MiB : 16 * MiB;
        auto l = pool.acquire(mask(size));
        if (!l) {
          EXPECT_EQ(l.error().code(), ErrorCode::CapacityExceeded);
          refused++;
          continue;
        }
        auto s = pool.stats();
        EXPECT_LE(s.committed, budget);
        pool.release(l->arena, true);
      }
    });
  for (auto &t : threads)
    t.join();
  auto s = pool.stats();
  EXPECT_EQ(s.committed, 0u);
  EXPECT_EQ(s.leasedArenas, 0u);
  EXPECT_LE(s.pooled, budget);
  std::lock_guard lock(be.mutex);
  EXPECT_EQ(s.pooledArenas, be.live.size()); // every live arena is back in the pool
}

TEST(ArenaPool, BudgetIsCheckedAfterEvictionAndNothingWaitsForAScrub) {
  // A pooled arena whose scrub has not completed is not evicted (that would wait for
  // it, or quarantine it and overshoot the budget): admission gives it a short,
  // bounded chance without the lock, then refuses. committed + pooled never exceed
  // the budget.
  FakeBackend be;
  const uint64_t budget = 64 * MiB;
  ArenaPool pool(be, budget, true);
  auto a = *pool.acquire(mask(32 * MiB));
  auto c = *pool.acquire(mask(16 * MiB));
  be.setDone(c.arena.serial, false); // its scrub is slow
  pool.release(c.arena, /*streamWasIdle=*/true);
  auto start = std::chrono::steady_clock::now();
  auto b = pool.acquire(mask(32 * MiB));
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(b.error().message().find("16777216 pooled"), std::string::npos)
      << b.error().message();
  EXPECT_LT(took, std::chrono::milliseconds(800)) << "admission waited for a scrub";
  auto s = pool.stats();
  EXPECT_LE(s.committed + s.pooled, budget);
  EXPECT_EQ(s.quarantinedArenas, 0u);
  be.setDone(c.arena.serial, true); // the scrub completes: now it can be evicted
  auto b2 = pool.acquire(mask(32 * MiB));
  ASSERT_TRUE(b2) << b2.error().describe();
  EXPECT_FALSE(be.live.count(c.arena.serial));
  s = pool.stats();
  EXPECT_EQ(s.committed, budget);
  EXPECT_EQ(s.pooled, 0u);
  pool.release(a.arena, true);
  pool.release(b2->arena, true);
}

TEST(ArenaPool, ArenasAreCountedAtTheirDeviceFootprint) {
  // Without VMM a mask arena is over-allocated twice its size to align it: the
  // budget counts both halves.
  auto noVmm = arenaSpecFor(8 * MiB, false, 0, /*vmm=*/false);
  ASSERT_TRUE(noVmm);
  EXPECT_EQ(noVmm->size, 8 * MiB);
  EXPECT_EQ(noVmm->bytes(), 16 * MiB);
  // With VMM a modulo arena maps whole granules.
  auto modulo = arenaSpecFor(3 * MiB + 1, false, 2 * MiB, /*vmm=*/true);
  ASSERT_TRUE(modulo);
  EXPECT_FALSE(modulo->maskCapable);
  EXPECT_EQ(modulo->size, 3 * MiB + ATOLL_BUFFER_ALIGNMENT);
  EXPECT_EQ(modulo->bytes(), 4 * MiB);
  auto vmmMask = arenaSpecFor(8 * MiB, false, 2 * MiB, true);
  EXPECT_EQ(vmmMask->bytes(), 8 * MiB);

  FakeBackend be;
  ArenaPool pool(be, 24 * MiB, true);
  auto a = pool.acquire(*noVmm);
  ASSERT_TRUE(a);
  EXPECT_EQ(pool.stats().committed, 16 * MiB);
  auto b = pool.acquire(*noVmm); // 16 + 16 > 24
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), ErrorCode::CapacityExceeded);
  auto m = pool.acquire(*modulo); // 16 + 4 <= 24
  ASSERT_TRUE(m);
  EXPECT_EQ(pool.stats().committed, 20 * MiB);
  pool.release(a->arena, true);
  pool.release(m->arena, true);
  EXPECT_EQ(pool.stats().pooled, 20 * MiB);
}

TEST(ArenaPool, DestroyNeverRunsUnderThePoolLock) {
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, false); // no pooling: every release frees
  be.probe = &pool;
  auto a = *pool.acquire(mask(32 * MiB));
  pool.release(a.arena, true); // collect frees it
  auto b = *pool.acquire(mask(32 * MiB));
  pool.cancel(b);
  ArenaPool pooled(be, 64 * MiB, true);
  be.probe = &pooled;
  auto c = *pooled.acquire(mask(32 * MiB));
  pooled.release(c.arena, true);
  auto d = *pooled.acquire(mask(64 * MiB)); // evicts c
  pooled.release(d.arena, true);
  pooled.trim();
  EXPECT_EQ(be.destroyed.size(), 4u);
}

TEST(ArenaPool, CancelledFreshArenaIsFreedOnlyAfterItsEvent) {
  // createPipeline cancels a fresh lease after enqueuing its scrub and recording the
  // event: the memory must not be freed under the pending memset, nor pooled.
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto a = *pool.acquire(mask(32 * MiB));
  be.setDone(a.arena.serial, false);
  pool.cancel(a);
  EXPECT_TRUE(be.live.count(a.arena.serial));
  EXPECT_EQ(pool.stats().committed, 32 * MiB);
  EXPECT_EQ(pool.stats().pooledArenas, 0u);
  be.setDone(a.arena.serial, true);
  pool.collect();
  EXPECT_FALSE(be.live.count(a.arena.serial));
  EXPECT_EQ(pool.stats().committed, 0u);
  EXPECT_EQ(pool.stats().pooledArenas, 0u);
}

TEST(ArenaPool, AdmissionDoesNotWaitWhenPendingArenasCannotMakeRoom) {
  // A quarantined arena (a never-ending kernel) that would not make room even once
  // freed: refused at once, no polling.
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto q = *pool.acquire(mask(16 * MiB));
  be.setDone(q.arena.serial, false);
  pool.release(q.arena, /*streamWasIdle=*/false);
  auto held = *pool.acquire(mask(32 * MiB));
  auto start = std::chrono::steady_clock::now();
  auto big = pool.acquire(mask(64 * MiB)); // 48 + 64 - 16 > 64
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(big.error().message().find("(1 quarantined arenas)"), std::string::npos)
      << big.error().message();
  EXPECT_LT(took, std::chrono::milliseconds(50));
  // One that would fit once the quarantined arena is done polls briefly, then refuses.
  auto mid = pool.acquire(mask(32 * MiB)); // 48 + 32 - 16 <= 64
  ASSERT_FALSE(mid);
  be.setDone(q.arena.serial, true);
  auto now = pool.acquire(mask(32 * MiB));
  ASSERT_TRUE(now) << now.error().describe();
  pool.release(held.arena, true);
  pool.release(now->arena, true);
}

TEST(ArenaPool, ShutdownWithAHugeDrainWaitsForPendingArenas) {
  // now + milliseconds::max() used to overflow into the past: no drain at all.
  FakeBackend be;
  ArenaPool pool(be, 64 * MiB, true);
  auto a = *pool.acquire(mask(8 * MiB));
  be.setDone(a.arena.serial, false);
  pool.release(a.arena, /*streamWasIdle=*/false);
  auto finisher = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    be.setDone(a.arena.serial, true);
  });
  pool.shutdown(std::chrono::milliseconds::max());
  finisher.get();
  EXPECT_EQ(pool.stats().quarantinedArenas, 0u);
  EXPECT_FALSE(be.live.count(a.arena.serial)) << "drained and freed";
}
