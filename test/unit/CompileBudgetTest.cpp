// The service-wide byte budget for compile answers in flight (compile/AnswerBudget.h,
// issue 14): on its own, in the pool against the stand-in worker
// (FakeCompileWorker.cpp: "slow-big" sends a 1 MiB answer's header, then its payload
// 300 ms later; "big-truncated" dies half-way), and in a load (compileInWorkers).
#include "compile/AnswerBudget.h"
#include "compile/CompilePool.h"
#include "compile/RemoteCompile.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace Atoll::detail;
using namespace Atoll::detail::compile;
using namespace std::chrono_literals;

namespace {

constexpr const char *kOption = "(RuntimeOptions::compileWorkers.answerBudget)";

auto in(std::chrono::milliseconds d) { return AnswerBudget::Clock::now() + d; }

template <class T> void expectError(const Result<T> &r, ErrorCode code, const std::string &text) {
  ASSERT_FALSE(r.ok()) << "expected " << to_string(code);
  EXPECT_EQ(r.error().code(), code) << r.error().describe();
  EXPECT_NE(r.error().message().find(text), std::string::npos) << r.error().message();
}

PoolConfig fakeConfig(size_t size, uint64_t budget) {
  PoolConfig c;
  c.workerPath = ATOLL_FAKE_COMPILE_WORKER;
  c.size = size;
  c.timeout = 10000ms;
  c.memoryLimit = 512ull << 20;
  c.cpuLimitSeconds = 5;
  c.answerBudget = budget;
  return c;
}

std::unique_ptr<CompilePool> makeWarmPool(PoolConfig c) {
  size_t size = c.size;
  auto p = CompilePool::create(std::move(c));
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().describe());
  if (!p.ok())
    return nullptr;
  for (int i = 0; i < 1000 && (*p)->warm() < size; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ((*p)->warm(), size);
  return std::move(*p);
}

Result<Response> runMode(CompilePool &pool, const std::string &mode) {
  CompileJob j;
  j.name = "mode:" + mode;
  return pool.run(Request(j));
}

CompileJob modeJob(const std::string &mode) {
  CompileJob j;
  j.name = "mode:" + mode;
  return j;
}

Status accept(const CompiledEntry &) { return {}; }

} // namespace

// --- The budget on its own -----------------------------------------------------------

TEST(AnswerBudget, BlocksUntilReleasedAndReleasesOnEveryPath) {
  AnswerBudget b(100);
  auto first = b.acquire(60, in(1s));
  ASSERT_TRUE(first.ok());
  std::atomic<bool> got{false};
  std::thread waiter([&] {
    auto c = b.acquire(60, in(5s));
    EXPECT_TRUE(c.ok());
    got = true;
    // Destroyed here: released.
  });
  std::this_thread::sleep_for(150ms);
  EXPECT_FALSE(got.load()) << "60 + 60 bytes do not fit a 100-byte budget";
  EXPECT_EQ(b.stats().inUse, 60u);
  AnswerBudget::Charge moved = std::move(*first);
  EXPECT_EQ(moved.bytes(), 60u);
  moved.release(); // the moved-from charge gives nothing back twice
  waiter.join();
  EXPECT_TRUE(got.load());
  EXPECT_EQ(b.stats().inUse, 0u);
  EXPECT_EQ(b.stats().waits, 1u);
  EXPECT_EQ(b.stats().peak, 60u);
}

TEST(AnswerBudget, AWaitPastTheDeadlineIsATypedError) {
  AnswerBudget b(100);
  auto held = b.acquire(60, in(1s));
  ASSERT_TRUE(held.ok());
  auto start = AnswerBudget::Clock::now();
  auto r = b.acquire(60, in(200ms));
  auto waited = AnswerBudget::Clock::now() - start;
  expectError(r, ErrorCode::CompileResources,
              std::string("the compile worker's answer needs 60 bytes in the service, but the "
                          "answers of other loads held 60 of the 100-byte compile answer budget ") +
                  kOption + " for ");
  EXPECT_GE(waited, 190ms);
  EXPECT_LT(waited, 2s);
  EXPECT_EQ(b.stats().inUse, 60u);
  EXPECT_EQ(b.stats().refused, 1u);
  // The one that gave up left the queue: the next one is not stuck behind it.
  held->release();
  EXPECT_TRUE(b.acquire(100, in(10ms)).ok());
}

