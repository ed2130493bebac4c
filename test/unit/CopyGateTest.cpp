// Review R8-F6 on the stand-in driver (bench/mock): copies and fills pass the launch
// gate like kernels, and the bytes of copies and fills a pipeline may have queued are
// bounded (RuntimeOptions::maxQueuedCopyBytes), so a quiet section (module load or
// unload, cuMemFree) completes within its bound while a tenant keeps its copy queue
// full. A memset or a DMA cannot be cancelled (the cancel word stops kernels only):
// the stand-in driver holds copies and byte fills while atollMockHoldCopies is on, as
// if they took that long. Runs only with the mock as libcuda.so.1 (ctest sets
// LD_LIBRARY_PATH).
//
// Review R9-F2 here too: a copy that names a page-locked block holds it (HostBlocks::
// Use) from its pinned check until its last fence is recorded, so a block whose
// HostMemory is dropped while the copy waits for room is not handed to the next
// caller of allocateHost, and the copy is refused (the stand-in driver copies at the
// enqueue, so a copy that resumed after the reuse would touch the new owner's bytes).
#include "DeviceActivity.h"
#include "HostBlocks.h"
#include "MockDriverFixture.h"
#include "PipelineImpl.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
          if (!s) {
            message_ = s.error().describe();
            code_ = s.error().code();
          }
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
  /// The error's code (meaningful once done() and !ok()).
  ErrorCode code() const { return code_; }

private:
  std::atomic<bool> done_{false}, ok_{false};
  std::string message_;
  ErrorCode code_ = ErrorCode::InvalidArgument;
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

// --- Review R9-F2: a page-locked block held by a copy that waits ----------------------

namespace {

/// Page-locked host memory from allocateHost, kept in an optional so that a test can
/// drop it (as the service's "free" request would) while a copy still names it.
std::optional<HostMemory> pinnedBlock(Runtime &rt, size_t bytes, uint8_t value) {
  auto h = rt.allocateHost(bytes);
  EXPECT_TRUE(h) << h.error().describe();
  if (!h)
    return std::nullopt;
  std::memset(h->data(), value, bytes);
  return std::move(*h);
}

bool allBytes(const void *p, size_t bytes, uint8_t value, size_t *first = nullptr) {
  const auto *b = static_cast<const uint8_t *>(p);
  for (size_t i = 0; i < bytes; ++i)
    if (b[i] != value) {
      if (first)
        *first = i;
      return false;
    }
  return true;
}

} // namespace

