// The runtime's watchdog (review R5-F3), the caps on tenant-set timeouts, the drain of
// a starved quiet section, control-block reuse (R5-F5) and the module caps (R5-F6),
// on the stand-in driver (bench/mock) in hold + waiting mode: held kernels run until
// their cancel word is set; module loads wait (and block every other driver call)
// while one runs. Runs only with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH).
#include "DeviceActivity.h"
#include "MockDriverFixture.h"
#include "Watchdog.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <vector>
#include <string>
#include <thread>

using namespace Atoll;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kBitcode = std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/runtime_kernels.bc";

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

bool contains(const Error &e, std::string_view what) {
  return e.message().find(what) != std::string::npos;
}

class WatchdogMock : public atoll_test::MockDriverTest {
protected:
  WatchdogMock() : MockDriverTest(/*deferredSets=*/true) {}
  /// A runtime with the app loaded; `o` as given.
  std::unique_ptr<Runtime> runtime(RuntimeOptions o) {
    auto rt = Runtime::create(o);
    EXPECT_TRUE(rt) << rt.error().describe();
    if (!rt)
      return nullptr;
    auto a = (*rt)->loadApplicationFile(kBitcode);
    EXPECT_TRUE(a) << a.error().describe();
    app = a ? *a : nullptr;
    return std::move(*rt);
  }
  /// Launches vadd (held while hold mode is on) on `p`.
  Status launch(Pipeline &p) {
    auto x = p.allocate(64), y = p.allocate(64);
    if (!x || !y)
      return Error(ErrorCode::ArenaExhausted, "test buffers");
    auto k = app->kernel("vadd");
    return p.launch(*k, {Dim3(1), Dim3(16)}, *x, *x, *y, 16);
  }
  /// Waits until `p` is idle, at most `limit`: the time it took, or -1.
  static double untilIdle(Pipeline &p, std::chrono::milliseconds limit) {
    auto t0 = Clock::now();
    while (msSince(t0) < double(limit.count())) {
      auto i = p.idle();
      if (i && *i)
        return msSince(t0);
      std::this_thread::sleep_for(1ms);
    }
    return -1;
  }
  std::shared_ptr<Application> app;
};

} // namespace

// The reviewer's lazy_timeout: tenant A launches a kernel that does not end and never
// waits. The watchdog cancels it within its timeout plus slack, another tenant's load
// (which needs a quiet device) then succeeds, A's next call reports the Timeout and A
// is usable again. No waiting driver call is made while the kernel runs.
TEST_F(WatchdogMock, ALazyTenantsKernelIsCancelledWithoutAnyoneWaiting) {
  auto rt = runtime({.defaultTimeout = 300ms, .loadTimeout = 5000ms});
  ASSERT_TRUE(rt && app);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .name = "A"});
  ASSERT_TRUE(a) << a.error().describe();
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  ASSERT_TRUE(launch(**a));
  ASSERT_FALSE(*(*a)->idle()) << "the mock did not hold the kernel";
  // Tenant B loads meanwhile (a cache miss: compiled first): the load needs a quiet
  // device, possible only once A's kernel is gone.
  std::optional<Result<std::shared_ptr<Application>>> b;
  std::thread loader([&] {
    b.emplace(rt->loadApplicationFile(kBitcode, {.clamping = Clamping::ModuloBased, .name = "B"}));
  });
  const double cancelMs = untilIdle(**a, 3000ms);
  loader.join();
  std::printf("[watchdog-mock] A's kernel cancelled after %.1f ms (timeout 300 ms); B's load: %s\n",
              cancelMs, *b ? "ok" : (*b).error().describe().c_str());
  ASSERT_GE(cancelMs, 0.0) << "nobody cancelled A's kernel";
  EXPECT_GE(cancelMs, 290.0) << "the kernel was cancelled before its timeout";
  EXPECT_LT(cancelMs, 300.0 + 300.0) << "the watchdog's slack is too large";
  ASSERT_TRUE(*b) << (*b).error().describe();
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting driver call was made while a kernel ran";
  EXPECT_EQ(rt->stats().watchdogCancels, 1u);
  // A's next call reports it; the pipeline is usable again.
  Status s = (*a)->synchronize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout) << s.error().describe();
  EXPECT_TRUE(contains(s.error(), "cancelled by the runtime's watchdog")) << s.error().describe();
  EXPECT_TRUE(contains(s.error(), "past its limit of 300 ms (its timeout)")) << s.error().describe();
  EXPECT_TRUE(contains(s.error(), "pipeline 'A'")) << s.error().describe();
  const PipelineStats st = (*a)->stats();
  EXPECT_EQ(st.watchdogCancels, 1u);
  EXPECT_EQ(st.timeouts, 1u);
  EXPECT_EQ(st.cancellations, 1u);
  EXPECT_FALSE((*a)->wedged());
  mock.hold(0);
  EXPECT_TRUE(launch(**a));
  EXPECT_TRUE((*a)->synchronize()) << "the pipeline is not usable after the watchdog's cancel";
  EXPECT_EQ((*a)->stats().watchdogCancels, 1u);
}