TEST(AnswerBudget, MoreThanTheWholeBudgetIsRefusedAtOnce) {
  AnswerBudget b(100);
  auto start = AnswerBudget::Clock::now();
  auto r = b.acquire(101, in(10s));
  expectError(r, ErrorCode::CompileResources,
              std::string("the compile worker's answer needs 101 bytes in the service, more than "
                          "the whole compile answer budget of 100 bytes ") +
                  kOption);
  EXPECT_LT(AnswerBudget::Clock::now() - start, 1s) << "refused without waiting";
  EXPECT_TRUE(b.acquire(100, in(10ms)).ok()); // exactly the budget fits
}

// A large charge is not overtaken by smaller ones that would fit: first come, first
// served.
TEST(AnswerBudget, FirstComeFirstServed) {
  AnswerBudget b(100);
  auto held = b.acquire(90, in(1s));
  ASSERT_TRUE(held.ok());
  // Each charge is known to wait (stats().waits) before the next one comes: no
  // sleep decides the order (a 100 ms sleep did not on a loaded 2-core machine).
  auto waitingAre = [&](uint64_t n) {
    for (int i = 0; i < 5000 && b.stats().waits < n; ++i)
      std::this_thread::sleep_for(1ms);
    return b.stats().waits == n;
  };
  std::atomic<int> served{0};
  std::thread big([&] {
    auto c = b.acquire(50, in(5s));
    EXPECT_TRUE(c.ok());
    ++served;
  });
  ASSERT_TRUE(waitingAre(1));
  std::thread small([&] {
    auto c = b.acquire(10, in(5s)); // 90 + 10 fits, but the 50 came first
    EXPECT_TRUE(c.ok());
    ++served;
  });
  ASSERT_TRUE(waitingAre(2));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(served.load(), 0); // the 10 did not pass the waiting 50
  held->release();
  big.join();
  small.join();
  EXPECT_EQ(served.load(), 2);
}

TEST(AnswerBudget, ShrinkGivesBackWithoutWaiting) {
  AnswerBudget b(100);
  auto c = b.acquire(80, in(1s));
  ASSERT_TRUE(c.ok());
  c->shrinkTo(30);
  EXPECT_EQ(c->bytes(), 30u);
  EXPECT_EQ(b.stats().inUse, 30u);
  c->shrinkTo(50); // never grows
  EXPECT_EQ(b.stats().inUse, 30u);
  EXPECT_TRUE(b.acquire(70, in(10ms)).ok());
}

// Many threads charging random sizes: an independent count of what they hold never
// passes the budget, and everything is given back.
TEST(AnswerBudget, ConcurrentChargesNeverExceedTheBudget) {
  AnswerBudget b(1000);
  std::atomic<int64_t> holding{0}, most{0};
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 300; ++i) {
        uint64_t n = 1 + rng() % 400;
        auto c = b.acquire(n, in(10s));
        if (!c.ok())
          continue;
        ok++;
        int64_t now = holding += int64_t(n);
        for (int64_t m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
        }
        std::this_thread::yield();
        holding -= int64_t(n);
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(ok.load(), 8 * 300);
  EXPECT_LE(most.load(), 1000);
  EXPECT_GT(most.load(), 400) << "the threads never overlapped: the test measured nothing";
  EXPECT_EQ(b.stats().inUse, 0u);
}

// --- In the pool ---------------------------------------------------------------------

