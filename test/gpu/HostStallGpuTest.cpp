// The host side under a hostile tenant (issue 18): while tenant A's kernel runs for
// seconds, other tenants' calls return within their documented bounds and their
// kernels keep running. Driver 580 makes module loads/unloads, cuMemFree,
// cuMemFreeHost and cuMemHostUnregister wait for any running kernel of the context
// (docs/architecture.md); the runtime keeps them off request paths and out of locks.
// Timing-sensitive tests are named *TimingSensitive* so that the memcheck pass
// (which slows everything) can leave them out (scripts/run-gpu.sh MEMCHECK_FILTER).
#include "PipelineImpl.h"
#include "RuntimeGpuUtil.h"
#include "TimedCall.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;
using atoll_test::bitcodePath;
using atoll_test::Clock;
using atoll_test::Detached;
using atoll_test::msSince;

namespace {

/// The timed calls of test/support/TimedCall.h, reporting as "[host-stall]" lines.
double timed(const char *what, std::chrono::milliseconds limit, std::function<void()> fn,
             const std::function<void()> &unblock = {}) {
  return atoll_test::timedCall({"host-stall", 58}, what, limit, std::move(fn), unblock, limit);
}
void finish(Detached &d, const char *what, std::chrono::milliseconds limit) {
  atoll_test::finish("host-stall", d, what, limit);
}

} // namespace

TEST(HostStall, CreatePipelineFailureReleasesEverything) {
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto before = (*rt)->stats();
  detail::failCreatePipelineAfterLease = true;
  Result<std::unique_ptr<Pipeline>> p = Error(ErrorCode::InvalidArgument, "unset");
  EXPECT_NO_THROW(p = (*rt)->createPipeline({.arenaBytes = 64 << 20}));
  detail::failCreatePipelineAfterLease = false;
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code(), ErrorCode::CapacityExceeded) << p.error().describe();
  (*rt)->collect();
  auto after = (*rt)->stats();
  EXPECT_EQ(after.committedBytes, before.committedBytes) << "the lease leaked";
  EXPECT_EQ(after.livePipelines, before.livePipelines);
  auto ok = (*rt)->createPipeline({.arenaBytes = 64 << 20});
  EXPECT_TRUE(ok) << ok.error().describe();
}

TEST(HostStall, HugeTimeoutsSaturate) {
  // milliseconds::max() used to overflow begin + timeout: the wait timed out at once
  // and wedged the pipeline. The service allows it (RuntimeOptions::maxTimeout).
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create({.maxTimeout = std::chrono::milliseconds::max(),
                             .maxBusyTime = std::chrono::milliseconds::max()});
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(bitcodePath("runtime_kernels.bc"));
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  ASSERT_TRUE(spin);
  auto p = (*rt)->createPipeline({.arenaBytes = 8 << 20, .timeout = std::chrono::milliseconds::max()});
  ASSERT_TRUE(p) << p.error().describe();
  auto flag = (*p)->allocate(4), result = (*p)->allocate(4);
  ASSERT_TRUE((*p)->fill(*flag, 0, 4, 0));
  ASSERT_TRUE((*p)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 50'000'000ull, *result));
  Status s = (*p)->synchronize();
  EXPECT_TRUE(s) << s.error().describe();
  EXPECT_FALSE((*p)->wedged());
}