// The next call that reports it may be a launch: it is refused (Timeout), the reset is
// queued, and the launch after it runs normally.
TEST_F(WatchdogMock, TheNextLaunchReportsTheWatchdogsCancel) {
  auto rt = runtime({.defaultTimeout = 100ms});
  ASSERT_TRUE(rt && app);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .name = "A"});
  ASSERT_TRUE(a);
  mock.hold(1);
  ASSERT_TRUE(launch(**a));
  EXPECT_GE(untilIdle(**a, 1000ms), 0.0) << "the watchdog did not cancel the kernel";
  Status s = launch(**a);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_TRUE(contains(s.error(), "cancelled by the runtime's watchdog")) << s.error().describe();
  mock.hold(0);
  EXPECT_TRUE(launch(**a));
  EXPECT_TRUE((*a)->synchronize());
}

// A synchronize() that is waiting when the watchdog cancels (its own deadline comes
// later: it started after the work) reports the cancel, never success.
TEST_F(WatchdogMock, AWaiterSeesTheWatchdogsCancelAsTimeout) {
  auto rt = runtime({.defaultTimeout = 300ms});
  ASSERT_TRUE(rt && app);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20});
  ASSERT_TRUE(a);
  mock.hold(1);
  ASSERT_TRUE(launch(**a));
  std::this_thread::sleep_for(150ms);
  const auto t0 = Clock::now();
  Status s = (*a)->synchronize();
  const double ms = msSince(t0);
  ASSERT_FALSE(s) << "cancelled work was reported as finished";
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_TRUE(contains(s.error(), "cancelled by the runtime's watchdog")) << s.error().describe();
  EXPECT_LT(ms, 290.0) << "the waiter's own timeout fired, not the watchdog";
  EXPECT_EQ((*a)->stats().watchdogCancels, 1u);
  mock.hold(0);
  EXPECT_TRUE(launch(**a));
  EXPECT_TRUE((*a)->synchronize());
}

// Negative: a busy period ends whenever the pipeline sees its stream at rest; a
// tenant whose work rests (here: cancelled and relaunched every 100 ms, 8 times,
// longer than its 300 ms timeout in all) is never cancelled by the watchdog, nor is
// work that ends before its timeout.
TEST_F(WatchdogMock, WorkThatRestsOrEndsInTimeIsNotCancelled) {
  auto rt = runtime({.defaultTimeout = 300ms});
  ASSERT_TRUE(rt && app);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20});
  ASSERT_TRUE(a);
  mock.hold(1);
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(launch(**a));
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE((*a)->cancel()) << "round " << i;
  }
  ASSERT_TRUE(launch(**a));
  std::this_thread::sleep_for(150ms);
  mock.hold(0); // ends on its own within its timeout
  std::this_thread::sleep_for(400ms);
  EXPECT_TRUE((*a)->synchronize());
  EXPECT_EQ((*a)->stats().watchdogCancels, 0u);
  EXPECT_EQ(rt->stats().watchdogCancels, 0u);
}