// Six parallel 1 MiB answers: without a budget to speak of they are all received at
// once (the control run shows the test can fail); with a 2.5 MiB budget at most two
// are, and all six are still served.
TEST(CompileBudget, ConcurrentAnswersNeverExceedTheBudget) {
  auto burst = [](uint64_t budget) {
    auto pool = makeWarmPool(fakeConfig(6, budget));
    if (!pool)
      return std::pair<uint64_t, int>{0, 0};
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i)
      threads.emplace_back([&] { ok += runMode(*pool, "slow-big").ok(); });
    for (auto &t : threads)
      t.join();
    EXPECT_EQ(pool->budget().stats().inUse, 0u);
    EXPECT_LE(pool->budget().stats().peak, budget);
    return std::pair<uint64_t, int>{pool->stats().peakReceivingBytes, ok.load()};
  };
  const uint64_t small = (5ull << 20) / 2;
  auto [controlPeak, controlOk] = burst(64ull << 20);
  EXPECT_EQ(controlOk, 6);
  EXPECT_GT(controlPeak, small) << "without the budget the answers did not overlap";
  auto [peak, ok] = burst(small);
  EXPECT_EQ(ok, 6);
  EXPECT_LE(peak, small) << "answers in flight passed the budget";
  EXPECT_GE(peak, 2ull << 20); // two at once fit, and did overlap
}

TEST(CompileBudget, AWaitPastTheDeadlineIsATypedError) {
  PoolConfig c = fakeConfig(1, 3ull << 19); // 1.5 MiB
  c.timeout = 800ms;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  auto held = pool->budget().acquire(1u << 20, in(1s)); // another load's answer
  ASSERT_TRUE(held.ok());
  auto r = runMode(*pool, "slow-big");
  expectError(r, ErrorCode::CompileResources,
              std::string("but the answers of other loads held 1048576 of the 1572864-byte "
                          "compile answer budget ") +
                  kOption);
  EXPECT_EQ(pool->budget().stats().inUse, 1u << 20);
  held->release();
  auto again = runMode(*pool, "slow-big");
  EXPECT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
}

TEST(CompileBudget, AnAnswerOverTheWholeBudgetIsRefused) {
  auto pool = makeWarmPool(fakeConfig(1, 512u << 10));
  ASSERT_TRUE(pool);
  auto start = AnswerBudget::Clock::now();
  auto r = runMode(*pool, "slow-big");
  expectError(r, ErrorCode::CompileResources,
              std::string("more than the whole compile answer budget of 524288 bytes ") + kOption);
  EXPECT_LT(AnswerBudget::Clock::now() - start, 250ms) << "refused at the header";
  EXPECT_EQ(pool->stats().failed, 1u);
  EXPECT_TRUE(runMode(*pool, "ok").ok()); // small answers go on
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
}

TEST(CompileBudget, AWorkerThatDiesOrTimesOutMidAnswerReleasesItsCharge) {
  PoolConfig c = fakeConfig(1, 3ull << 19);
  c.timeout = 2000ms;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  expectError(runMode(*pool, "big-truncated"), ErrorCode::CompileError, "truncated frame");
  EXPECT_GE(pool->budget().stats().peak, 1u << 20); // it was charged
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
  EXPECT_TRUE(pool->budget().acquire(3ull << 19, in(10ms)).ok()); // the whole budget is free
  // Past the request's deadline mid-answer: killed, and released too.
  PoolConfig t = fakeConfig(1, 3ull << 19);
  t.timeout = 150ms;
  auto slow = makeWarmPool(t);
  ASSERT_TRUE(slow);
  expectError(runMode(*slow, "slow-big"), ErrorCode::CompileTimeout, "did not finish within");
  EXPECT_GE(slow->budget().stats().peak, 1u << 20);
  EXPECT_EQ(slow->budget().stats().inUse, 0u);
}

TEST(CompileBudget, ABudgetBelow4KiBIsRefused) {
  PoolConfig c = fakeConfig(1, 4095);
  auto p = CompilePool::create(c);
  expectError(p, ErrorCode::InvalidArgument,
              "RuntimeOptions::compileWorkers.answerBudget is below 4096 bytes");
}

// --- In a load (compileInWorkers) ----------------------------------------------------

