// The host-stall scenario of test/gpu/HostStallGpuTest.cpp on the stand-in driver
// (bench/mock, hold + waiting mode): a kernel that runs until the test ends it, and
// the driver 580 behaviour measured on the H200 (docs/architecture.md, "Driver calls
// that wait"): module loads/unloads, cuMemFree, cuMemFreeHost, cuMemHostUnregister
// and the primary context's release wait for any running kernel, and while one
// thread waits in such a call every other thread's driver call waits too. Every
// call of the other tenants must return within its bound all the same, and no
// waiting call may be made while a kernel runs (the mock counts those that waited).
// Runs only with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH).
#include "DeviceActivity.h"
#include "MockDriverFixture.h"
#include "PipelineImpl.h"
#include "TimedCall.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

using namespace Atoll;
using namespace std::chrono_literals;
using atoll_test::Clock;
using atoll_test::Detached;
using atoll_test::msSince;

namespace {

/// Evicts unreferenced modules until `n` went (the loader thread drops its reference
/// to a just-loaded application a moment after the caller got it), at most 2 s.
size_t trimAtLeast(Runtime &rt, size_t n) {
  size_t evicted = rt.trimModuleCache();
  for (auto until = Clock::now() + 2s; evicted < n && Clock::now() < until;) {
    std::this_thread::sleep_for(1ms);
    evicted += rt.trimModuleCache();
  }
  return evicted;
}

const std::string kBitcode = std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/runtime_kernels.bc";

class HostStallMock : public atoll_test::MockDriverTest {
protected:
  /// Runs `fn` on another thread; returns how long it took (ms). Past `limit` the
  /// test fails, the held kernels end (which unblocks whatever waited for them) and
  /// the call gets 5 s more before the process ends: a failure, never a hang.
  double timed(const char *what, std::chrono::milliseconds limit, std::function<void()> fn) {
    return atoll_test::timedCall({"host-stall-mock", 52}, what, limit, std::move(fn),
                                 [this] { mock.hold(0); }, 5000ms);
  }
};

} // namespace

