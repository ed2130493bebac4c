// Preemption (issue 15): cancel(), cancelling timeouts, the destruction of a busy
// pipeline, and fuel, on kernels that never end by themselves. The time bounds are
// loose (the tests also run under compute-sanitizer); atoll-bench --only=cancel
// measures the latency.
#include "RuntimeGpuUtil.h"
#include "TestTime.h"

#include <thread>

using namespace Atoll;
using namespace atoll_test;

namespace {

class Preemption : public RuntimeGpu {};

TEST_F(Preemption, CancelEndsAGridFillingSpinAndThePipelineWorksAgain) {
  auto app = load("preempt_kernels.bc");
  auto vaddApp = load("runtime_kernels.bc");
  ASSERT_TRUE(app && vaddApp);
  auto p = pipeline({.arenaBytes = 8 * MiB, .name = "spinner"});
  auto other = pipeline({.arenaBytes = 16 * MiB, .name = "bystander"});
  ASSERT_TRUE(p && other);
  Buffer flag = *p->allocate(256), out = *p->allocate(1056 * 256 * 4);
  ASSERT_TRUE(p->fill(flag, 0, 256, 0));
  for (const char *name : {"spin_flag", "spin_register"}) {
    SCOPED_TRACE(name);
    Status l = std::string_view(name) == "spin_flag"
                   ? p->launch(kernel(app, name), {Dim3(1056), Dim3(256)}, flag)
                   : p->launch(kernel(app, name), {Dim3(1056), Dim3(256)}, out, 1u);
    ASSERT_TRUE(l);
    std::this_thread::sleep_for(milliseconds(20));
    ASSERT_FALSE(*p->idle()) << "the kernel should still spin";
    auto t0 = Clock::now();
    Status s = p->cancel(milliseconds(10000));
    double ms = msSince(t0);
    ASSERT_TRUE(s) << s.error().describe();
    EXPECT_LT(ms, 10000.0);
    EXPECT_TRUE(*p->idle());
    EXPECT_FALSE(p->wedged());
    EXPECT_TRUE(p->synchronize());
    // The next launch is not cancelled: the control block was reset.
    EXPECT_TRUE(runVadd(*p, kernel(vaddApp, "vadd"), 10000, 3));
  }
  EXPECT_EQ(p->stats().cancellations, 2u);
  EXPECT_TRUE(runVadd(*other, kernel(vaddApp, "vadd"), 100000, 4));
  // Nothing to cancel: OK at once.
  EXPECT_TRUE(p->cancel());
}

TEST_F(Preemption, TimeoutCancelsByDefault) {
  auto app = load("preempt_kernels.bc");
  ASSERT_TRUE(app);
  auto p = pipeline({.arenaBytes = 4 * MiB, .timeout = milliseconds(200), .name = "spinner",
                     .cancelDeadline = milliseconds(10000)});
  ASSERT_TRUE(p);
  Buffer flag = *p->allocate(256);
  ASSERT_TRUE(p->fill(flag, 0, 256, 0));
  ASSERT_TRUE(p->launch(kernel(app, "spin_flag"), {Dim3(264), Dim3(256)}, flag));
  auto t0 = Clock::now();
  Status s = p->synchronize();
  double ms = msSince(t0);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_NE(s.error().message().find("cancelled"), std::string::npos) << s.error().message();
  EXPECT_GE(ms, 190.0);
  EXPECT_LT(ms, 10200.0);
  EXPECT_FALSE(p->wedged()) << "the cancelled kernel has ended";
  EXPECT_EQ(p->stats().timeouts, 1u);
  EXPECT_EQ(p->stats().cancellations, 1u);
  ASSERT_TRUE(p->launch(kernel(app, "spin_flag"), {Dim3(1), Dim3(32)}, flag));
  EXPECT_FALSE(p->synchronize()); // the second one is cancelled as well
  EXPECT_FALSE(p->wedged());
}

TEST_F(Preemption, ConcurrentSynchronizeReportsCancelled) {
  auto app = load("preempt_kernels.bc");
  ASSERT_TRUE(app);
  auto p = pipeline({.arenaBytes = 4 * MiB, .timeout = milliseconds(5000)});
  ASSERT_TRUE(p);
  Buffer flag = *p->allocate(256);
  ASSERT_TRUE(p->fill(flag, 0, 256, 0));
  ASSERT_TRUE(p->launch(kernel(app, "spin_flag"), {Dim3(8), Dim3(256)}, flag));
  Status waited = Status();
  std::thread waiter([&] { waited = p->synchronize(); });
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_TRUE(p->cancel(milliseconds(10000)));
  waiter.join();
  ASSERT_FALSE(waited);
  EXPECT_EQ(waited.error().code(), ErrorCode::Cancelled);
}

TEST_F(Preemption, DestroyingABusyPipelineCancelsItsWork) {
  auto app = load("preempt_kernels.bc");
  ASSERT_TRUE(app);
  {
    auto p = pipeline({.arenaBytes = 8 * MiB});
    ASSERT_TRUE(p);
    Buffer flag = *p->allocate(256);
    ASSERT_TRUE(p->fill(flag, 0, 256, 0));
    ASSERT_TRUE(p->launch(kernel(app, "spin_flag"), {Dim3(1056), Dim3(256)}, flag));
    std::this_thread::sleep_for(milliseconds(20));
  }
  // The quarantined arena drains as soon as the cancelled grid has left.
  auto t0 = Clock::now();
  while (rt->collect() > 0 && msSince(t0) < 10000)
    std::this_thread::sleep_for(milliseconds(1));
  EXPECT_EQ(rt->stats().quarantinedArenas, 0u) << "the destroyed pipeline's kernel still runs";
}

TEST_F(Preemption, FuelBoundsEveryThreadDeterministically) {
  auto app = load("preempt_kernels.bc");
  ASSERT_TRUE(app);
  auto p = pipeline({.arenaBytes = 4 * MiB});
  ASSERT_TRUE(p);
  const int n = 256;
  std::vector<uint32_t> iters(n);
  for (int t = 0; t < n; ++t)
    iters[t] = uint32_t(t) * 3; // never 50
  Buffer I = *p->allocate(n * 4), R = *p->allocate(n * 4);
  ASSERT_TRUE(p->copyToDevice(I, iters));
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(p->fill(R, 0, n * 4, 0));
    LaunchConfig cfg{Dim3(1), Dim3(n)};
    cfg.fuel = 50;
    ASSERT_TRUE(p->launch(kernel(app, "count_to"), cfg, I, R));
    Status s = p->synchronize();
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code(), ErrorCode::FuelExhausted);
    std::vector<uint32_t> reached(n);
    ASSERT_TRUE(p->copyToHost(reached, R));
    for (int t = 0; t < n; ++t)
      ASSERT_EQ(reached[t], std::min<uint32_t>(iters[t], 50)) << "thread " << t;
  }
  // Enough fuel, and then no fuel (unlimited): every thread completes, no error.
  for (uint64_t fuel : {uint64_t(1000), uint64_t(0)}) {
    ASSERT_TRUE(p->fill(R, 0, n * 4, 0));
    LaunchConfig cfg{Dim3(1), Dim3(n)};
    cfg.fuel = fuel;
    ASSERT_TRUE(p->launch(kernel(app, "count_to"), cfg, I, R));
    ASSERT_TRUE(p->synchronize()) << "fuel " << fuel;
    std::vector<uint32_t> reached(n);
    ASSERT_TRUE(p->copyToHost(reached, R));
    for (int t = 0; t < n; ++t)
      ASSERT_EQ(reached[t], iters[t]) << "thread " << t << ", fuel " << fuel;
  }
  EXPECT_EQ(p->stats().fuelExhausted, 2u);
}

