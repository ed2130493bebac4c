// The runtime's isolation guarantees on a real GPU: arenas are scrubbed before reuse,
// a spinning tenant times out without affecting others (and its arena is quarantined,
// not freed, while it still runs), a refused application disturbs nothing, bad
// copies and bad launches are typed errors that change nothing. Skipped without a GPU.
#include "RuntimeGpuUtil.h"

#include <chrono>
#include <cstring>
#include <thread>

using namespace Atoll;
using namespace atoll_test;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {
constexpr uint64_t MiB = 1ull << 20;

/// Counts the non-zero bytes in the pipeline's whole arena (one buffer over it all).
uint64_t nonZeroBytes(Pipeline &p, Buffer whole) {
  std::vector<uint8_t> host(whole.size(), 0xEE);
  Status s = p.copyToHost(host, whole);
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return uint64_t(std::count_if(host.begin(), host.end(), [](uint8_t b) { return b != 0; }));
}

/// Sets a 32-bit word of device memory from the host on a stream of the test's own
/// (not the pipeline's, whose queue is blocked by the spinning kernel).
void releaseFlag(uint64_t address) {
  const cuda::DriverApi &api = **cuda::loadDriver();
  CUstream s;
  ASSERT_EQ(api.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  ASSERT_EQ(api.cuMemsetD32Async(CUdeviceptr(address), 1, 1, s), CUDA_SUCCESS);
  ASSERT_EQ(api.cuStreamSynchronize(s), CUDA_SUCCESS);
  api.cuStreamDestroy(s);
}
} // namespace

TEST_F(RuntimeGpu, ArenasAreScrubbedBeforeReuse) {
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  Kernel fill = kernel(app, "fill_u32");
  uint64_t firstBase = 0;
  {
    auto a = pipeline({.arenaBytes = 64 * MiB, .name = "writer"});
    ASSERT_TRUE(a);
    firstBase = a->arenaBase();
    Buffer whole = *a->allocate(a->arenaBytes());
    ASSERT_TRUE(a->launch(fill, {Dim3(1024), Dim3(256)}, whole, a->arenaBytes() / 4,
                          uint32_t(0xDEADBEEF)));
    ASSERT_TRUE(a->synchronize());
    uint32_t probe[4] = {};
    ASSERT_TRUE(a->copyToHost(probe, whole, a->arenaBytes() - 16, 16));
    EXPECT_EQ(probe[3], 0xDEADBEEFu) << "the pattern must really be there";
  }
  auto b = pipeline({.arenaBytes = 64 * MiB, .name = "reader"});
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->stats().arenaFromPool);
  EXPECT_EQ(b->arenaBase(), firstBase) << "the pool should recycle the same arena";
  Buffer whole = *b->allocate(b->arenaBytes());
  EXPECT_EQ(nonZeroBytes(*b, whole), 0u) << "residue of the previous tenant";
}

TEST_F(RuntimeGpu, ScrubIsOrderedAfterUnfinishedWork) {
  // The writer is destroyed with its kernel still queued: the scrub runs on its
  // stream after it, and the next tenant waits for the scrub.
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  Kernel fill = kernel(app, "fill_u32");
  for (int round = 0; round < 5; ++round) {
    {
      auto a = pipeline({.arenaBytes = 64 * MiB});
      ASSERT_TRUE(a);
      Buffer whole = *a->allocate(a->arenaBytes());
      for (int i = 0; i < 4; ++i)
        ASSERT_TRUE(a->launch(fill, {Dim3(64), Dim3(256)}, whole, a->arenaBytes() / 4,
                              uint32_t(0xA5A5A5A5)));
    } // destroyed without synchronize
    auto b = pipeline({.arenaBytes = 64 * MiB});
    ASSERT_TRUE(b);
    Buffer whole = *b->allocate(b->arenaBytes());
    ASSERT_EQ(nonZeroBytes(*b, whole), 0u) << "round " << round;
  }
  rt->collect();
}

// Its bounds assume the spinning kernel and the victim's work run concurrently:
// compute-sanitizer serialises work, so the memcheck passes (scripts/gpu-batch.sh,
// scripts/run-gpu.sh) leave it out by this name (*TimingSensitive*).
class RuntimeGpuTimingSensitive : public RuntimeGpu {};