// The whole scenario of atoll-gpu-host-stall: tenant A's kernel runs (held) while
// another tenant evicts a cached module, misses the cache, creates pipelines, takes
// pinned memory, and tears down a second runtime of the same context. Nothing may
// block, and no waiting call may be issued while A's kernel runs.
TEST_F(HostStallMock, ALongKernelStallsNoOtherTenant) {
  RuntimeOptions o;
  o.loadTimeout = 300ms;
  o.shutdownDrainTimeout = 100ms;
  auto created = Runtime::create(o);
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto other = Runtime::create(o);
  ASSERT_TRUE(other) << other.error().describe();
  auto otherApp = (*other)->loadApplicationFile(kBitcode);
  ASSERT_TRUE(otherApp) << otherApp.error().describe();
  auto otherPipe = (*other)->createPipeline({.arenaBytes = 1 << 20});
  ASSERT_TRUE(otherPipe) << otherPipe.error().describe();
  {
    auto evictable = rt->loadApplicationFile(kBitcode, {.optLevel = 1});
    ASSERT_TRUE(evictable) << evictable.error().describe();
  }
  // Pinned memory taken and released before: a block the runtime keeps.
  { ASSERT_TRUE(rt->allocateHost(4096)); }

  // Tenant A: a kernel that runs until the test ends it.
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms, .name = "tenant-a"});
  ASSERT_TRUE(a) << a.error().describe();
  auto x = (*a)->allocate(64), y = (*a)->allocate(64);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE((*a)->fill(*x, 0, 64, 0));
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  ASSERT_TRUE((*a)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  auto idle = (*a)->idle();
  ASSERT_TRUE(idle);
  ASSERT_FALSE(*idle) << "the mock did not hold the kernel";

  timed("trimModuleCache (evicts; the unload waits for idle)", 500ms,
        [&] { EXPECT_GE(trimAtLeast(*rt, 1), 1u); });
  timed("loadApplication, cache miss (Timeout after loadTimeout)", 300ms + 1000ms, [&] {
    auto miss = rt->loadApplicationFile(kBitcode, {.clamping = Clamping::ModuloBased});
    ASSERT_FALSE(miss) << "the module was loaded while a kernel ran";
    EXPECT_EQ(miss.error().code(), ErrorCode::Timeout) << miss.error().describe();
    EXPECT_NE(miss.error().message().find("did not finish within 300 ms"), std::string::npos)
        << miss.error().message();
  });
  timed("createPipeline + destroy x3 (tenant B)", 500ms, [&] {
    for (int i = 0; i < 3; ++i) {
      auto p = rt->createPipeline({.arenaBytes = 1 << 20});
      EXPECT_TRUE(p) << p.error().describe();
    }
  });
  timed("allocateHost(1 MiB) + release x3", 500ms, [&] {
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(rt->allocateHost(1 << 20));
  });
  timed("tenant B: vadd on its own pipeline (held too)", 500ms, [&] {
    auto p = rt->createPipeline({.arenaBytes = 1 << 20, .name = "tenant-b"});
    ASSERT_TRUE(p);
    auto bx = (*p)->allocate(64), by = (*p)->allocate(64);
    ASSERT_TRUE(bx && by);
    EXPECT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *bx, *bx, *by, 16));
    // Its pipeline goes with the kernel still running: cancelled at teardown.
  });
  // 2 x shutdownDrainTimeout (loader stop, pool drain) plus immediate calls.
  timed("teardown of another runtime (pipeline, app, runtime)", 100ms * 2 + 300ms, [&] {
    otherPipe->reset();
    otherApp->reset();
    other->reset();
  });
  const RuntimeStats during = rt->stats();
  EXPECT_GE(during.deferredReclaims, 1u) << "nothing was deferred: the test measured nothing";
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting driver call was made while a kernel ran";

  // A's kernel ends: the deferred unloads and frees run, the runtime loads again.
  mock.hold(0);
  EXPECT_TRUE((*a)->synchronize());
  auto deadline = Clock::now() + 5s;
  while (rt->stats().deferredReclaims > 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  const RuntimeStats after = rt->stats();
  std::printf("[host-stall-mock] deferred reclaims: %llu while the kernel ran, %llu after it "
              "ended; %llu leaked\n",
              static_cast<unsigned long long>(during.deferredReclaims),
              static_cast<unsigned long long>(after.deferredReclaims),
              static_cast<unsigned long long>(after.leakedReclaims));
  EXPECT_EQ(after.deferredReclaims, 0u) << "the deferred reclaims did not drain once idle";
  timed("loadApplication once idle", 2000ms, [&] {
    auto again = rt->loadApplicationFile(kBitcode, {.clamping = Clamping::ModuloBased});
    EXPECT_TRUE(again) << again.error().describe();
  });
  EXPECT_EQ(mock.waited(), waitedBefore);
}

// The teardown of the runtime whose own kernel does not end (not cancelled: the
// cooperative policy): bounded by twice shutdownDrainTimeout, nothing waited for.
TEST_F(HostStallMock, TeardownUnderItsOwnRunningKernelIsBounded) {
  RuntimeOptions o;
  o.shutdownDrainTimeout = 100ms;
  auto created = Runtime::create(o);
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto b = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 50ms, .cancelOnTimeout = false});
  ASSERT_TRUE(b);
  auto x = (*b)->allocate(64), y = (*b)->allocate(64);
  ASSERT_TRUE((*b)->fill(*x, 0, 64, 0));
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  ASSERT_TRUE((*b)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  Status s = (*b)->synchronize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout) << s.error().describe();
  timed("teardown of the runtime under its own running kernel", 100ms * 2 + 300ms, [&] {
    *vadd = Kernel();
    app->reset();
    b->reset();
    rt.reset();
  });
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting driver call was made while a kernel ran";
}