// Review R3-F3: a released pinned block is not handed out again while a copy into
// it may still run (here behind a ~200 ms spin); once it has ended, it is reused,
// zeroed.
TEST(HostStall, APinnedBlockIsNotReusedWhileACopyIntoItMayRun) {
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(bitcodePath("runtime_kernels.bc"));
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  ASSERT_TRUE(spin);
  auto p = (*rt)->createPipeline({.arenaBytes = 8 << 20, .timeout = std::chrono::seconds(30)});
  ASSERT_TRUE(p) << p.error().describe();
  auto flag = (*p)->allocate(4), result = (*p)->allocate(4096);
  ASSERT_TRUE(flag && result);
  ASSERT_TRUE((*p)->fill(*flag, 0, 4, 0));
  ASSERT_TRUE((*p)->fill(*result, 0, 4096, 0xab));
  auto first = (*rt)->allocateHost(4096);
  ASSERT_TRUE(first) << first.error().describe();
  void *block = first->data();
  ASSERT_TRUE((*p)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 400'000'000ull, *result));
  ASSERT_TRUE((*p)->copyToHostAsync(block, *result, 0, 4096));
  *first = HostMemory(); // released while the copy is queued behind the spin
  auto next = (*rt)->allocateHost(4096);
  ASSERT_TRUE(next) << next.error().describe();
  auto idle = (*p)->idle();
  ASSERT_TRUE(idle);
  ASSERT_FALSE(*idle) << "the spin ended before the check: the test measured nothing";
  EXPECT_NE(next->data(), block) << "a block was reused while a copy into it was queued";
  ASSERT_TRUE((*p)->synchronize());
  auto later = (*rt)->allocateHost(4096);
  ASSERT_TRUE(later) << later.error().describe();
  EXPECT_EQ(later->data(), block) << "a block whose copies have ended was not reused";
  const auto *bytes = static_cast<const unsigned char *>(later->data());
  EXPECT_TRUE(std::all_of(bytes, bytes + 4096, [](unsigned char c) { return c == 0; }))
      << "a reused block kept the previous owner's data";
}

