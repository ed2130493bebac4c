// SM partitions on green contexts (issue 17), on a real device: a pipeline with an SM
// quota runs its kernels on that many SMs only (measured with %smid), disjoint
// partitions use disjoint SMs, admission refuses what does not fit, partitions are
// reused, and the isolation machinery (cancel, timeouts, teardown with work still
// running) works the same inside a partition. On a device without green contexts
// every quota is Unsupported (checked) and the rest is skipped; with
// ATOLL_EXPECT_PARTITIONS=1 (scripts/gpu-batch.sh on the H200) that is a failure.
#include "RuntimeGpuUtil.h"
#include "TestTime.h"

#include <algorithm>
#include <set>
#include <thread>

using namespace Atoll;
using namespace atoll_test;

namespace {

class Partition : public RuntimeGpu {
protected:
  void SetUp() override {
    RuntimeGpu::SetUp();
    if (!rt)
      return;
    if (rt->stats().partitionSms == 0) {
      auto p = rt->createPipeline({.arenaBytes = 2 * MiB, .smCount = 8});
      ASSERT_FALSE(p);
      EXPECT_EQ(p.error().code(), ErrorCode::Unsupported) << p.error().describe();
      const char *expect = std::getenv("ATOLL_EXPECT_PARTITIONS");
      if (expect && std::string(expect) == "1")
        FAIL() << "ATOLL_EXPECT_PARTITIONS=1 but: " << p.error().describe();
      GTEST_SKIP() << "no SM partitions here: " << p.error().describe();
    }
    probeApp = load("partition_kernels.bc");
    vaddApp = load("runtime_kernels.bc");
    ASSERT_TRUE(probeApp && vaddApp);
  }
  /// Launches sm_probe (blocks x 128 threads, each block resident `us`).
  Status launchProbe(Pipeline &p, const Buffer &out, uint32_t blocks, uint64_t us) {
    return p.launch(kernel(probeApp, "sm_probe"), {Dim3(blocks), Dim3(128)}, out, us * 1000);
  }
  std::set<uint32_t> smsOf(Pipeline &p, const Buffer &out, uint32_t blocks) {
    std::vector<uint32_t> ids(blocks, ~0u);
    EXPECT_TRUE(p.copyToHost(ids, out));
    std::set<uint32_t> s(ids.begin(), ids.end());
    EXPECT_EQ(s.count(~0u), 0u) << "a block did not record its SM";
    return s;
  }
  std::shared_ptr<Application> probeApp, vaddApp;
};

std::string list(const std::set<uint32_t> &s) {
  std::string out;
  for (uint32_t v : s)
    out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

// Tests whose bounds assume concurrent kernels: compute-sanitizer serialises work, so
// the memcheck pass of scripts/run-gpu.sh leaves them out by this name.
class PartitionTimingSensitive : public Partition {};

} // namespace

TEST_F(Partition, QuotaConfinesKernelsToItsSms) {
  const uint32_t blocks = 132 * 8;
  auto whole = pipeline({.arenaBytes = 2 * MiB, .name = "whole"});
  auto part = pipeline({.arenaBytes = 2 * MiB, .name = "quota-16", .smCount = 16});
  ASSERT_TRUE(whole && part);
  EXPECT_EQ(part->partitionSms(), 16u);
  Buffer a = *whole->allocate(blocks * 4), b = *part->allocate(blocks * 4);
  ASSERT_TRUE(launchProbe(*whole, a, blocks, 200));
  ASSERT_TRUE(launchProbe(*part, b, blocks, 200));
  ASSERT_TRUE(whole->synchronize());
  ASSERT_TRUE(part->synchronize());
  auto all = smsOf(*whole, a, blocks), mine = smsOf(*part, b, blocks);
  std::printf("[partition] whole device: %zu distinct SMs; quota 16: %zu distinct SMs (%s)\n",
              all.size(), mine.size(), list(mine).c_str());
  // The probe can tell: without a quota the grid spreads over (nearly) every SM.
  EXPECT_GT(all.size(), 100u);
  EXPECT_LE(mine.size(), 16u);
  EXPECT_GE(mine.size(), 8u);
}

// Pipeline lanes (runtime/Lanes.h) on the real driver: the second pipeline of a
// partition takes the first one's stream from the pool, and its kernels still run on
// the partition's SMs only; its arena reads zero and the kernel's result is right.
TEST_F(Partition, APooledStreamStaysInItsPartition) {
  const uint32_t blocks = 132 * 8;
  for (int round = 0; round < 2; ++round) {
    auto part = pipeline({.arenaBytes = 2 * MiB, .name = "quota-16", .smCount = 16});
    ASSERT_TRUE(part);
    EXPECT_EQ(part->stats().streamFromPool, round == 1) << "round " << round;
    Buffer whole = *part->allocate(part->arenaBytes());
    std::vector<uint8_t> bytes(whole.size(), 0xEE);
    ASSERT_TRUE(part->copyToHost(bytes, whole));
    EXPECT_EQ(std::count(bytes.begin(), bytes.end(), 0), ptrdiff_t(bytes.size()))
        << "round " << round << ": the arena was not zero";
    ASSERT_TRUE(part->free(whole));
    Buffer b = *part->allocate(blocks * 4);
    ASSERT_TRUE(launchProbe(*part, b, blocks, 200));
    ASSERT_TRUE(part->synchronize());
    auto mine = smsOf(*part, b, blocks);
    std::printf("[partition] quota 16, %s stream: %zu distinct SMs (%s)\n",
                round ? "pooled" : "new", mine.size(), list(mine).c_str());
    EXPECT_LE(mine.size(), 16u) << "round " << round;
    EXPECT_TRUE(runVadd(*part, kernel(vaddApp, "vadd"), 100000, round));
    part.reset();
    // A pooled lane is taken only once its stream is idle (R8-F2): the teardown's
    // scrub of 2 MiB ends within microseconds; wait well past it.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_GE(rt->stats().pipelineStreamsReused, 1u);
}

TEST_F(Partition, EveryGroupIsADisjointPartitionAndTheNextIsRefused) {
  std::vector<std::unique_ptr<Pipeline>> ps;
  std::vector<Buffer> outs;
  const uint32_t blocks = 64;
  for (int i = 0;; ++i) {
    auto p = rt->createPipeline(
        {.arenaBytes = 2 * MiB, .name = "p" + std::to_string(i), .smCount = 8});
    if (!p) {
      EXPECT_EQ(p.error().code(), ErrorCode::CapacityExceeded) << p.error().describe();
      EXPECT_NE(p.error().message().find("no room for a partition of 8 SMs"), std::string::npos)
          << p.error().message();
      break;
    }
    ASSERT_LT(i, 64) << "admission never refused";
    outs.push_back(*(*p)->allocate(blocks * 4));
    ps.push_back(std::move(*p));
  }
  RuntimeStats st = rt->stats();
  std::printf("[partition] %zu concurrent disjoint partitions of 8 SMs (device %u SMs in "
              "partitions, %u committed)\n",
              ps.size(), st.partitionSms, st.partitionSmsCommitted);
  EXPECT_EQ(ps.size(), 16u) << "15 groups of 8 and the remainder";
  EXPECT_EQ(st.partitionSmsCommitted, st.partitionSms);
  // All at once: each stays on its own SMs.
  for (size_t i = 0; i < ps.size(); ++i)
    ASSERT_TRUE(launchProbe(*ps[i], outs[i], blocks, 2000));
  std::set<uint32_t> seen;
  for (size_t i = 0; i < ps.size(); ++i) {
    ASSERT_TRUE(ps[i]->synchronize());
    auto s = smsOf(*ps[i], outs[i], blocks);
    EXPECT_LE(s.size(), ps[i]->partitionSms()) << "partition " << i << ": " << list(s);
    for (uint32_t sm : s)
      EXPECT_TRUE(seen.insert(sm).second) << "SM " << sm << " used by two partitions";
  }
}

TEST_F(Partition, AdmissionAndReuse) {
  auto big = rt->createPipeline({.arenaBytes = 2 * MiB, .name = "big", .smCount = 1000});
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(big.error().message().find("partitions can use"), std::string::npos)
      << big.error().message();
  const uint64_t created = rt->stats().partitionsCreated;
  for (int i = 0; i < 3; ++i) {
    auto t0 = Clock::now();
    auto p = pipeline({.arenaBytes = 2 * MiB, .smCount = 64});
    std::printf("[partition] createPipeline with a 64-SM quota #%d: %.1f us\n", i,
                msSince(t0) * 1000);
    ASSERT_TRUE(p);
    EXPECT_TRUE(runVadd(*p, kernel(vaddApp, "vadd"), 100000, i));
  }
  RuntimeStats st = rt->stats();
  EXPECT_EQ(st.partitionsCreated - created, 1u);
  EXPECT_GE(st.partitionsFromPool, 2u);
  EXPECT_EQ(st.partitionSmsCommitted, 0u);
}

// Cancel and timeouts inside a partition; the pipeline is usable again.
TEST_F(PartitionTimingSensitive, CancelAndTimeoutWorkInsideAPartition) {
  auto spinApp = load("preempt_kernels.bc");
  ASSERT_TRUE(spinApp);
  auto p = pipeline({.arenaBytes = 8 * MiB, .timeout = milliseconds(200), .name = "spinner",
                     .cancelDeadline = milliseconds(10000), .smCount = 8});
  auto bystander = pipeline({.arenaBytes = 16 * MiB, .name = "bystander", .smCount = 8});
  ASSERT_TRUE(p && bystander);
  Buffer out = *p->allocate(1056 * 256 * 4);
  ASSERT_TRUE(p->launch(kernel(spinApp, "spin_register"), {Dim3(1056), Dim3(256)}, out, 1u));
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_FALSE(*p->idle());
  // The bystander's partition is free: it runs while the spinner spins.
  EXPECT_TRUE(runVadd(*bystander, kernel(vaddApp, "vadd"), 100000, 7));
  auto t0 = Clock::now();
  ASSERT_TRUE(p->cancel(milliseconds(10000)));
  std::printf("[partition] cancel of a spinning grid in an 8-SM partition: %.1f us\n",
              msSince(t0) * 1000);
  EXPECT_TRUE(runVadd(*p, kernel(vaddApp, "vadd"), 10000, 3));
  ASSERT_TRUE(p->launch(kernel(spinApp, "spin_register"), {Dim3(264), Dim3(256)}, out, 1u));
  Status s = p->synchronize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_NE(s.error().message().find("cancelled"), std::string::npos) << s.error().message();
  EXPECT_FALSE(p->wedged());
  EXPECT_TRUE(runVadd(*p, kernel(vaddApp, "vadd"), 10000, 4));
}

// Destroying a partitioned pipeline whose kernel still runs: it returns at once, the
// kernel is cancelled, the partition's SMs come back once it has left, and nothing
// else is disturbed; the runtime's teardown afterwards is bounded.
TEST_F(PartitionTimingSensitive, TeardownWithWorkStillRunning) {
  auto spinApp = load("preempt_kernels.bc");
  ASSERT_TRUE(spinApp);
  {
    auto p = pipeline({.arenaBytes = 8 * MiB, .name = "busy", .smCount = 8});
    ASSERT_TRUE(p);
    Buffer out = *p->allocate(1056 * 256 * 4);
    ASSERT_TRUE(p->launch(kernel(spinApp, "spin_register"), {Dim3(1056), Dim3(256)}, out, 1u));
    std::this_thread::sleep_for(milliseconds(20));
    ASSERT_FALSE(*p->idle());
    auto t0 = Clock::now();
    p.reset();
    const double ms = msSince(t0);
    std::printf("[partition] destroying a busy partitioned pipeline: %.3f ms\n", ms);
    EXPECT_LT(ms, 50.0);
  }
  auto t0 = Clock::now();
  while (rt->stats().partitionSmsCommitted != 0 && msSince(t0) < 5000)
    std::this_thread::sleep_for(milliseconds(1));
  std::printf("[partition] SMs back after %.2f ms\n", msSince(t0));
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 0u);
  auto next = pipeline({.arenaBytes = 8 * MiB, .name = "next", .smCount = 8});
  ASSERT_TRUE(next);
  EXPECT_TRUE(runVadd(*next, kernel(vaddApp, "vadd"), 100000, 5));
  EXPECT_FALSE(rt->lost());
  // A whole runtime with a running partitioned kernel goes within its bounds.
  auto other = Runtime::create({.shutdownDrainTimeout = milliseconds(2000)});
  ASSERT_TRUE(other);
  auto loaded = (*other)->loadApplicationFile(bitcodePath("preempt_kernels.bc"));
  ASSERT_TRUE(loaded);
  std::shared_ptr<Application> app2 = std::move(*loaded);
  auto q = (*other)->createPipeline({.arenaBytes = 8 * MiB, .smCount = 16});
  ASSERT_TRUE(q);
  Buffer o2 = *(*q)->allocate(1056 * 256 * 4);
  ASSERT_TRUE((*q)->launch(*app2->kernel("spin_register"), {Dim3(1056), Dim3(256)}, o2, 1u));
  std::this_thread::sleep_for(milliseconds(20));
  t0 = Clock::now();
  q->reset();
  app2.reset();
  other->reset(); // the last holder of that runtime's state
  std::printf("[partition] runtime teardown with a running partitioned kernel: %.2f ms\n",
              msSince(t0));
  EXPECT_LT(msSince(t0), 5000.0);
  EXPECT_TRUE(runVadd(*next, kernel(vaddApp, "vadd"), 100000, 6));
}

namespace {
// A runtime that sets 64 SMs aside for quotas (RuntimeOptions::quotaSms): pipelines
// without a quota run on the rest of the device.
class PartitionRest : public Partition {
protected:
  RuntimeOptions options() override { return {.quotaSms = 64}; }
};
} // namespace

// Pipelines without a quota never run on a quota pipeline's SMs (measured with
// %smid), while both run at once and as quotas come and go; admission counts only
// the SMs set aside.
TEST_F(PartitionRest, NoQuotaPipelinesNeverRunOnQuotaSms) {
  const RuntimeStats st = rt->stats();
  std::printf("[partition] quotaSms 64: %u SMs for quotas, the rest %u SMs\n", st.partitionSms,
              st.partitionRemainderSms);
  EXPECT_EQ(st.partitionSms, 64u);
  EXPECT_GE(st.partitionRemainderSms, 60u); // 132 - 64, less a leftover a driver may not join
  EXPECT_LE(st.partitionSms + st.partitionRemainderSms, 132u);
  const uint32_t blocks = 132 * 8;
  auto plainA = pipeline({.arenaBytes = 2 * MiB, .name = "plain-a"});
  auto plainB = pipeline({.arenaBytes = 2 * MiB, .name = "plain-b"});
  auto q1 = pipeline({.arenaBytes = 2 * MiB, .name = "quota-1", .smCount = 32});
  auto q2 = pipeline({.arenaBytes = 2 * MiB, .name = "quota-2", .smCount = 32});
  ASSERT_TRUE(plainA && plainB && q1 && q2);
  EXPECT_EQ(plainA->partitionSms(), st.partitionRemainderSms);
  auto over = rt->createPipeline({.arenaBytes = 2 * MiB, .name = "over", .smCount = 8});
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code(), ErrorCode::CapacityExceeded) << over.error().describe();
  EXPECT_NE(over.error().message().find("64 of 64 SMs are committed"), std::string::npos)
      << over.error().message();
  std::set<uint32_t> rest, quotas;
  // Round 1: all four at once. Round 2: quota-1 left, quota-3 came, plain-b is new.
  for (int round = 1; round <= 2; ++round) {
    std::vector<Pipeline *> plain = {plainA.get(), plainB.get()}, quota = {q1.get(), q2.get()};
    std::vector<Buffer> outs;
    for (Pipeline *p : plain)
      outs.push_back(*p->allocate(blocks * 4));
    for (Pipeline *p : quota)
      outs.push_back(*p->allocate(blocks * 4));
    std::vector<Pipeline *> all = plain;
    all.insert(all.end(), quota.begin(), quota.end());
    for (size_t i = 0; i < all.size(); ++i)
      ASSERT_TRUE(launchProbe(*all[i], outs[i], blocks, 500));
    std::set<uint32_t> roundRest, roundQuotas;
    for (size_t i = 0; i < all.size(); ++i) {
      ASSERT_TRUE(all[i]->synchronize());
      auto s = smsOf(*all[i], outs[i], blocks);
      (i < plain.size() ? roundRest : roundQuotas).insert(s.begin(), s.end());
      ASSERT_TRUE(all[i]->free(outs[i]));
    }
    std::size_t shared = 0;
    for (uint32_t sm : roundRest)
      shared += roundQuotas.count(sm);
    std::printf("[partition] round %d: pipelines without a quota on %zu SMs, quota pipelines "
                "on %zu SMs, shared %zu\n",
                round, roundRest.size(), roundQuotas.size(), shared);
    EXPECT_EQ(shared, 0u) << "a pipeline without a quota ran on a quota pipeline's SM; rest "
                          << list(roundRest) << " quotas " << list(roundQuotas);
    // Non-vacuous: the grids spread over (nearly) all of their SMs.
    EXPECT_GT(roundRest.size(), st.partitionRemainderSms * 9 / 10);
    EXPECT_LE(roundRest.size(), st.partitionRemainderSms);
    EXPECT_GT(roundQuotas.size(), 56u);
    EXPECT_LE(roundQuotas.size(), 64u);
    rest.insert(roundRest.begin(), roundRest.end());
    quotas.insert(roundQuotas.begin(), roundQuotas.end());
    if (round == 1) {
      q1.reset();
      q1 = pipeline({.arenaBytes = 2 * MiB, .name = "quota-3", .smCount = 32});
      plainB = pipeline({.arenaBytes = 2 * MiB, .name = "plain-c"});
      ASSERT_TRUE(q1 && plainB);
    }
  }
  std::size_t shared = 0;
  for (uint32_t sm : rest)
    shared += quotas.count(sm);
  std::printf("[partition] both rounds: rest %zu SMs, quotas %zu SMs, shared %zu\n", rest.size(),
              quotas.size(), shared);
  EXPECT_EQ(shared, 0u);
  EXPECT_TRUE(runVadd(*plainA, kernel(vaddApp, "vadd"), 100000, 8));
}