// The cooperative policy (cancelOnTimeout = false): a waiting caller's timeout leaves
// the work running (wedged), but the watchdog still cancels it at
// RuntimeOptions::maxBusyTime: no kernel keeps the device for ever.
TEST_F(WatchdogMock, CooperativePipelinesAreCancelledAtMaxBusyTime) {
  auto rt = runtime({.defaultTimeout = 100ms, .maxBusyTime = 700ms});
  ASSERT_TRUE(rt && app);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .cancelOnTimeout = false});
  ASSERT_TRUE(a);
  mock.hold(1);
  const auto t0 = Clock::now();
  ASSERT_TRUE(launch(**a));
  Status s = (*a)->synchronize();
  ASSERT_FALSE(s);
  EXPECT_TRUE(contains(s.error(), "wedged")) << s.error().describe();
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(*(*a)->idle()) << "a cooperative pipeline was cancelled at its timeout";
  EXPECT_EQ(rt->stats().watchdogCancels, 0u);
  const double idleAfter = untilIdle(**a, 2000ms);
  ASSERT_GE(idleAfter, 0.0) << "the watchdog did not cancel at maxBusyTime";
  const double total = msSince(t0);
  std::printf("[watchdog-mock] cooperative pipeline cancelled after %.1f ms (maxBusyTime 700)\n",
              total);
  EXPECT_GE(total, 690.0);
  EXPECT_LT(total, 700.0 + 500.0);
  s = launch(**a);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_TRUE(contains(s.error(), "RuntimeOptions::maxBusyTime")) << s.error().describe();
  EXPECT_EQ((*a)->stats().watchdogCancels, 1u);
}

// The caps on what tenants (and the service) may set, each refusal with its message.
TEST_F(WatchdogMock, TimeoutCapsAreEnforcedWithTypedErrors) {
  auto expectRefused = [](const Error &e, std::string_view what) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.describe();
    EXPECT_TRUE(contains(e, what)) << e.describe();
  };
  {
    auto r = Runtime::create({.defaultTimeout = 20000ms, .maxTimeout = 10000ms});
    ASSERT_FALSE(r);
    expectRefused(r.error(), "RuntimeOptions::defaultTimeout (20000 ms) exceeds "
                             "RuntimeOptions::maxTimeout (10000 ms)");
  }
  for (auto [field, o] : {std::pair{"maxTimeout", RuntimeOptions{.maxTimeout = 0ms}},
                          std::pair{"maxCancelDeadline", RuntimeOptions{.maxCancelDeadline = 0ms}},
                          std::pair{"maxBusyTime", RuntimeOptions{.maxBusyTime = -1ms}},
                          std::pair{"maxKernelsPerModule", RuntimeOptions{.maxKernelsPerModule = 0}},
                          std::pair{"maxCubinBytes", RuntimeOptions{.maxCubinBytes = 0}},
                          std::pair{"moduleMemoryBudget",
                                    RuntimeOptions{.moduleMemoryBudget = 0}}}) {
    auto r = Runtime::create(o);
    ASSERT_FALSE(r) << field;
    expectRefused(r.error(), std::string("RuntimeOptions::") + field + " must be positive");
  }
  auto rt = runtime({.defaultTimeout = 1000ms, .maxTimeout = 5000ms, .maxCancelDeadline = 2000ms});
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.timeout = 5001ms, .name = "greedy"});
  ASSERT_FALSE(p);
  expectRefused(p.error(), "PipelineOptions::timeout (5001 ms) exceeds the runtime's "
                           "RuntimeOptions::maxTimeout (5000 ms)");
  EXPECT_TRUE(contains(p.error(), "pipeline 'greedy'")) << p.error().describe();
  p = rt->createPipeline({.cancelDeadline = 2001ms});
  ASSERT_FALSE(p);
  expectRefused(p.error(), "PipelineOptions::cancelDeadline (2001 ms) exceeds the runtime's "
                           "RuntimeOptions::maxCancelDeadline (2000 ms)");
  p = rt->createPipeline({.cancelDeadline = -1ms});
  ASSERT_FALSE(p);
  expectRefused(p.error(), "PipelineOptions::cancelDeadline is negative");
  // At the caps: accepted.
  EXPECT_TRUE(rt->createPipeline({.timeout = 5000ms, .cancelDeadline = 2000ms}));
  auto a = rt->loadApplicationFile(kBitcode, {.timeout = 5001ms});
  ASSERT_FALSE(a);
  expectRefused(a.error(), "AppOptions::timeout (5001 ms) exceeds the runtime's "
                           "RuntimeOptions::maxTimeout (5000 ms)");
  EXPECT_TRUE(rt->loadApplicationFile(kBitcode, {.timeout = 5000ms}));
  // A service may lift the caps (milliseconds::max()): saturated, never an overflow
  // into an immediate cancel.
  constexpr auto kMax = std::chrono::milliseconds::max();
  auto open = runtime({.maxTimeout = kMax, .maxCancelDeadline = kMax, .maxBusyTime = kMax});
  ASSERT_TRUE(open && app);
  auto p2 = open->createPipeline({.arenaBytes = 1 << 20, .timeout = kMax, .cancelDeadline = kMax});
  ASSERT_TRUE(p2) << p2.error().describe();
  mock.hold(1);
  ASSERT_TRUE(launch(**p2));
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(*(*p2)->idle()) << "a pipeline with an unbounded timeout was cancelled";
  EXPECT_EQ(open->stats().watchdogCancels, 0u);
  ASSERT_TRUE((*p2)->cancel());
  mock.hold(0);
}

