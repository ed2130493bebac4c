// Review R8-F6 on the stand-in driver (bench/mock): copies and fills pass the launch
// gate like kernels, and the bytes of copies and fills a pipeline may have queued are
// bounded (RuntimeOptions::maxQueuedCopyBytes), so a quiet section (module load or
// unload, cuMemFree) completes within its bound while a tenant keeps its copy queue
// full. A memset or a DMA cannot be cancelled (the cancel word stops kernels only):
// the stand-in driver holds copies and byte fills while atollMockHoldCopies is on, as
// if they took that long. Runs only with the mock as libcuda.so.1 (ctest sets
// LD_LIBRARY_PATH).
#include "DeviceActivity.h"
#include "MockDriverFixture.h"
#include "PipelineImpl.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kBitcode = std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/runtime_kernels.bc";

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

class CopyGate : public atoll_test::MockDriverTest {
protected:
  void SetUp() override {
    MockDriverTest::SetUp();
    if (IsSkipped() || HasFatalFailure())
      return;
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD))
      calls = reinterpret_cast<unsigned long (*)(const char *)>(dlsym(h, "atollMockCalls"));
    if (!mock.holdCopies || !calls)
      FAIL() << "the stand-in driver lacks atollMockHoldCopies or atollMockCalls";
  }
  std::unique_ptr<Runtime> runtime(RuntimeOptions o = {}) {
    auto rt = Runtime::create(o);
    EXPECT_TRUE(rt) << rt.error().describe();
    return rt ? std::move(*rt) : nullptr;
  }
  /// cuMemsetD8Async calls this thread made so far.
  unsigned long fills() const { return calls("cuMemsetD8Async"); }
  unsigned long (*calls)(const char *) = nullptr;
};

/// Runs `fn` on its own thread; done() tells whether it has returned.
class Async {
public:
  explicit Async(std::function<Status()> fn)
      : thread_([this, fn = std::move(fn)] {
          Status s = fn();
          ok_ = bool(s);
          if (!s)
            message_ = s.error().describe();
          done_ = true;
        }) {}
  ~Async() { thread_.join(); }
  bool done() const { return done_.load(); }
  bool waitFor(std::chrono::milliseconds d) const {
    const auto until = Clock::now() + d;
    while (!done_.load() && Clock::now() < until)
      std::this_thread::sleep_for(1ms);
    return done_.load();
  }
  bool ok() const { return ok_.load(); }
  std::string message() const { return done_.load() ? message_ : std::string("(running)"); }

private:
  std::atomic<bool> done_{false}, ok_{false};
  std::string message_;
  std::thread thread_;
};

} // namespace

// The gate: while a quiet section is open, no copy or fill of any kind (synchronous
// or not, pageable or page-locked host memory, device to device) reaches the driver;
// each goes on when the section ends. Negative control: with no section each returns
// at once.
TEST_F(CopyGate, EveryCopyAndFillWaitsAtTheGate) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .name = "copier"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(4096), y = pl.allocate(4096);
  ASSERT_TRUE(x && y);
  std::vector<uint8_t> pageable(4096, 3);
  auto pinned = rt->allocateHost(4096);
  ASSERT_TRUE(pinned) << pinned.error().describe();
  void *pin = pinned->data();
  struct Op {
    const char *name;
    std::function<Status()> run;
  };
  const std::vector<Op> ops = {
      {"fill", [&] { return pl.fill(*x, 0, 4096, 1); }},
      {"fillAsync", [&] { return pl.fillAsync(*x, 0, 4096, 2); }},
      {"copyToDevice (pageable)", [&] { return pl.copyToDevice(*x, 0, pageable.data(), 4096); }},
      {"copyToDeviceAsync (pinned)", [&] { return pl.copyToDeviceAsync(*x, 0, pin, 4096); }},
      {"copyToHost (pageable)", [&] { return pl.copyToHost(pageable.data(), *x, 0, 4096); }},
      {"copyToHostAsync (pinned)", [&] { return pl.copyToHostAsync(pin, *x, 0, 4096); }},
      {"copyDeviceToDevice", [&] { return pl.copyDeviceToDevice(*y, 0, *x, 0, 4096); }},
      {"copyDeviceToDeviceAsync", [&] { return pl.copyDeviceToDeviceAsync(*y, 0, *x, 0, 4096); }},
  };
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
  for (const Op &op : ops) {
    SCOPED_TRACE(op.name);
    ASSERT_TRUE(pl.synchronize());
    {
      Async control(op.run); // no section: straight through
      ASSERT_TRUE(control.waitFor(2000ms));
      EXPECT_TRUE(control.ok()) << control.message();
    }
    ASSERT_TRUE(pl.synchronize());
    std::optional<Async> held;
    {
      auto quiet = activity.tryQuiet(*api, gen, 0us);
      ASSERT_TRUE(quiet) << "nothing runs, yet the quiet section was refused";
      held.emplace(op.run);
      std::this_thread::sleep_for(100ms);
      EXPECT_FALSE(held->done()) << "it reached the driver during a quiet section";
    }
    ASSERT_TRUE(held->waitFor(2000ms)) << "it did not go on after the section";
    EXPECT_TRUE(held->ok()) << held->message();
  }
  ASSERT_TRUE(pl.synchronize());
  api->cuDevicePrimaryCtxRelease(dev);
}