// A synchronous copy to the host from a page-locked block waits (lock released) for
// a held fill; meanwhile its owner drops the block and another caller asks
// allocateHost for the same size. The caller gets another block (the copy holds the
// first one: no fence was recorded yet, so before R9-F2 it was "idle" and handed out),
// the copy is refused with InvalidArgument naming the cause, no byte of the new
// owner's block is written, and once the copy has let go the block is reused, zeroed.
// On the old code: the same block is handed out and the resumed copy overwrites the
// new owner's bytes with the first tenant's data.
TEST_F(CopyGate, ABlockDroppedWhileACopyToTheHostWaitsIsNotHandedOn) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms, .name = "first"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(4096), y = pl.allocate(4096);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE(pl.fill(*x, 0, 4096, 0xAB)); // the first tenant's data
  std::optional<HostMemory> mine = pinnedBlock(*rt, 4096, 0);
  ASSERT_TRUE(mine);
  void *block = mine->data();

  mock.hold(1);
  mock.holdCopies(1);
  ASSERT_TRUE(pl.fillAsync(*y, 0, 16, 1)); // held: the stream is busy
  std::atomic<unsigned long> copies{~0ul}; // cuMemcpyDtoHAsync calls of the copy's thread
  Async copier([&] {
    Status s = pl.copyToHost(block, *x, 0, 4096);
    copies = calls("cuMemcpyDtoHAsync");
    return s;
  });
  std::this_thread::sleep_for(200ms); // the copy is waiting by then
  ASSERT_FALSE(copier.done()) << "the copy did not wait for the held fill: "
                              << copier.message();
  mine.reset(); // the owner drops its HostMemory while the copy waits
  std::optional<HostMemory> next = pinnedBlock(*rt, 4096, 0x5A); // the new owner's data
  ASSERT_TRUE(next);
  EXPECT_NE(next->data(), block) << "a block held by a waiting copy was handed out";

  mock.holdCopies(0);
  mock.hold(0);
  ASSERT_TRUE(copier.waitFor(3000ms)) << "the copy did not return once the stream was idle";
  EXPECT_FALSE(copier.ok()) << "the copy went on into a block its owner had dropped";
  EXPECT_EQ(copier.code(), ErrorCode::InvalidArgument) << copier.message();
  EXPECT_NE(copier.message().find(
                "pipeline 'first': a copy to the host of 4096 bytes was not enqueued: the host "
                "block was released during the copy (its HostMemory was dropped while the "
                "copy waited)"),
            std::string::npos)
      << copier.message();
  size_t at = 0;
  EXPECT_TRUE(allBytes(next->data(), 4096, 0x5A, &at))
      << "byte " << at << " of the new owner's block was written by the first tenant's copy";
  EXPECT_EQ(copies.load(), 0u) << "the refused copy reached the driver";

  // The refused copy let go of the block: once idle it is handed out again, zeroed.
  ASSERT_TRUE(pl.synchronize());
  std::optional<HostMemory> later = pinnedBlock(*rt, 4096, 0);
  ASSERT_TRUE(later);
  EXPECT_EQ(later->data(), block) << "the refused copy kept its hold on the block";
  ASSERT_TRUE(pl.fillAsync(*x, 0, 1, 2)); // the pipeline is usable
  ASSERT_TRUE(pl.synchronize());
}

// The other direction: an asynchronous copy to the device waits for room in the bytes
// in flight (a held fill fills them); its owner drops the block, another caller gets
// a block of the same size and writes its own data into it. That data must not reach
// the first tenant's arena: the copy is refused and the arena keeps its bytes. On the
// old code the same block is handed out and its new owner's bytes are uploaded.
TEST_F(CopyGate, ABlockDroppedWhileACopyToTheDeviceWaitsIsNotUploaded) {
  auto rt = runtime({.maxQueuedCopyBytes = 4096});
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms, .name = "first"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(4096), y = pl.allocate(4096);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE(pl.fill(*x, 0, 4096, 0x11));
  std::optional<HostMemory> mine = pinnedBlock(*rt, 4096, 0x22);
  ASSERT_TRUE(mine);
  void *block = mine->data();

  mock.hold(1);
  mock.holdCopies(1);
  ASSERT_TRUE(pl.fillAsync(*y, 0, 4096, 1)); // held: 4096 bytes in flight, the limit
  Async copier([&] { return pl.copyToDeviceAsync(*x, 0, block, 4096); });
  std::this_thread::sleep_for(200ms); // the copy is waiting by then
  ASSERT_FALSE(copier.done()) << "the copy did not wait for room: " << copier.message();
  mine.reset();
  std::optional<HostMemory> next = pinnedBlock(*rt, 4096, 0x5A); // another tenant's data
  ASSERT_TRUE(next);
  EXPECT_NE(next->data(), block) << "a block held by a waiting copy was handed out";

  mock.holdCopies(0);
  mock.hold(0);
  ASSERT_TRUE(copier.waitFor(3000ms));
  EXPECT_FALSE(copier.ok()) << "the copy went on from a block its owner had dropped";
  EXPECT_EQ(copier.code(), ErrorCode::InvalidArgument) << copier.message();
  EXPECT_NE(copier.message().find("pipeline 'first': a copy to the device of 4096 bytes was "
                                  "not enqueued: the host block was released during the copy"),
            std::string::npos)
      << copier.message();
  ASSERT_TRUE(pl.synchronize());
  std::vector<uint8_t> back(4096, 0);
  ASSERT_TRUE(pl.copyToHost(back.data(), *x, 0, back.size()));
  size_t at = 0;
  EXPECT_TRUE(allBytes(back.data(), back.size(), 0x11, &at))
      << "byte " << at << " of the arena is " << int(back[at]) << ", not the tenant's own 0x11";
}