// A cancelled kernel ends within microseconds: the deferred reclaims run then, with
// no need for the kernel's own end (Pipeline::cancel, cancelOnTimeout).
TEST_F(HostStallMock, CancelledWorkLetsTheDeferredReclaimsRun) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms});
  ASSERT_TRUE(p);
  auto x = (*p)->allocate(64), y = (*p)->allocate(64);
  ASSERT_TRUE((*p)->fill(*x, 0, 64, 0));
  {
    auto evictable = rt->loadApplicationFile(kBitcode, {.optLevel = 1});
    ASSERT_TRUE(evictable) << evictable.error().describe();
  }
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  EXPECT_GE(trimAtLeast(*rt, 1), 1u);
  std::this_thread::sleep_for(50ms);
  EXPECT_GE(rt->stats().deferredReclaims, 1u) << "the unload ran under a running kernel";
  timed("cancel, then the deferred unload runs", 1000ms, [&] {
    EXPECT_TRUE((*p)->cancel());
    while (rt->stats().deferredReclaims > 0)
      std::this_thread::sleep_for(1ms);
  });
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting driver call was made while a kernel ran";
}

// The gate: while a quiet section runs, a launch waits for it (and only for it); a
// quiet section is refused while a registered stream has a kernel; a stream given up
// with work pending stays counted until it is idle, then it is destroyed.
TEST_F(HostStallMock, QuietSectionsAndTheLaunchGate) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms, .cancelOnTimeout = false});
  ASSERT_TRUE(p);
  auto x = (*p)->allocate(64), y = (*p)->allocate(64);
  ASSERT_TRUE((*p)->fill(*x, 0, 64, 0));
  auto &activity = detail::DeviceActivity::of(rt->device().ordinal);
  auto driver = Atoll::cuda::loadDriver();
  ASSERT_TRUE(driver) << driver.error().describe();
  const Atoll::cuda::DriverApi *api = *driver;
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  ASSERT_EQ(api->cuDeviceGet(&dev, rt->device().ordinal), CUDA_SUCCESS);
  ASSERT_EQ(api->cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
  ASSERT_EQ(api->cuCtxSetCurrent(ctx), CUDA_SUCCESS);
  const uint64_t gen = detail::DeviceRegistry::generation[rt->device().ordinal].load();

  // 1. A launch waits while a quiet section is open, and goes on when it ends.
  std::atomic<bool> launched{false};
  std::optional<Detached> launcher;
  {
    auto quiet = activity.tryQuiet(*api, gen, 0us);
    ASSERT_TRUE(quiet) << "no kernel runs, yet the quiet section was refused";
    launcher.emplace([&] {
      EXPECT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
      launched = true;
    });
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(launched) << "a kernel was launched during a quiet section";
  }
  ASSERT_TRUE(launcher->waitFor(2000ms)) << "the launch did not go on after the section";
  EXPECT_TRUE(launched);

  // 2. Refused while a kernel runs; the settle wait is bounded.
  mock.hold(1);
  ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  auto t = Clock::now();
  EXPECT_FALSE(activity.tryQuiet(*api, gen, 0us));
  EXPECT_FALSE(activity.tryQuiet(*api, gen, 20'000us));
  EXPECT_LT(msSince(t), 1000.0);

  // 3. The pipeline goes with its kernel still running, under the cooperative
  //    policy: destroying it cancels the kernel all the same (review R3-F8: nothing
  //    else could ever cancel it); its stream was kept counted and the next check
  //    finds it idle (the held kernel left at the cancel word) and destroys it.
  const size_t before = activity.streams();
  p->reset();
  EXPECT_EQ(activity.streams(), before) << "a stream with a running kernel was forgotten";
  EXPECT_TRUE(activity.tryQuiet(*api, gen, 0us))
      << "the destroyed pipeline's kernel was not cancelled (R3-F8)";
  EXPECT_EQ(activity.streams(), before - 1);
  mock.hold(0);
  api->cuDevicePrimaryCtxRelease(dev);
}

// The deferred queue is bounded: past its limit a waiting call is dropped and
// counted as leaked (the memory stays allocated, which is safe), never queued
// without bound while a kernel runs for ever.
TEST_F(HostStallMock, DeferredQueueIsBoundedAndLeaksAreCounted) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms});
  ASSERT_TRUE(p);
  auto x = (*p)->allocate(64), y = (*p)->allocate(64);
  ASSERT_TRUE((*p)->fill(*x, 0, 64, 0));
  for (unsigned opt = 0; opt < 4; ++opt) { // four cached modules to evict
    if (opt == 2)
      continue; // the default level: kept by `app`
    auto m = rt->loadApplicationFile(kBitcode, {.optLevel = opt});
    ASSERT_TRUE(m) << m.error().describe();
  }
  mock.hold(1);
  ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  auto &reclaimer = detail::Reclaimer::instance();
  const uint64_t queued = reclaimer.queued(), leaked = reclaimer.leaked();
  reclaimer.setLimitForTesting(queued + 1);
  EXPECT_GE(trimAtLeast(*rt, 3), 3u);
  EXPECT_EQ(reclaimer.queued(), queued + 1);
  EXPECT_GE(reclaimer.leaked(), leaked + 2);
  EXPECT_GE(rt->stats().leakedReclaims, leaked + 2);
  reclaimer.setLimitForTesting(0);
  mock.hold(0);
}