TEST_F(RuntimeGpuTimingSensitive, TimeoutOnASpinningKernelLeavesOthersAlone) {
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  // The cooperative policy (cancelOnTimeout = false): the kernel keeps running.
  auto spinner = pipeline({.arenaBytes = 4 * MiB, .timeout = milliseconds(200), .name = "spinner",
                           .cancelOnTimeout = false});
  auto other = pipeline({.arenaBytes = 16 * MiB, .name = "bystander"});
  ASSERT_TRUE(spinner && other);
  Buffer flag = *spinner->allocate(256), result = *spinner->allocate(256);
  ASSERT_TRUE(spinner->fill(flag, 0, 256, 0));
  ASSERT_TRUE(spinner->fill(result, 0, 256, 0));
  // Spins until the flag is set or 5 s have passed (the bound makes the test end).
  ASSERT_TRUE(spinner->launch(kernel(app, "spin"), {Dim3(1), Dim3(32)}, flag,
                              uint64_t(5'000'000'000ull), result));
  auto t0 = Clock::now();
  Status s = spinner->synchronize();
  auto waited = std::chrono::duration_cast<milliseconds>(Clock::now() - t0);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::Timeout);
  EXPECT_NE(s.error().message().find("pipeline 'spinner'"), std::string::npos);
  EXPECT_GE(waited.count(), 200);
  EXPECT_LT(waited.count(), 700) << "the timeout must bound the wait";
  EXPECT_TRUE(spinner->wedged());
  EXPECT_EQ(spinner->stats().timeouts, 1u);

  // While it spins: another pipeline works, and this one refuses new work.
  EXPECT_TRUE(runVadd(*other, kernel(app, "vadd"), 100000, 9));
  Status more = spinner->launch(kernel(app, "spin"), {Dim3(1), Dim3(32)}, flag, uint64_t(1), result);
  ASSERT_FALSE(more);
  EXPECT_EQ(more.error().code(), ErrorCode::Timeout);
  EXPECT_NE(more.error().message().find("wedged"), std::string::npos);
  Status copy = spinner->fill(result, 0, 4, 7);
  EXPECT_FALSE(copy);

  // Release the kernel through its flag (from another stream: the pipeline's own
  // queue is behind the kernel).
  releaseFlag(*spinner->deviceAddress(flag));
  auto deadline = Clock::now() + std::chrono::seconds(10);
  while (spinner->wedged() && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(1));
  EXPECT_FALSE(spinner->wedged());
  ASSERT_TRUE(spinner->synchronize());
  uint32_t how = 0;
  ASSERT_TRUE(spinner->copyToHost(&how, result, 0, 4));
  EXPECT_EQ(how, 1u) << "the kernel should have been released by the flag, not the bound";
  EXPECT_TRUE(runVadd(*spinner, kernel(app, "vadd"), 10000, 10)); // works again
  EXPECT_GT(spinner->stats().gpuTime.count(), 200'000'000) << "the spin counts as GPU time";
}

// Measured on the H200 (2026-12-01): with R3-F8 the destruction cancels the kernel
// within microseconds, so the arena never needs the quarantine (kernels that outlive
// the cancel deadline still get it: attack timeout_quarantine_drains, and the
// stand-in driver's HostStallMock tests); what is left to check here is that the
// kernel ended long before its bound and the next tenant sees no residue.
TEST_F(RuntimeGpu, DestroyingABusyCooperativePipelineCancelsIt) {
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  auto t0 = Clock::now();
  {
    // The cooperative policy (cancelOnTimeout = false: the timeout does not cancel),
    // destroyed while wedged: its arena is quarantined until the kernel has ended,
    // and the destruction cancels it (R3-F8: a policy must not outlive its pipeline),
    // so that is long before the kernel's own 1.5 s bound.
    auto spinner = pipeline({.arenaBytes = 8 * MiB, .timeout = milliseconds(50),
                             .cancelOnTimeout = false});
    ASSERT_TRUE(spinner);
    Buffer flag = *spinner->allocate(256), result = *spinner->allocate(256);
    ASSERT_TRUE(spinner->fill(flag, 0, 256, 0));
    // Bounded at 1.5 s; nobody releases it.
    ASSERT_TRUE(spinner->launch(kernel(app, "spin"), {Dim3(1), Dim3(32)}, flag,
                                uint64_t(1'500'000'000ull), result));
    EXPECT_FALSE(spinner->synchronize());
    auto d0 = Clock::now();
    spinner.reset(); // cancels; must not free the arena under a kernel still running
    EXPECT_LT(std::chrono::duration_cast<milliseconds>(Clock::now() - d0).count(), 100);
  }
  auto deadline = Clock::now() + std::chrono::seconds(10);
  while (rt->collect() > 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(5));
  EXPECT_EQ(rt->stats().quarantinedArenas, 0u);
  EXPECT_LT(std::chrono::duration_cast<milliseconds>(Clock::now() - t0).count(), 1400)
      << "destroying the pipeline did not cancel its kernel (R3-F8)";
  auto reused = pipeline({.arenaBytes = 8 * MiB});
  ASSERT_TRUE(reused);
  Buffer whole = *reused->allocate(reused->arenaBytes());
  EXPECT_EQ(nonZeroBytes(*reused, whole), 0u);
}

TEST_F(RuntimeGpu, RefusedApplicationDisturbsNothing) {
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  auto p = pipeline({.name = "busy"});
  ASSERT_TRUE(p);
  // Work in flight while the refusal happens: a 300 ms spin, then a vector add.
  const int n = 50000;
  std::vector<float> a(n), c(n);
  for (int i = 0; i < n; ++i)
    a[i] = float(i);
  Buffer flag = *p->allocate(256), result = *p->allocate(256);
  Buffer A = *p->allocate(n * 4), C = *p->allocate(n * 4);
  ASSERT_TRUE(p->fill(flag, 0, 256, 0));
  ASSERT_TRUE(p->copyToDevice(A, a));
  ASSERT_TRUE(p->launch(kernel(app, "spin"), {Dim3(1), Dim3(32)}, flag,
                        uint64_t(300'000'000ull), result));
  ASSERT_TRUE(p->launch(kernel(app, "vadd"), {Dim3((n + 255) / 256), Dim3(256)}, A, A, C, n));
  EXPECT_FALSE(*p->idle());

  auto bad = rt->loadApplicationFile(bitcodePath("refused_kernels.bc"), {.name = "attacker"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::Refused) << bad.error().describe();
  EXPECT_NE(bad.error().detail().find("evil"), std::string::npos) << bad.error().detail();
  EXPECT_FALSE(rt->lost());

  ASSERT_TRUE(p->synchronize());
  ASSERT_TRUE(p->copyToHost(c, C));
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[i], 2.0f * float(i));
  auto other = pipeline();
  EXPECT_TRUE(runVadd(*other, kernel(app, "vadd"), 1000, 11));
}

TEST_F(RuntimeGpu, OutOfArenaCopiesAreRefusedAndChangeNothing) {
  auto p = pipeline({.arenaBytes = 4 * MiB, .name = "copier"});
  auto q = pipeline({.arenaBytes = 4 * MiB});
  ASSERT_TRUE(p && q);
  Buffer A = *p->allocate(1024), B = *p->allocate(1024), F = *q->allocate(1024);
  ASSERT_TRUE(p->fill(A, 0, 1024, 0x5A));
  ASSERT_TRUE(p->fill(B, 0, 1024, 0xA5));
  const PipelineStats before = p->stats();
  std::vector<uint8_t> src(4096, 0xFF);
  struct {
    uint64_t offset, bytes;
  } bad[] = {{1000, 100}, {1024, 1}, {UINT64_MAX, 1}, {8, UINT64_MAX - 4}, {0, 1025}};
  for (auto [off, n] : bad) {
    for (bool async : {false, true}) {
      Status s = async ? p->copyToDeviceAsync(A, off, src.data(), n)
                       : p->copyToDevice(A, off, src.data(), n);
      ASSERT_FALSE(s) << off << " " << n;
      EXPECT_EQ(s.error().code(), ErrorCode::OutOfArena);
      EXPECT_NE(s.error().message().find("pipeline 'copier'"), std::string::npos);
      uint8_t sentinel[16];
      std::memset(sentinel, 0x77, 16);
      // The claimed size may be huge: validation fails before anything is touched.
      s = async ? p->copyToHostAsync(sentinel, A, off, n) : p->copyToHost(sentinel, A, off, n);
      ASSERT_FALSE(s);
      EXPECT_EQ(s.error().code(), ErrorCode::OutOfArena);
      for (uint8_t b : sentinel)
        EXPECT_EQ(b, 0x77) << "host memory changed by a refused copy";
      s = async ? p->fillAsync(A, off, n, 0) : p->fill(A, off, n, 0);
      ASSERT_FALSE(s);
      EXPECT_EQ(s.error().code(), ErrorCode::OutOfArena);
    }
  }
  EXPECT_ATOLL_ERROR(p->copyDeviceToDevice(B, 0, A, 512, 1024), ErrorCode::OutOfArena);
  // Overlapping ranges.
  EXPECT_ATOLL_ERROR(p->copyDeviceToDevice(A, 0, A, 256, 512), ErrorCode::InvalidArgument);
  // Another pipeline's buffer.
  EXPECT_ATOLL_ERROR(p->copyToDevice(F, 0, src.data(), 16), ErrorCode::InvalidArgument);
  EXPECT_ATOLL_ERROR(p->copyDeviceToDevice(A, 0, F, 0, 16), ErrorCode::InvalidArgument);
  Buffer forged(p->id(), B.id(), B.offset(), 1ull << 40);
  EXPECT_ATOLL_ERROR(p->copyToHost(src.data(), forged, 0, 16), ErrorCode::InvalidArgument);

  // Nothing changed: not the buffers, not the neighbour, not the counters.
  std::vector<uint8_t> a(1024), b(1024);
  ASSERT_TRUE(p->copyToHost(a, A));
  ASSERT_TRUE(p->copyToHost(b, B));
  for (int i = 0; i < 1024; ++i) {
    ASSERT_EQ(a[i], 0x5A) << i;
    ASSERT_EQ(b[i], 0xA5) << i;
  }
  EXPECT_EQ(p->stats().copiesToDevice, before.copiesToDevice);
  EXPECT_EQ(p->stats().fills, before.fills);
  // Valid copies at the very edge work.
  ASSERT_TRUE(p->copyToDevice(A, 1023, src.data(), 1));
  ASSERT_TRUE(p->copyToDevice(A, 1024, src.data(), 0));
}

TEST_F(RuntimeGpu, WrongLaunchesAreTypedErrorsAndThePipelineStillWorks) {
  auto app = load("runtime_kernels.bc");
  ASSERT_TRUE(app);
  Kernel vadd = kernel(app, "vadd");
  auto p = pipeline({.name = "careless"});
  auto q = pipeline();
  ASSERT_TRUE(p && q);
  Buffer A = *p->allocate(4096), B = *p->allocate(4096), C = *p->allocate(4096);
  Buffer foreign = *q->allocate(4096);
  Buffer freed = *p->allocate(4096);
  ASSERT_TRUE(p->free(freed));
  const LaunchConfig ok{Dim3(4), Dim3(256)};
  struct Case {
    const char *what;
    Status status;
    ErrorCode code;
    const char *mentions;
  } cases[] = {
      {"float for int", p->launch(vadd, ok, A, B, C, 1024.0f), ErrorCode::InvalidLaunch,
       "parameter 3"},
      {"64-bit for 32-bit", p->launch(vadd, ok, A, B, C, int64_t(1024)), ErrorCode::InvalidLaunch,
       "parameter 3"},
      {"too few", p->launch(vadd, ok, A, B, C), ErrorCode::InvalidLaunch, "takes 4 arguments"},
      {"int for pointer", p->launch(vadd, ok, A, uint64_t(0x1000), C, 1024),
       ErrorCode::InvalidLaunch, "parameter 1"},
      {"foreign buffer", p->launch(vadd, ok, A, foreign, C, 1024), ErrorCode::InvalidLaunch,
       "belongs to pipeline"},
      {"freed buffer", p->launch(vadd, ok, A, freed, C, 1024), ErrorCode::InvalidLaunch,
       "not a live allocation"},
      {"offset past the end", p->launch(vadd, ok, A, Arg::buffer(B, 4097), C, 1024),
       ErrorCode::InvalidLaunch, "beyond the end"},
      {"too many threads", p->launch(vadd, {Dim3(1), Dim3(2048)}, A, B, C, 1024),
       ErrorCode::InvalidLaunch, "exceeds the device limit"},
      {"too many threads (3d)", p->launch(vadd, {Dim3(1), Dim3(32, 32, 2)}, A, B, C, 1024),
       ErrorCode::InvalidLaunch, "threads per block"},
      {"empty grid", p->launch(vadd, {Dim3(0), Dim3(256)}, A, B, C, 1024),
       ErrorCode::InvalidLaunch, "empty launch"},
      {"grid.y too big", p->launch(vadd, {Dim3(1, 70000), Dim3(32)}, A, B, C, 1024),
       ErrorCode::InvalidLaunch, "grid.y"},
      {"unknown kernel", p->launch(*app, "vsub", ok, A, B, C, 1024), ErrorCode::NotFound, "vsub"},
      {"invalid kernel", p->launch(Kernel(), ok, A, B, C, 1024), ErrorCode::InvalidLaunch,
       "invalid"},
  };
  for (const Case &c : cases) {
    ASSERT_FALSE(c.status) << c.what;
    EXPECT_EQ(c.status.error().code(), c.code) << c.what << ": " << c.status.error().describe();
    EXPECT_NE(c.status.error().message().find(c.mentions), std::string::npos)
        << c.what << ": " << c.status.error().message();
    EXPECT_NE(c.status.error().message().find("pipeline 'careless'"), std::string::npos)
        << c.what;
  }
  EXPECT_EQ(p->stats().launches, 0u);
  EXPECT_FALSE(rt->lost());
  EXPECT_TRUE(p->synchronize());
  EXPECT_TRUE(runVadd(*p, vadd, 1000, 12));
  EXPECT_EQ(p->stats().launches, 1u);
}