// A copy in pieces (4096 bytes in flight at most): the first piece is enqueued (held),
// the second waits for room; the owner drops the block meanwhile: the second piece is
// refused, the message says how much went, and the block is handed out again only
// once the first piece's transfer has ended and the copy has let go.
TEST_F(CopyGate, ABlockDroppedBetweenPiecesStopsTheCopyThere) {
  auto rt = runtime({.maxQueuedCopyBytes = 4096});
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms, .name = "first"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(8192);
  ASSERT_TRUE(x);
  ASSERT_TRUE(pl.fill(*x, 0, 8192, 0x11));
  std::optional<HostMemory> mine = pinnedBlock(*rt, 8192, 0x22);
  ASSERT_TRUE(mine);
  void *block = mine->data();

  mock.hold(1);
  mock.holdCopies(1);
  std::atomic<unsigned long> copies{~0ul};
  Async copier([&] {
    Status s = pl.copyToDeviceAsync(*x, 0, block, 8192);
    copies = calls("cuMemcpyHtoDAsync");
    return s;
  });
  std::this_thread::sleep_for(200ms); // the copy is waiting by then
  ASSERT_FALSE(copier.done()) << "the second piece did not wait for room: "
                              << copier.message();
  mine.reset();
  std::optional<HostMemory> next = pinnedBlock(*rt, 8192, 0x5A);
  ASSERT_TRUE(next);
  EXPECT_NE(next->data(), block);

  mock.holdCopies(0);
  mock.hold(0);
  ASSERT_TRUE(copier.waitFor(3000ms));
  ASSERT_FALSE(copier.ok());
  EXPECT_EQ(copier.code(), ErrorCode::InvalidArgument) << copier.message();
  EXPECT_NE(copier.message().find("a copy to the device of 8192 bytes was not enqueued past "
                                  "its first 4096 bytes: the host block was released during "
                                  "the copy"),
            std::string::npos)
      << copier.message();
  ASSERT_TRUE(pl.synchronize());
  std::vector<uint8_t> back(8192, 0);
  ASSERT_TRUE(pl.copyToHost(back.data(), *x, 0, back.size()));
  EXPECT_TRUE(allBytes(back.data(), 4096, 0x22)) << "the first piece did not land";
  EXPECT_TRUE(allBytes(back.data() + 4096, 4096, 0x11)) << "the refused piece landed";
  std::optional<HostMemory> later = pinnedBlock(*rt, 8192, 0);
  ASSERT_TRUE(later);
  EXPECT_EQ(copies.load(), 1u) << "pieces that reached the driver";
  EXPECT_EQ(later->data(), block) << "the block was not reused once its copy let go";
}