// Issue 18, item 5: a copy takes the caller's handles by value and checks them again
// after waiting (lock released) for the pipeline's work: a buffer freed meanwhile is
// a typed error, not a copy into freed memory.
TEST_F(HostStallMock, CopyRechecksABufferFreedWhileItWaited) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms});
  ASSERT_TRUE(p);
  auto x = (*p)->allocate(64), y = (*p)->allocate(64), victim = (*p)->allocate(4096);
  ASSERT_TRUE(x && y && victim);
  ASSERT_TRUE((*p)->fill(*x, 0, 64, 0));
  mock.hold(1);
  ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  Buffer handle = *victim;
  std::thread freer([&] {
    std::this_thread::sleep_for(50ms);
    EXPECT_TRUE((*p)->free(handle));
    std::this_thread::sleep_for(20ms);
    mock.hold(0);
  });
  std::vector<uint8_t> out(4096);
  Status s = (*p)->copyToHost(out.data(), handle, 0, out.size());
  freer.join();
  ASSERT_FALSE(s) << "the copy read a buffer freed while it waited";
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument) << s.error().describe();
  EXPECT_NE(s.error().message().find("not a live allocation"), std::string::npos)
      << s.error().message();
}

// Issue 18, item 7: createPipeline failing after the arena lease (std::bad_alloc from
// a test hook) gives the lease and the stream back, and no exception crosses the API.
TEST_F(HostStallMock, CreatePipelineFailureReleasesEverything) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto &activity = detail::DeviceActivity::of(rt->device().ordinal);
  const size_t streams = activity.streams();
  const RuntimeStats before = rt->stats();
  detail::failCreatePipelineAfterLease = true;
  Result<std::unique_ptr<Pipeline>> p = Error(ErrorCode::InvalidArgument, "unset");
  EXPECT_NO_THROW(p = rt->createPipeline({.arenaBytes = 1 << 20}));
  detail::failCreatePipelineAfterLease = false;
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code(), ErrorCode::CapacityExceeded) << p.error().describe();
  EXPECT_NE(p.error().message().find("out of host memory"), std::string::npos)
      << p.error().message();
  rt->collect();
  const RuntimeStats after = rt->stats();
  EXPECT_EQ(after.committedBytes, before.committedBytes) << "the lease leaked";
  EXPECT_EQ(after.livePipelines, before.livePipelines);
  EXPECT_EQ(activity.streams(), streams) << "the stream stayed registered";
  auto ok = rt->createPipeline({.arenaBytes = 1 << 20});
  EXPECT_TRUE(ok) << ok.error().describe();
}