// The bound: with 4096 bytes allowed in flight, a held fill of 4096 bytes fills the
// budget; the next fill (1 byte) waits for it, lock released, and at the pipeline's
// timeout is refused with Timeout naming the limit; nothing more reached the driver.
// A request larger than the limit goes in pieces: the first is enqueued, the second
// waits (refused likewise, saying how much went). Positive: once the stream is idle
// the same requests pass, a 10000-byte fill as 3 pieces with the right contents.
TEST_F(CopyGate, QueuedBytesAreBoundedAndTheRefusalSaysWhy) {
  auto rt = runtime({.maxQueuedCopyBytes = 4096});
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 200ms, .name = "copier",
                               .cancelDeadline = 50ms});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(16384);
  ASSERT_TRUE(x);
  mock.hold(1);
  mock.holdCopies(1);
  const unsigned long before = fills();
  ASSERT_TRUE(pl.fillAsync(*x, 0, 4096, 1));
  EXPECT_FALSE(*pl.idle());
  auto t0 = Clock::now();
  Status refused = pl.fillAsync(*x, 0, 1, 2);
  const double waited = msSince(t0);
  ASSERT_FALSE(refused) << "a fill past the bytes in flight was enqueued";
  EXPECT_EQ(refused.error().code(), ErrorCode::Timeout);
  EXPECT_NE(refused.error().message().find(
                "pipeline 'copier': a fill of 1 bytes was not enqueued: the pipeline's queued "
                "copies and fills (4096 bytes) would pass the limit of 4096 bytes in flight "
                "(RuntimeOptions::maxQueuedCopyBytes) and did not finish in time"),
            std::string::npos)
      << refused.error().describe();
  EXPECT_GE(waited, 150.0) << "it did not wait for the queued fill";
  EXPECT_LT(waited, 2000.0);
  EXPECT_EQ(fills() - before, 1u) << "a fill reached the driver past the limit";

  // Other kinds count against the same budget.
  mock.holdCopies(0);
  mock.hold(0);
  (void)pl.synchronize(); // may report the timeout taken above
  ASSERT_TRUE(*pl.idle());
  mock.hold(1);
  mock.holdCopies(1);
  ASSERT_TRUE(pl.fillAsync(*x, 0, 4000, 1));
  Status d2d = pl.copyDeviceToDeviceAsync(*x, 8192, *x, 0, 100);
  ASSERT_FALSE(d2d);
  EXPECT_NE(d2d.error().message().find(
                "a device-to-device copy of 100 bytes was not enqueued: the pipeline's queued "
                "copies and fills (4000 bytes)"),
            std::string::npos)
      << d2d.error().describe();

  mock.holdCopies(0);
  mock.hold(0);
  (void)pl.synchronize();
  ASSERT_TRUE(*pl.idle());
  mock.hold(1);
  mock.holdCopies(1);
  const unsigned long mid = fills();
  Status split = pl.fillAsync(*x, 0, 10000, 3);
  ASSERT_FALSE(split);
  EXPECT_EQ(split.error().code(), ErrorCode::Timeout);
  EXPECT_NE(split.error().message().find(
                "a fill of 10000 bytes was not enqueued past its first 4096 bytes"),
            std::string::npos)
      << split.error().describe();
  EXPECT_EQ(fills() - mid, 1u);

  mock.holdCopies(0);
  mock.hold(0);
  (void)pl.synchronize();
  const unsigned long last = fills();
  const uint64_t filled = pl.stats().fills;
  ASSERT_TRUE(pl.fill(*x, 0, 10000, 9));
  EXPECT_EQ(fills() - last, 3u) << "10000 bytes in pieces of at most 4096";
  EXPECT_EQ(pl.stats().fills, filled + 1);
  std::vector<uint8_t> back(10001, 0);
  ASSERT_TRUE(pl.copyToHost(back.data(), *x, 0, back.size()));
  for (size_t i = 0; i < 10000; ++i)
    ASSERT_EQ(back[i], 9) << "byte " << i;
  EXPECT_NE(back[10000], 9);
  ASSERT_TRUE(pl.fillAsync(*x, 0, 1, 4)); // usable again
  ASSERT_TRUE(pl.synchronize());
}