TEST(HostStallTimingSensitive, CopiesRecheckAfterWaiting) {
  // A synchronous (pageable) copy waits for the pipeline's earlier work with the lock
  // released. Meanwhile another thread of the tenant frees the buffer, or keeps
  // launching: after re-locking the copy sees it (typed error) or waits again within
  // its timeout; it never blocks under the lock behind a kernel. Launches never wait
  // under the lock either: a full driver queue would make cuLaunchKernel wait for the
  // pipeline's kernels, so a launch first waits (bounded, without the lock) for room.
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(bitcodePath("runtime_kernels.bc"));
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  ASSERT_TRUE(spin);
  // timeout 1000 ms, cancelDeadline 1000 ms (the default): a call that waits for
  // room or for idle returns within about 2000 ms.
  auto p = (*rt)->createPipeline({.arenaBytes = 8 << 20, .timeout = 1000ms});
  ASSERT_TRUE(p);
  auto flag = (*p)->allocate(4), result = (*p)->allocate(4), data = (*p)->allocate(4096);
  ASSERT_TRUE(flag && result && data);
  ASSERT_TRUE((*p)->fill(*flag, 0, 4, 0));

  // 1. The buffer is freed while the copy waits: InvalidArgument naming it.
  ASSERT_TRUE((*p)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 300'000'000ull, *result));
  Buffer victim = *data;
  std::atomic<bool> freed{false};
  Detached freer([&] {
    std::this_thread::sleep_for(100ms);
    freed = bool((*p)->free(victim));
  });
  std::vector<uint8_t> out(4096);
  Status s = Error(ErrorCode::InvalidArgument, "unset");
  timed("pageable copyToHost while the buffer is freed", 2000ms,
        [&] { s = (*p)->copyToHost(out.data(), victim, 0, out.size()); });
  finish(freer, "free() during a waiting copy", 2000ms);
  ASSERT_TRUE(freed);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument) << s.error().describe();
  EXPECT_NE(s.error().message().find("not a live allocation"), std::string::npos);
  ASSERT_TRUE((*p)->synchronize());

  // 2. Another thread keeps launching 200 ms kernels as fast as it can: the copy
  //    returns within timeout + cancelDeadline, done or Timeout, never stuck; every
  //    launch returns within that bound too (it waits for room in the queue, and the
  //    wait's timeout cancels the queued work), and the pipeline lock is never held
  //    for long (stats() takes it).
  auto buf = (*p)->allocate(4096);
  ASSERT_TRUE(buf);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> longestLaunchUs{0};
  std::atomic<uint64_t> launches{0}, refused{0};
  Detached launcher([&] {
    while (!stop) {
      auto t = Clock::now();
      Status l = (*p)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 200'000'000ull, *result);
      int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t).count();
      int64_t prev = longestLaunchUs.load();
      while (us > prev && !longestLaunchUs.compare_exchange_weak(prev, us)) {
      }
      ++launches;
      if (!l) {
        ++refused;
        EXPECT_EQ(l.error().code(), ErrorCode::Timeout) << l.error().describe();
        std::this_thread::sleep_for(5ms); // cancelled or wedged for a moment: again
      }
    }
  });
  auto stopLauncher = [&] { stop = true; };
  std::this_thread::sleep_for(50ms);
  timed("stats() x20 (takes the pipeline lock) during the launches", 100ms, [&] {
    for (int i = 0; i < 20; ++i)
      (void)(*p)->stats();
  }, stopLauncher);
  timed("pageable copyToHost while another thread launches", 2000ms + 1000ms, [&] {
    Status c = (*p)->copyToHost(out.data(), *buf, 0, out.size());
    if (!c)
      EXPECT_EQ(c.error().code(), ErrorCode::Timeout) << c.error().describe();
  }, stopLauncher);
  // Long enough for a queue to fill, time out and be cancelled at least once more.
  std::this_thread::sleep_for(1500ms);
  stop = true;
  finish(launcher, "the launching thread", 2000ms + 1000ms);
  std::printf("[host-stall] %-58s %9.1f ms (bound 3000 ms; %llu launches, %llu Timeout)\n",
              "longest launch during the launches", double(longestLaunchUs.load()) / 1000.0,
              static_cast<unsigned long long>(launches.load()),
              static_cast<unsigned long long>(refused.load()));
  std::fflush(stdout);
  EXPECT_LT(longestLaunchUs.load(), 3'000'000);
  EXPECT_GT(refused.load(), 0u) << "the queue never filled: the test measured nothing";
  auto deadline = Clock::now() + 5s;
  while ((*p)->wedged() && Clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  Status last = Error(ErrorCode::InvalidArgument, "unset");
  timed("synchronize after the launches", 2000ms + 1000ms, [&] { last = (*p)->synchronize(); });
  // Whatever was still queued is cancelled at the timeout: usable either way.
  if (!last)
    EXPECT_EQ(last.error().code(), ErrorCode::Timeout) << last.error().describe();
  EXPECT_FALSE((*p)->wedged());
}