// A load is charged once, at the compile answer's header: its PTX twice (the answer
// and the assemble request) plus room for the largest cubin; on success the caller
// keeps the charge, cut to the entry's PTX and cubin.
TEST(CompileBudget, ALoadIsChargedTwiceItsPtxAndRoomForTheCubin) {
  PoolConfig c = fakeConfig(2, 64ull << 20);
  c.maxAssembledBytes = 8192;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  AnswerBudget::Charge held;
  auto e = compileInWorkers(*pool, modeJob("slow-big"), true, accept, &held);
  ASSERT_TRUE(e.ok()) << e.error().describe();
  EXPECT_EQ(e->ptx.size(), 1u << 20);
  EXPECT_EQ(e->cubin.size(), 1024u);
  uint64_t peak = pool->budget().stats().peak;
  EXPECT_GE(peak, 2 * (1ull << 20) + 8192);
  EXPECT_LE(peak, 2 * ((1ull << 20) + 1024) + 8192); // the frame's few bytes of framing
  EXPECT_EQ(held.bytes(), (1u << 20) + 1024u);
  EXPECT_EQ(pool->budget().stats().inUse, held.bytes());
  held.release();
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
}

// 1.5 MiB holds the 1 MiB answer alone (no assembly), not twice it plus a cubin's room.
TEST(CompileBudget, ALoadOverTheBudgetIsRefusedAndReleased) {
  PoolConfig c = fakeConfig(2, 3ull << 19);
  c.maxAssembledBytes = 8192;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  auto refused = compileInWorkers(*pool, modeJob("slow-big"), true, accept);
  expectError(refused, ErrorCode::CompileResources,
              std::string("more than the whole compile answer budget of 1572864 bytes ") + kOption);
  auto alone = compileInWorkers(*pool, modeJob("slow-big"), false, accept);
  EXPECT_TRUE(alone.ok()) << alone.error().describe();
  // A validation failure after the charge releases it too.
  auto invalid = compileInWorkers(*pool, modeJob("slow-big"), false, [](const CompiledEntry &) {
    return Status(Error(ErrorCode::Refused, "refused by the test"));
  });
  expectError(invalid, ErrorCode::Refused, "refused by the test");
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
}

// --- One acquisition order: a worker, then the budget (review R7-F5) -----------------

namespace {

/// `loads` parallel loads of 1 MiB answers (compile, then assemble), the last one
/// started once the others hold workers; each result and the time they all took.
std::pair<std::vector<Status>, std::chrono::milliseconds> parallelLoads(CompilePool &pool,
                                                                         int loads,
                                                                         bool stagger = true) {
  std::vector<Status> results(loads);
  std::vector<std::thread> threads;
  auto start = AnswerBudget::Clock::now();
  for (int i = 0; i < loads; ++i) {
    if (stagger && i == loads - 1)
      std::this_thread::sleep_for(50ms); // the others hold the workers by now
    threads.emplace_back([&, i] {
      auto e = compileInWorkers(pool, modeJob("slow-big"), true, accept);
      results[i] = e.ok() ? Status() : Status(std::move(e).error());
    });
  }
  for (auto &t : threads)
    t.join();
  return {results, std::chrono::duration_cast<std::chrono::milliseconds>(
                       AnswerBudget::Clock::now() - start)};
}

} // namespace

// Two workers, a budget for one load's charge, three loads whose compile answers
// come together: the first is charged, the second waits for the budget holding its
// worker, the third waits for a worker. The charged load's own slot (its compile
// worker's replacement) must go to its assemble step, not to the third load, whose
// answer would then wait for the budget too while the charged load waits for a
// worker: before the fix one of them failed at its 4 s deadline (CompileResources).
TEST(CompileBudget, AChargedLoadGetsItsAssembleWorkerAheadOfOtherLoads) {
  PoolConfig c = fakeConfig(2, (5ull << 20) / 2); // one charge: 2 x 1 MiB + 8 KiB
  c.maxAssembledBytes = 8192;
  c.timeout = 4000ms;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  auto [results, took] = parallelLoads(*pool, 3);
  for (size_t i = 0; i < results.size(); ++i)
    EXPECT_TRUE(results[i].ok()) << "load " << i << ": " << results[i].error().describe();
  EXPECT_LT(took, 3500ms) << "the loads waited for a deadline";
  EXPECT_GE(pool->budget().stats().waits, 1u) << "no load waited for the budget: the test "
                                                 "did not build the contention";
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
  EXPECT_EQ(pool->stats().assembleRequests, 3u);
}