// 0 bytes in flight would refuse every copy: InvalidArgument with its reason.
TEST_F(CopyGate, AZeroLimitIsRefused) {
  RuntimeOptions o;
  o.maxQueuedCopyBytes = 0;
  auto rt = Runtime::create(o);
  ASSERT_FALSE(rt);
  EXPECT_EQ(rt.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(rt.error().message().find("RuntimeOptions::maxQueuedCopyBytes must be positive"),
            std::string::npos)
      << rt.error().describe();
}

// Two tenants keep their copy queues full (fills of 1 MiB in a loop on one pipeline
// each, errors ignored) while a copy engine completes two queued operations per
// stream every 10 ms (the stand-in driver's atollMockCompleteHeld): each stream rests
// only when its own queue runs dry, and the two never rest together unless nothing
// new starts. A module load of another application, which needs every stream idle,
// completes within the starvation bound: once the gate closes no copy starts, the
// queued bytes (bounded) end, and the section runs. Before R8-F6 copies passed no
// gate: each queue refilled while the other drained and the load failed at its 10 s
// timeout. The tenants go on afterwards.
TEST_F(CopyGate, AQuietSectionCompletesWhileTenantsHammerCopies) {
  ASSERT_TRUE(mock.completeHeld) << "the stand-in driver lacks atollMockCompleteHeld";
  auto rt = runtime({.loadTimeout = 10000ms, .maxCancelDeadline = 1000ms,
                     .maxBusyTime = 1000ms, .maxQueuedCopyBytes = 1 << 20});
  ASSERT_TRUE(rt);
  std::vector<std::unique_ptr<Pipeline>> pipes;
  std::vector<Buffer> bufs;
  for (const char *name : {"hammer-a", "hammer-b"}) {
    auto p = rt->createPipeline({.arenaBytes = 4 << 20, .timeout = 300ms, .name = name});
    ASSERT_TRUE(p) << p.error().describe();
    auto x = (*p)->allocate(1 << 20);
    ASSERT_TRUE(x);
    bufs.push_back(*x);
    pipes.push_back(std::move(*p));
  }
  std::ifstream in(kBitcode, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(bytes.empty());
  mock.hold(1);
  mock.holdCopies(1);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> enqueued{0};
  auto tenant = [&](size_t i) {
    while (!stop.load())
      if (pipes[i]->fillAsync(bufs[i], 0, 1 << 20, 5))
        enqueued++;
  };
  std::thread ta(tenant, 0), tb(tenant, 1);
  std::thread engine([&] {
    while (!stop.load()) {
      std::this_thread::sleep_for(10ms);
      mock.completeHeld(2);
    }
  });
  std::this_thread::sleep_for(100ms);
  const uint64_t atStart = enqueued.load();
  PendingApplication pending =
      rt->loadApplicationAsync(bytes, {.clamping = Clamping::ModuloBased});
  const auto t0 = Clock::now();
  auto loaded = pending.wait(10000ms);
  const double ms = msSince(t0);
  const uint64_t atLoad = enqueued.load();
  std::this_thread::sleep_for(200ms);
  stop = true;
  ta.join();
  tb.join();
  engine.join();
  mock.holdCopies(0);
  mock.hold(0);
  std::printf("[copy-gate] load under two copy hammers: %.1f ms; fills enqueued %llu before, "
              "%llu during, %llu after\n",
              ms, static_cast<unsigned long long>(atStart),
              static_cast<unsigned long long>(atLoad - atStart),
              static_cast<unsigned long long>(enqueued.load() - atLoad));
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_GT(atStart, 5u) << "the tenants did not keep their queues busy";
  EXPECT_LT(ms, double(detail::DeviceActivity::kStarveAfter.count()) + 1000.0);
  EXPECT_GT(enqueued.load(), atLoad) << "the tenants did not go on after the section";
}