// Negative control: the same waits without the drop. Each copy completes with the
// right bytes, and the copy lets go of the block once it has returned (dropped and the
// stream idle, the block is handed out again).
TEST_F(CopyGate, AHeldCopyCompletesWhenItsBlockIsKept) {
  auto rt = runtime({.maxQueuedCopyBytes = 4096});
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms, .name = "first"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(8192), y = pl.allocate(4096);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE(pl.fill(*x, 0, 8192, 0xAB));
  std::optional<HostMemory> mine = pinnedBlock(*rt, 8192, 0);
  ASSERT_TRUE(mine);
  void *block = mine->data();

  // To the host, synchronous: waits for the held fill, then copies.
  mock.hold(1);
  mock.holdCopies(1);
  ASSERT_TRUE(pl.fillAsync(*y, 0, 16, 1));
  {
    Async copier([&] { return pl.copyToHost(block, *x, 0, 4096); });
    std::this_thread::sleep_for(200ms); // the copy is waiting by then
    ASSERT_FALSE(copier.done()) << copier.message();
    // Another size, so that the reuse below can only find `block`.
    std::optional<HostMemory> other = pinnedBlock(*rt, 16384, 0x5A);
    ASSERT_TRUE(other);
    EXPECT_NE(other->data(), block); // kept by its owner: never a candidate
    mock.holdCopies(0);
    mock.hold(0);
    ASSERT_TRUE(copier.waitFor(3000ms));
    EXPECT_TRUE(copier.ok()) << copier.message();
  }
  EXPECT_TRUE(allBytes(block, 4096, 0xAB)) << "the copy to the host did not land";

  // To the device in two pieces: the second waits for room, then goes.
  std::memset(block, 0x33, 8192);
  mock.hold(1);
  mock.holdCopies(1);
  {
    Async copier([&] { return pl.copyToDeviceAsync(*x, 0, block, 8192); });
    std::this_thread::sleep_for(200ms); // the copy is waiting by then
    ASSERT_FALSE(copier.done()) << copier.message();
    mock.holdCopies(0);
    mock.hold(0);
    ASSERT_TRUE(copier.waitFor(3000ms));
    EXPECT_TRUE(copier.ok()) << copier.message();
  }
  ASSERT_TRUE(pl.synchronize());
  std::vector<uint8_t> back(8192, 0);
  ASSERT_TRUE(pl.copyToHost(back.data(), *x, 0, back.size()));
  EXPECT_TRUE(allBytes(back.data(), back.size(), 0x33)) << "the copy to the device did not land";

  // The copies let go: dropped, the block is reused, zeroed.
  mine.reset();
  std::optional<HostMemory> later = pinnedBlock(*rt, 8192, 0);
  ASSERT_TRUE(later);
  EXPECT_EQ(later->data(), block) << "a completed copy kept its hold on the block";
}

// A copy that names page-locked memory already dropped (no caller owns it: the
// runtime keeps it for reuse) is refused before anything is enqueued, and so is a
// host range that overlaps a block without lying inside it (it was taken for
// pageable memory and read or wrote past the block). Positive: the exact block passes.
TEST_F(CopyGate, ACopyNamingADroppedOrOverrunBlockIsRefused) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto p = rt->createPipeline({.arenaBytes = 1 << 20, .timeout = 5000ms, .name = "first"});
  ASSERT_TRUE(p) << p.error().describe();
  Pipeline &pl = **p;
  auto x = pl.allocate(8192);
  ASSERT_TRUE(x);
  ASSERT_TRUE(pl.fill(*x, 0, 8192, 0x11));
  std::optional<HostMemory> kept = pinnedBlock(*rt, 4096, 0x22);
  std::optional<HostMemory> dropped = pinnedBlock(*rt, 4096, 0x44);
  ASSERT_TRUE(kept && dropped);
  auto *k = static_cast<uint8_t *>(kept->data());
  auto *d = static_cast<uint8_t *>(dropped->data());
  dropped.reset();
  const unsigned long before = calls("cuMemcpyHtoDAsync") + calls("cuMemcpyDtoHAsync");
  struct Case {
    const char *name;
    std::function<Status()> run;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"to the device from a dropped block", [&] { return pl.copyToDevice(*x, 0, d, 4096); },
       "pipeline 'first': a copy to the device of 4096 bytes names page-locked host memory "
       "that was released (its HostMemory was dropped)"},
      {"to the host into a dropped block (async)",
       [&] { return pl.copyToHostAsync(d + 100, *x, 0, 16); },
       "a copy to the host of 16 bytes names page-locked host memory that was released"},
      {"past the end of a kept block", [&] { return pl.copyToDevice(*x, 0, k, 4097); },
       "pipeline 'first': a copy to the device of 4097 bytes: the host range overlaps a block "
       "of page-locked host memory (HostMemory) without lying inside it"},
      {"from before a kept block", [&] { return pl.copyToDeviceAsync(*x, 0, k - 1, 2); },
       "a copy to the device of 2 bytes: the host range overlaps a block"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    Status s = c.run();
    ASSERT_FALSE(s) << "accepted";
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.error().message().find(c.message), std::string::npos) << s.error().describe();
  }
  EXPECT_EQ(calls("cuMemcpyHtoDAsync") + calls("cuMemcpyDtoHAsync"), before)
      << "a refused copy reached the driver";
  ASSERT_TRUE(pl.copyToDevice(*x, 0, k, 4096)); // the exact block
  ASSERT_TRUE(pl.copyToHost(k, *x, 4096, 4096));
  EXPECT_TRUE(allBytes(k, 4096, 0x11));
}