// R5-F6: a module over the kernel or cubin cap is refused before its load (which
// would hold every tenant's launches); at the cap it loads.
TEST_F(WatchdogMock, ModuleCapsRefuseLargeModules) {
  auto rt = Runtime::create({.maxKernelsPerModule = 1});
  ASSERT_TRUE(rt);
  auto a = (*rt)->loadApplicationFile(kBitcode);
  ASSERT_FALSE(a) << "a module of several kernels passed maxKernelsPerModule = 1";
  EXPECT_EQ(a.error().code(), ErrorCode::CapacityExceeded) << a.error().describe();
  EXPECT_TRUE(contains(a.error(), "kernels; at most 1 are loaded "
                                  "(RuntimeOptions::maxKernelsPerModule)"))
      << a.error().describe();
  rt = Runtime::create({.maxCubinBytes = 64});
  ASSERT_TRUE(rt);
  a = (*rt)->loadApplicationFile(kBitcode);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code(), ErrorCode::CapacityExceeded) << a.error().describe();
  EXPECT_TRUE(contains(a.error(), "bytes; at most 64 are loaded (RuntimeOptions::maxCubinBytes)"))
      << a.error().describe();
  rt = Runtime::create({.maxKernelsPerModule = 512, .maxCubinBytes = 32u << 20});
  ASSERT_TRUE(rt);
  a = (*rt)->loadApplicationFile(kBitcode);
  EXPECT_TRUE(a) << a.error().describe();
}

// R7-F10 with a device: a loaded module keeps no PTX unless RuntimeOptions::keepPtx
// asks (then it is charged too); its cubin is charged to moduleMemoryBudget, and a
// load past the budget is refused before the driver sees it, naming the application.
TEST_F(WatchdogMock, LoadedModulesKeepNoPtxAndAreChargedTheirCubin) {
  auto rt = Runtime::create({});
  ASSERT_TRUE(rt);
  auto a = (*rt)->loadApplicationFile(kBitcode);
  ASSERT_TRUE(a) << a.error().describe();
  EXPECT_TRUE((*a)->ptx().empty()) << "the PTX was kept without keepPtx";
  uint64_t without = (*rt)->stats().moduleBytes;
  EXPECT_GT(without, 1024u) << "the cubin is charged";
  auto keep = Runtime::create({.keepPtx = true});
  ASSERT_TRUE(keep);
  auto k = (*keep)->loadApplicationFile(kBitcode);
  ASSERT_TRUE(k) << k.error().describe();
  ASSERT_FALSE((*k)->ptx().empty());
  EXPECT_NE((*k)->ptx().find(".entry vadd("), std::string::npos);
  EXPECT_EQ((*keep)->stats().moduleBytes, without + (*k)->ptx().size());
  auto small = Runtime::create({.moduleMemoryBudget = without - 1});
  ASSERT_TRUE(small);
  auto refused = (*small)->loadApplicationFile(kBitcode, {.name = "tenant-b"});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::CapacityExceeded) << refused.error().describe();
  EXPECT_TRUE(contains(refused.error(), "application 'tenant-b': the module needs " +
                                            std::to_string(without) + " bytes of service memory"))
      << refused.error().describe();
  EXPECT_EQ((*small)->stats().moduleBytes, 0u);
  EXPECT_EQ((*small)->stats().moduleRefusals, 1u);
}