// A charged loop is charged its count before it starts: with fuel 50, thread t
// (count 3t) finishes when 3t < 50 and otherwise leaves before the loop (nothing
// stored); the same result twice; with fuel 1000 (or unlimited) every thread ends.
TEST_F(Preemption, FuelChargesAChargedLoopBeforeItStarts) {
  auto app = load("preempt_kernels.bc");
  ASSERT_TRUE(app);
  auto p = pipeline({.arenaBytes = 4 * MiB});
  ASSERT_TRUE(p);
  const int n = 256;
  std::vector<uint32_t> iters(n), want(n);
  for (int t = 0; t < n; ++t) {
    iters[t] = uint32_t(t) * 3;
    uint32_t v = uint32_t(t);
    for (uint32_t i = 0; i < iters[t]; ++i)
      v = v * 1664525u + 1013904223u;
    want[t] = v;
  }
  Buffer I = *p->allocate(n * 4), R = *p->allocate(n * 4);
  ASSERT_TRUE(p->copyToDevice(I, iters));
  for (uint64_t fuel : {uint64_t(50), uint64_t(50), uint64_t(1000), uint64_t(0)}) {
    ASSERT_TRUE(p->fill(R, 0, n * 4, 0));
    LaunchConfig cfg{Dim3(1), Dim3(n)};
    cfg.fuel = fuel;
    ASSERT_TRUE(p->launch(kernel(app, "lcg_charged"), cfg, I, R));
    Status s = p->synchronize();
    if (fuel == 50) {
      ASSERT_FALSE(s);
      EXPECT_EQ(s.error().code(), ErrorCode::FuelExhausted);
    } else {
      ASSERT_TRUE(s) << "fuel " << fuel;
    }
    std::vector<uint32_t> got(n);
    ASSERT_TRUE(p->copyToHost(got, R));
    for (int t = 0; t < n; ++t) {
      bool ends = fuel != 50 || iters[t] < 50;
      ASSERT_EQ(got[t], ends ? want[t] : 0u) << "thread " << t << ", fuel " << fuel;
    }
  }
}

} // namespace