// HostBlocks itself: classification of ranges against blocks (inside, overlapping
// either end, wrapping around the address space, released), and reuse() never hands
// out a block that a Use holds, released or not; dropping the last Use makes it
// available again.
TEST(HostBlocksUse, ClassifyHoldsAndReuseSkipsHeldBlocks) {
  detail::HostBlocks blocks(nullptr); // no transfer is noted: no driver call is made
  using Range = detail::HostBlocks::Range;
  // Two blocks carved from one allocation, with gaps around them.
  auto *mem = static_cast<uint8_t *>(std::malloc(64 + 4096 + 64 + 8192 + 64));
  ASSERT_TRUE(mem);
  uint8_t *pa = mem + 64, *pb = pa + 4096 + 64;
  void *a = pa;
  blocks.add(pa, 4096);
  blocks.add(pb, 8192);
  const uint8_t *outside = mem; // 64 bytes no block covers
  EXPECT_EQ(blocks.classify(outside, 64).range, Range::Foreign);
  EXPECT_EQ(blocks.classify(pa, 4096).range, Range::Pinned);
  EXPECT_EQ(blocks.classify(pa + 4095, 1).range, Range::Pinned);
  EXPECT_EQ(blocks.classify(pa + 4095, 2).range, Range::Straddles);
  EXPECT_EQ(blocks.classify(pa - 1, 2).range, Range::Straddles);
  EXPECT_EQ(blocks.classify(pa, SIZE_MAX).range, Range::Straddles); // wraps: saturated
  EXPECT_EQ(blocks.classify(pa + 4096, 64).range, Range::Foreign);  // the gap after it
  EXPECT_EQ(blocks.classify(pa + 4096, 65).range, Range::Straddles); // reaches pb
  EXPECT_EQ(blocks.classify(pb + 8191, 1).range, Range::Pinned);
  EXPECT_EQ(blocks.stats().held, 0u) << "a Use that was not kept still holds its block";

  auto held = blocks.classify(pa + 8, 64);
  ASSERT_EQ(held.range, Range::Pinned);
  ASSERT_TRUE(held.use);
  EXPECT_EQ(blocks.stats().held, 1u);
  EXPECT_FALSE(blocks.released(held.use));
  blocks.release(a);
  EXPECT_TRUE(blocks.released(held.use));
  EXPECT_EQ(blocks.classify(pa, 16).range, Range::Released);
  EXPECT_EQ(blocks.classify(pa - 1, 2).range, Range::Released);
  EXPECT_EQ(blocks.reuse(4096), nullptr) << "a held block was handed out";
  auto moved = std::move(held.use); // a moved Use still holds it, once
  EXPECT_EQ(blocks.reuse(1), nullptr);
  moved.reset();
  EXPECT_EQ(blocks.stats().held, 0u);
  std::memset(a, 0x77, 4096);
  EXPECT_EQ(blocks.reuse(4096), a) << "a block no Use holds was not reused";
  EXPECT_TRUE(allBytes(a, 4096, 0)) << "not zeroed";
  EXPECT_EQ(blocks.classify(pa, 4096).range, Range::Pinned); // its new owner's
  size_t drained = 0;
  blocks.drain([&](void *) { drained++; });
  EXPECT_EQ(drained, 2u);
  std::free(mem);
}