// The same cycle through the cores: with cpuSlots = 1 a replacement starts only
// while no request works. A compile answer waiting for the budget no longer works
// (its worker has answered), so it must not hold back the start of the charged
// load's assemble worker: before the fix the second load failed at its deadline.
TEST(CompileBudget, AnAnswerWaitingForTheBudgetDoesNotHoldACore) {
  PoolConfig c = fakeConfig(2, (5ull << 20) / 2);
  c.maxAssembledBytes = 8192;
  c.cpuSlots = 1;
  c.timeout = 4000ms;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  auto [results, took] = parallelLoads(*pool, 2, /*stagger=*/false);
  for (size_t i = 0; i < results.size(); ++i)
    EXPECT_TRUE(results[i].ok()) << "load " << i << ": " << results[i].error().describe();
  EXPECT_LT(took, 3500ms) << "the loads waited for a deadline";
  EXPECT_GE(pool->budget().stats().waits, 1u);
  EXPECT_EQ(pool->budget().stats().inUse, 0u);
}

// A claim keeps idle workers from requests without one once the worker that answered
// while it was made has handed its slot over, and only until it is used or released;
// a pending claim keeps nothing. A request that finds every idle worker kept past its
// deadline gets a typed error that says so.
TEST(CompileBudget, AClaimKeepsAWorkerUntilUsedOrReleased) {
  PoolConfig c = fakeConfig(1, 64ull << 20);
  c.timeout = 300ms;
  auto pool = makeWarmPool(c);
  ASSERT_TRUE(pool);
  auto warmAgain = [&] {
    for (int i = 0; i < 300 && pool->warm() < 1; ++i)
      std::this_thread::sleep_for(10ms);
    ASSERT_EQ(pool->warm(), 1u);
  };
  {
    CompilePool::Claim pending = pool->claim();
    EXPECT_TRUE(pending.held());
    EXPECT_FALSE(pending.effective());
    auto r = runMode(*pool, "ok");
    EXPECT_TRUE(r.ok()) << "a pending claim kept a worker: " << r.error().describe();
  }
  warmAgain();
  CompilePool::Claim claim;
  auto first = pool->runHandingOver(
      Request(modeJob("ok")),
      [&](uint32_t, Clock::time_point) -> Status {
        claim = pool->claim();
        return {};
      },
      claim);
  ASSERT_TRUE(first.ok()) << first.error().describe();
  EXPECT_TRUE(claim.effective());
  warmAgain();
  auto r = runMode(*pool, "ok");
  expectError(r, ErrorCode::CompileResources,
              "the idle compile workers stayed kept for the assemble steps of 1 loads ahead "
              "of this one for ");
  // The claimant takes it.
  auto mine = pool->run(Request(modeJob("ok")), {}, claim);
  EXPECT_TRUE(mine.ok()) << mine.error().describe();
  EXPECT_FALSE(claim.held()) << "run() consumed the claim";
  warmAgain();
  EXPECT_TRUE(runMode(*pool, "ok").ok());
  // An effective claim released unused gives its worker to the next request.
  warmAgain();
  CompilePool::Claim unused;
  ASSERT_TRUE(pool->runHandingOver(
                      Request(modeJob("ok")),
                      [&](uint32_t, Clock::time_point) -> Status {
                        unused = pool->claim();
                        return {};
                      },
                      unused)
                  .ok());
  EXPECT_TRUE(unused.effective());
  unused.release();
  warmAgain();
  auto after = runMode(*pool, "ok");
  EXPECT_TRUE(after.ok()) << after.error().describe();
}