// Starvation: two tenants keep the device busy in turns (each launches, times out
// after 300 ms, is cancelled and launches again, half a period apart), so the device
// is never quiet on its own. After kStarveAfter the load drains: the gate closes, the
// busy periods end, the load runs; the tenants go on afterwards.
TEST_F(WatchdogMock, AStarvedLoadDrainsTheDeviceWithinItsBound) {
  auto rt = runtime({.defaultTimeout = 300ms, .loadTimeout = 10000ms,
                     .maxCancelDeadline = 1000ms, .maxBusyTime = 1000ms});
  ASSERT_TRUE(rt && app);
  auto &activity = detail::DeviceActivity::of(rt->device().ordinal);
  const uint64_t drainsBefore = activity.drains();
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .name = "A"});
  auto b = rt->createPipeline({.arenaBytes = 1 << 20, .name = "B"});
  ASSERT_TRUE(a && b);
  mock.hold(1);
  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0};
  auto tenant = [&](Pipeline &p) {
    while (!stop.load()) {
      if (launch(p))
        (void)p.synchronize(); // Timeout after 300 ms: cancelled
      rounds++;
    }
  };
  std::thread ta(tenant, std::ref(**a));
  std::this_thread::sleep_for(150ms);
  std::thread tb(tenant, std::ref(**b));
  std::this_thread::sleep_for(100ms);
  // Compiled on this thread first; timed from the queued driver load on.
  std::ifstream in(kBitcode, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(bytes.empty());
  PendingApplication pending = rt->loadApplicationAsync(bytes, {.clamping = Clamping::ModuloBased});
  const auto t0 = Clock::now();
  auto loaded = pending.wait(10000ms);
  const double ms = msSince(t0);
  const int roundsAtLoad = rounds.load();
  std::this_thread::sleep_for(700ms);
  stop = true;
  mock.hold(0);
  ta.join();
  tb.join();
  std::printf("[watchdog-mock] starved load: %.1f ms (drain after %lld ms), %d tenant rounds\n",
              ms, static_cast<long long>(detail::DeviceActivity::kStarveAfter.count()),
              roundsAtLoad);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_GE(activity.drains(), drainsBefore + 1) << "no drain: the load was not starved";
  // Bound: kStarveAfter + one drain (here the busy periods end within 300 ms).
  EXPECT_LT(ms, double(detail::DeviceActivity::kStarveAfter.count()) + 1000.0);
  EXPECT_GT(rounds.load(), roundsAtLoad) << "the tenants did not go on after the drain";
}

// R5-F5: a control-block slot is reused only once every write to it has landed. The
// old owner's cancel set (at its teardown, on the control stream) is held back by the
// stand-in driver while its kernel ends on its own; the new pipeline created then must
// not get that slot, or the late set ends the new owner's kernel (which then
// "succeeds" early, unreported).
TEST_F(WatchdogMock, AControlSlotIsNotReusedWhileAnEarlierOwnersSetIsQueued) {
  auto rt = runtime({});
  ASSERT_TRUE(rt && app);
  mock.hold(1);
  {
    auto old = rt->createPipeline({.arenaBytes = 1 << 20, .name = "old"});
    ASSERT_TRUE(old);
    ASSERT_TRUE(launch(**old));
    mock.defer(1); // its teardown's cancel set stays queued on the control stream
  }
  mock.hold(0); // the old kernel ends on its own
  mock.hold(1);
  auto next = rt->createPipeline({.arenaBytes = 1 << 20, .name = "next"});
  ASSERT_TRUE(next);
  ASSERT_TRUE(launch(**next));
  ASSERT_FALSE(*(*next)->idle());
  mock.defer(0); // the late set lands
  std::this_thread::sleep_for(20ms);
  auto idle = (*next)->idle();
  ASSERT_TRUE(idle);
  EXPECT_FALSE(*idle) << "the earlier owner's late cancel set ended the new owner's kernel";
  mock.hold(0);
  EXPECT_TRUE((*next)->synchronize());
}