// Waiting driver calls (here a module unload) are deferred while a kernel runs, and
// run as soon as it is cancelled: the cancel, not the kernel's own end, bounds them.
TEST(HostStallTimingSensitive, DeferredReclaimsRunOnceTheKernelIsCancelled) {
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  const std::string bc = bitcodePath("runtime_kernels.bc");
  auto app = (*rt)->loadApplicationFile(bc);
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  ASSERT_TRUE(spin);
  {
    auto evictable = (*rt)->loadApplicationFile(bc, {.optLevel = 1});
    ASSERT_TRUE(evictable) << evictable.error().describe();
  }
  auto p = (*rt)->createPipeline({.arenaBytes = 8 << 20, .timeout = 20000ms});
  ASSERT_TRUE(p);
  auto flag = (*p)->allocate(4), result = (*p)->allocate(4);
  ASSERT_TRUE((*p)->fill(*flag, 0, 4, 0));
  ASSERT_TRUE((*p)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 6'000'000'000ull, *result));
  std::this_thread::sleep_for(100ms);
  size_t evicted = 0;
  for (auto until = Clock::now() + 2s; evicted == 0 && Clock::now() < until;
       std::this_thread::sleep_for(1ms))
    evicted = (*rt)->trimModuleCache(); // the loader drops its reference a moment late
  ASSERT_GE(evicted, 1u);
  std::this_thread::sleep_for(100ms);
  const uint64_t deferred = (*rt)->stats().deferredReclaims;
  std::printf("[host-stall] %-58s %9llu\n", "reclaims deferred under the spinning kernel",
              static_cast<unsigned long long>(deferred));
  EXPECT_GE(deferred, 1u) << "the unload was not deferred while the kernel ran";
  timed("cancel, then the deferred reclaims drain", 1000ms, [&] {
    EXPECT_TRUE((*p)->cancel());
    while ((*rt)->stats().deferredReclaims > 0)
      std::this_thread::sleep_for(1ms);
  });
}

// Last: it leaves a runtime abandoned under a kernel that runs for 6 more seconds.
TEST(HostStallTimingSensitive, ALongKernelStallsNoOtherTenant) {
  ATOLL_REQUIRE_GPU();
  RuntimeOptions o;
  o.loadTimeout = 1500ms;
  o.shutdownDrainTimeout = 300ms;
  auto created = Runtime::create(o);
  ASSERT_TRUE(created) << created.error().describe();
  std::shared_ptr<Runtime> rt = std::move(*created);
  const std::string bc = bitcodePath("runtime_kernels.bc");
  auto app = rt->loadApplicationFile(bc);
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(spin && vadd);
  // A second runtime on the same device (same primary context), torn down below.
  auto other = Runtime::create(o);
  ASSERT_TRUE(other) << other.error().describe();
  auto otherApp = (*other)->loadApplicationFile(bc);
  ASSERT_TRUE(otherApp) << otherApp.error().describe();
  auto otherPipe = (*other)->createPipeline({.arenaBytes = 8 << 20});
  ASSERT_TRUE(otherPipe);
  // An evictable module: loaded, then unreferenced.
  {
    auto evictable = rt->loadApplicationFile(bc, {.optLevel = 1});
    ASSERT_TRUE(evictable) << evictable.error().describe();
  }

  // Tenant A: a kernel that spins 6 s.
  auto a = rt->createPipeline({.arenaBytes = 8 << 20, .timeout = 20000ms, .name = "tenant-a"});
  ASSERT_TRUE(a);
  auto flag = (*a)->allocate(4), result = (*a)->allocate(4);
  ASSERT_TRUE(flag && result);
  ASSERT_TRUE((*a)->fill(*flag, 0, 4, 0));
  ASSERT_TRUE((*a)->fill(*result, 0, 4, 0));
  const auto spinStart = Clock::now();
  ASSERT_TRUE((*a)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, 6'000'000'000ull, *result));
  std::this_thread::sleep_for(200ms);
  auto idle = (*a)->idle();
  ASSERT_TRUE(idle);
  ASSERT_FALSE(*idle) << "the spinning kernel already ended";

  // Tenant B: pipelines come and go, kernels run.
  timed("createPipeline + destroy x3 (tenant B)", 1000ms, [&] {
    for (int i = 0; i < 3; ++i) {
      auto p = rt->createPipeline({.arenaBytes = 16 << 20});
      EXPECT_TRUE(p) << p.error().describe();
    }
  });
  timed("tenant B vadd (kernel runs beside A's)", 2000ms, [&] {
    auto p = rt->createPipeline({.arenaBytes = 16 << 20, .name = "tenant-b"});
    ASSERT_TRUE(p);
    EXPECT_TRUE(atoll_test::runVadd(**p, *vadd, 1 << 16, 7));
  });
  timed("allocateHost(1 MiB) + release x3", 1000ms, [&] {
    for (int i = 0; i < 3; ++i) {
      auto h = rt->allocateHost(1 << 20);
      ASSERT_TRUE(h) << h.error().describe();
      // Blocks are reused (never freed while tenants run), zeroed: no residue of the
      // previous iteration's ones.
      const auto *bytes = static_cast<const uint8_t *>(h->data());
      EXPECT_EQ(std::count(bytes, bytes + h->size(), 0), ptrdiff_t(h->size()));
      std::memset(h->data(), 1, h->size());
    }
  });
  // Registered host memory counts as page-locked: an async copy on A's busy stream
  // is enqueued at once (pageable memory would first wait for A's kernel).
  HostMemory flagHost; // kept until A's copy has run
  timed("copyToDeviceAsync from allocateHost memory on A's busy stream", 1000ms, [&] {
    auto h = rt->allocateHost(4096);
    ASSERT_TRUE(h) << h.error().describe();
    flagHost = std::move(*h);
    std::memset(flagHost.data(), 0, 4);
    EXPECT_TRUE((*a)->copyToDeviceAsync(*flag, 0, flagHost.data(), 4));
  });
  timed("trimModuleCache (evicts, unload queued)", 500ms, [&] {
    EXPECT_GE(rt->trimModuleCache(), 1u);
  });
  // A cache miss: compiled on the caller's thread, then the driver load waits
  // behind A's kernel: bounded by loadTimeout, a typed Timeout.
  timed("loadApplication, cache miss (Timeout after loadTimeout)", 1500ms + 8000ms, [&] {
    auto miss = rt->loadApplicationFile(bc, {.clamping = Clamping::ModuloBased});
    if (!miss) {
      EXPECT_EQ(miss.error().code(), ErrorCode::Timeout) << miss.error().describe();
      EXPECT_NE(miss.error().message().find("did not finish within 1500 ms"), std::string::npos);
    } else {
      std::printf("[host-stall] note: the driver loaded a module while a kernel ran\n");
    }
  });
  PendingApplication pending;
  timed("loadApplicationAsync (returns once compiled)", 8000ms, [&] {
    std::vector<uint8_t> bytes;
    {
      std::FILE *f = std::fopen(bc.c_str(), "rb");
      ASSERT_TRUE(f);
      int c;
      while ((c = std::fgetc(f)) != EOF)
        bytes.push_back(uint8_t(c));
      std::fclose(f);
    }
    pending = rt->loadApplicationAsync(bytes, {.clamping = Clamping::ModuloBased, .optLevel = 1});
  });
  timed("PendingApplication::wait(50 ms)", 1000ms, [&] {
    auto r = pending.wait(50ms);
    if (!r)
      EXPECT_EQ(r.error().code(), ErrorCode::Timeout) << r.error().describe();
  });
  // Another runtime torn down while A's kernel runs: its module unload would wait,
  // so the reclaim thread gives up after shutdownDrainTimeout.
  timed("teardown of another runtime (pipeline, app, runtime)", 300ms * 2 + 1000ms, [&] {
    otherPipe->reset();
    otherApp->reset();
    other->reset();
  });
  EXPECT_LT(msSince(spinStart), 5500.0) << "the measurements took too long to overlap the kernel";
  // The unloads and frees of the evicted module and of the other runtime (and its
  // context release) were deferred: no waiting driver call while a kernel runs.
  const uint64_t deferred = rt->stats().deferredReclaims;
  std::printf("[host-stall] %-58s %9llu\n", "reclaims deferred while A's kernel runs",
              static_cast<unsigned long long>(deferred));
  EXPECT_GE(deferred, 1u) << "nothing was deferred: the unloads ran under A's kernel";

  // The pending load completes once A's kernel has ended.
  auto loaded = pending.wait(20000ms);
  EXPECT_TRUE(loaded) << loaded.error().describe();
  std::printf("[host-stall] %-58s %9.1f ms\n", "async load completed after kernel start",
              msSince(spinStart));
  // A's own synchronize: the kernel ended at its 6 s bound.
  ASSERT_TRUE((*a)->synchronize());
  uint32_t how = 0;
  ASSERT_TRUE((*a)->copyToHost(&how, *result, 0, 4));
  EXPECT_EQ(how, 2u);
  std::printf("[host-stall] %-58s %9.1f ms\n", "tenant A's kernel ended after", msSince(spinStart));
  // Once A's kernel has ended the deferred reclaims run (quiet sections of at most
  // 64 calls or 5 ms): bounded by the reclaimer's poll (10 ms) plus the calls.
  timed("deferred reclaims drained after A's kernel ended", 1000ms, [&] {
    while (rt->stats().deferredReclaims > 0)
      std::this_thread::sleep_for(1ms);
  });
  std::printf("[host-stall] %-58s %9llu\n", "reclaims leaked so far (process-wide)",
              static_cast<unsigned long long>(rt->stats().leakedReclaims));

  // Teardown of the runtime while a kernel of its own still runs (6 s). Without
  // cancelOnTimeout the timeout leaves it running (wedged); destroying its pipeline
  // now cancels it all the same (review R3-F8), so the drain usually sees it end;
  // if it did not, the drain gives up after shutdownDrainTimeout and the context is
  // abandoned. Either way the bound holds.
  auto b = rt->createPipeline(
      {.arenaBytes = 8 << 20, .timeout = 100ms, .name = "tenant-a2", .cancelOnTimeout = false});
  ASSERT_TRUE(b);
  auto flag2 = (*b)->allocate(4), result2 = (*b)->allocate(4);
  ASSERT_TRUE((*b)->fill(*flag2, 0, 4, 0));
  ASSERT_TRUE((*b)->launch(*spin, {Dim3(1), Dim3(32)}, *flag2, 6'000'000'000ull, *result2));
  Status bs = (*b)->synchronize();
  EXPECT_ATOLL_ERROR(bs, ErrorCode::Timeout);
  EXPECT_TRUE((*b)->wedged()) << "the kernel did not keep running";
  timed("teardown of the runtime under its own running kernel", 300ms * 2 + 1500ms, [&] {
    // Everything that keeps the runtime's state alive goes: the state dies last,
    // here, under the wedged kernel.
    *spin = Kernel();
    *vadd = Kernel();
    flagHost = HostMemory();
    pending = PendingApplication();
    if (loaded)
      loaded->reset();
    app->reset();
    a->reset();
    rt.reset();
    b->reset(); // the last holder: ~RuntimeState runs here
  });
}

// Review R5-F3 on the H200: a tenant launches a kernel that never ends by itself
// (spin with a bound of ~146 years, polled: cancellable) and never waits for it. The
// runtime's watchdog cancels it once it has kept the stream busy for its timeout
// (500 ms), another tenant's load (which needs the device quiet) then succeeds, the
// lazy tenant's next call reports the Timeout and its pipeline is usable again.
TEST(HostStallTimingSensitive, TheWatchdogCancelsANeverEndingKernelNobodyWaitsFor) {
  ATOLL_REQUIRE_GPU();
  RuntimeOptions o;
  o.defaultTimeout = 500ms;
  o.loadTimeout = 20000ms;
  auto created = Runtime::create(o);
  ASSERT_TRUE(created) << created.error().describe();
  std::shared_ptr<Runtime> rt = std::move(*created);
  const std::string bc = bitcodePath("runtime_kernels.bc");
  auto app = rt->loadApplicationFile(bc);
  ASSERT_TRUE(app) << app.error().describe();
  auto spin = (*app)->kernel("spin");
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(spin && vadd);
  auto a = rt->createPipeline({.arenaBytes = 8 << 20, .name = "lazy"});
  ASSERT_TRUE(a);
  auto flag = (*a)->allocate(4), result = (*a)->allocate(4);
  ASSERT_TRUE(flag && result);
  ASSERT_TRUE((*a)->fill(*flag, 0, 4, 0));
  ASSERT_TRUE((*a)->fill(*result, 0, 4, 0));
  ASSERT_TRUE((*a)->synchronize());
  const auto start = Clock::now();
  ASSERT_TRUE((*a)->launch(*spin, {Dim3(1), Dim3(32)}, *flag, ~0ull >> 1, *result));
  // Tenant B loads a module meanwhile (a cache miss): compiled, then loaded once the
  // device is quiet.
  Result<std::shared_ptr<Application>> loaded = Error(ErrorCode::Timeout, "not run");
  double loadMs = 0;
  Detached loader([&] {
    loaded = rt->loadApplicationFile(bc, {.clamping = Clamping::ModuloBased, .optLevel = 1});
    loadMs = msSince(start);
  });
  double cancelMs = -1;
  while (msSince(start) < 5000) {
    auto idle = (*a)->idle();
    ASSERT_TRUE(idle) << idle.error().describe();
    if (*idle) {
      cancelMs = msSince(start);
      break;
    }
    std::this_thread::sleep_for(1ms);
  }
  std::printf("[host-stall] %-58s %9.1f ms\n", "watchdog: never-ending kernel gone after", cancelMs);
  ASSERT_GE(cancelMs, 0.0) << "nobody cancelled the never-ending kernel within 5 s";
  EXPECT_GE(cancelMs, 490.0) << "cancelled before its timeout";
  EXPECT_LT(cancelMs, 500.0 + 250.0) << "the watchdog's tick and the cancel took too long";
  finish(loader, "tenant B's load", 30000ms);
  std::printf("[host-stall] %-58s %9.1f ms\n", "watchdog: tenant B's load returned after", loadMs);
  EXPECT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(rt->stats().watchdogCancels, 1u);
  Status s = (*a)->synchronize();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_NE(s.error().message().find("cancelled by the runtime's watchdog"), std::string::npos)
      << s.error().describe();
  std::printf("[host-stall] watchdog: lazy tenant's next call: %s\n", s.error().describe().c_str());
  EXPECT_EQ((*a)->stats().watchdogCancels, 1u);
  uint32_t how = 0;
  ASSERT_TRUE((*a)->copyToHost(&how, *result, 0, 4));
  EXPECT_EQ(how, 0u) << "the kernel ended by itself (1: flag, 2: bound), not by the cancel";
  EXPECT_TRUE(atoll_test::runVadd(**a, *vadd, 1 << 16, 3)) << "not usable after the cancel";
}

// Review R8-F2 on the device: a pipeline that never launched but leaves a long copy
// queued (256 MiB from page-locked memory, milliseconds over PCIe) and is torn down
// at once does not hand its stream to the next pipeline: the lane is not pooled, the
// next pipeline makes its own stream and its first fill does not wait for the copy.
TEST(HostStall, R8F2ALaneWithQueuedCopiesIsNotHandedOn) {
  ATOLL_REQUIRE_GPU();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  { // one idle lane pooled: the copier takes it
    auto warm = (*rt)->createPipeline({.arenaBytes = 8 << 20, .name = "warm"});
    ASSERT_TRUE(warm) << warm.error().describe();
  }
  ASSERT_EQ((*rt)->stats().pipelineStreamsPooled, 1u);
  auto host = (*rt)->allocateHost(256 << 20);
  ASSERT_TRUE(host) << host.error().describe();
  {
    auto a = (*rt)->createPipeline({.arenaBytes = 512 << 20, .name = "copier"});
    ASSERT_TRUE(a) << a.error().describe();
    EXPECT_TRUE((*a)->stats().streamFromPool);
    auto x = (*a)->allocate(256 << 20);
    ASSERT_TRUE(x) << x.error().describe();
    ASSERT_TRUE((*a)->copyToDeviceAsync(*x, 0, host->data(), 256 << 20));
    auto idle = (*a)->idle();
    ASSERT_TRUE(idle) << idle.error().describe();
    ASSERT_FALSE(*idle) << "the 256 MiB copy had ended before the teardown: the test measured nothing";
    EXPECT_EQ((*a)->stats().launches, 0u);
  } // torn down with the copy queued
  EXPECT_EQ((*rt)->stats().pipelineStreamsPooled, 0u)
      << "a lane whose stream still runs a tenant's copy was pooled";
  auto b = (*rt)->createPipeline({.arenaBytes = 8 << 20, .timeout = 5000ms, .name = "next"});
  ASSERT_TRUE(b) << b.error().describe();
  EXPECT_FALSE((*b)->stats().streamFromPool) << "the next pipeline got the busy stream";
  auto y = (*b)->allocate(4096);
  ASSERT_TRUE(y);
  const auto t0 = Clock::now();
  ASSERT_TRUE((*b)->fill(*y, 0, 4096, 1));
  const double ms = msSince(t0);
  std::printf("[host-stall] R8-F2: the next pipeline's first fill: %.3f ms\n", ms);
  EXPECT_LT(ms, 2.0) << "the next pipeline waited for the previous tenant's copy";
}

// Review R8-F6 on the device: two tenants keep their copy queues full (fillAsync of
// their whole 1 GiB buffer in a loop: pieces of maxQueuedCopyBytes, 256 MiB; errors
// ignored) while another application's module load, which needs every stream idle,
// must complete within the starvation bound (DeviceActivity::kStarveAfter, 2 s, then
// a drain of at most 2 x 256 MiB of fills): under 4 s. Before the fix copies passed
// no gate and the two streams never rested together. The tenants go on afterwards.
TEST(HostStallTimingSensitive, R8F6CopyHammersDoNotStarveAModuleLoad) {
  ATOLL_REQUIRE_GPU();
  RuntimeOptions o;
  o.loadTimeout = 10000ms;
  auto created = Runtime::create(o);
  ASSERT_TRUE(created) << created.error().describe();
  std::shared_ptr<Runtime> rt = std::move(*created);
  std::vector<std::unique_ptr<Pipeline>> pipes;
  std::vector<Buffer> bufs;
  for (const char *name : {"hammer-a", "hammer-b"}) {
    auto p = rt->createPipeline({.arenaBytes = uint64_t(1) << 30, .timeout = 5000ms, .name = name});
    ASSERT_TRUE(p) << p.error().describe();
    auto x = (*p)->allocate(uint64_t(1) << 30);
    ASSERT_TRUE(x) << x.error().describe();
    bufs.push_back(*x);
    pipes.push_back(std::move(*p));
  }
  std::ifstream in(bitcodePath("runtime_kernels.bc"), std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(bytes.empty());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> fills{0};
  auto tenant = [&](size_t i) {
    while (!stop.load())
      if (pipes[i]->fillAsync(bufs[i], 0, uint64_t(1) << 30, uint8_t(i + 1)))
        fills++;
  };
  std::thread ta(tenant, 0), tb(tenant, 1);
  std::this_thread::sleep_for(500ms);
  const uint64_t atStart = fills.load();
  AppOptions ao;
  ao.optLevel = 1; // not cached: a driver load in a quiet section
  PendingApplication pending = rt->loadApplicationAsync(bytes, ao);
  const auto t0 = Clock::now();
  auto loaded = pending.wait(10000ms);
  const double ms = msSince(t0);
  const uint64_t atLoad = fills.load();
  std::this_thread::sleep_for(300ms);
  stop = true;
  ta.join();
  tb.join();
  for (auto &p : pipes)
    (void)p->synchronize();
  std::printf("[host-stall] R8-F6: module load under two fill hammers: %.1f ms; 1 GiB fills "
              "%llu before, %llu during, %llu after\n",
              ms, static_cast<unsigned long long>(atStart),
              static_cast<unsigned long long>(atLoad - atStart),
              static_cast<unsigned long long>(fills.load() - atLoad));
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_GT(atStart, 10u) << "the tenants did not keep their streams busy";
  EXPECT_LT(ms, 4000.0) << "the load was starved by copies";
  EXPECT_GT(fills.load(), atLoad) << "the tenants did not go on after the load";
}