// Review R3-F2: a pipeline destroyed while its launch runs gives its control-block slot
// back once that work has ended (quarantined like the arena, not dropped): more
// create/launch/destroy cycles than there are slots (16,384), every tenant can still
// create pipelines.
TEST_F(HostStallMock, ControlSlotsOfBusyPipelinesComeBack) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  mock.hold(1);
  for (int i = 0; i < 16384 + 200; ++i) {
    auto p = rt->createPipeline({.arenaBytes = 1 << 20});
    ASSERT_TRUE(p) << "cycle " << i << ": " << p.error().describe();
    auto x = (*p)->allocate(64), y = (*p)->allocate(64);
    ASSERT_TRUE(x && y);
    ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
    auto idle = (*p)->idle();
    ASSERT_TRUE(idle);
    ASSERT_FALSE(*idle) << "the mock did not hold the kernel: the test measures nothing";
  }
  auto innocent = rt->createPipeline({.arenaBytes = 1 << 20, .name = "innocent"});
  EXPECT_TRUE(innocent) << innocent.error().describe();
}

// Review R3-F7: the host bookkeeping of buffers is bounded per pipeline
// (PipelineOptions::maxBuffers): past it allocate() is CapacityExceeded naming the
// option; freeing one makes room again.
TEST_F(HostStallMock, LiveBuffersAreCappedPerPipeline) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  auto p = (*created)->createPipeline({.arenaBytes = 1 << 20, .maxBuffers = 8});
  ASSERT_TRUE(p) << p.error().describe();
  std::vector<Buffer> live;
  for (int i = 0; i < 8; ++i) {
    auto b = (*p)->allocate(256);
    ASSERT_TRUE(b) << "buffer " << i << ": " << b.error().describe();
    live.push_back(*b);
  }
  auto past = (*p)->allocate(256);
  ASSERT_FALSE(past) << "a ninth buffer past maxBuffers = 8";
  EXPECT_EQ(past.error().code(), ErrorCode::CapacityExceeded) << past.error().describe();
  EXPECT_NE(past.error().message().find("8 live buffers is the limit (PipelineOptions::maxBuffers)"),
            std::string::npos)
      << past.error().message();
  ASSERT_TRUE((*p)->free(live.back()));
  EXPECT_TRUE((*p)->allocate(256));
  // The default is 2^20: far more than a test needs, far less than arena / 256.
  auto q = (*created)->createPipeline({.arenaBytes = 1 << 20});
  ASSERT_TRUE(q);
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE((*q)->allocate(256));
}

// Review R3-F3: a released pinned block is not handed to the next caller while a
// transfer that named it may still run (here: a copy to the host queued behind a
// held kernel), or the next owner would read what the previous owner's copy writes
// into it. Once the transfer has ended the block is reused (the pool still works).
TEST_F(HostStallMock, APinnedBlockIsNotReusedWhileATransferMayRun) {
  auto created = Runtime::create();
  ASSERT_TRUE(created) << created.error().describe();
  std::unique_ptr<Runtime> rt = std::move(*created);
  auto app = rt->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto a = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms, .name = "owner"});
  ASSERT_TRUE(a) << a.error().describe();
  auto x = (*a)->allocate(4096), y = (*a)->allocate(4096);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE((*a)->fill(*x, 0, 4096, 0));

  auto first = rt->allocateHost(4096);
  ASSERT_TRUE(first) << first.error().describe();
  void *block = first->data();
  mock.hold(1);
  ASSERT_TRUE((*a)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  ASSERT_TRUE((*a)->copyToHostAsync(block, *y, 0, 4096)); // queued behind the kernel
  *first = HostMemory(); // released while the copy may still run

  auto next = rt->allocateHost(4096);
  ASSERT_TRUE(next) << next.error().describe();
  EXPECT_NE(next->data(), block) << "a block was reused while a copy into it was queued";

  mock.hold(0);
  ASSERT_TRUE((*a)->synchronize());
  auto later = rt->allocateHost(4096);
  ASSERT_TRUE(later) << later.error().describe();
  EXPECT_EQ(later->data(), block) << "a block whose transfers have ended was not reused";
  for (size_t i = 0; i < 4096; ++i)
    ASSERT_EQ(static_cast<const unsigned char *>(later->data())[i], 0) << "not zeroed at " << i;
}
