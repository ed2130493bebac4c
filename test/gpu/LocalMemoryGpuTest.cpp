// The local-memory reservation (review R5-F4) on a real device. Measured on the H200
// before it: the first launch of a kernel needing more local memory per thread than
// the context's reservation grew the reservation and WAITED for another stream's
// kernel (1,905 ms). The runtime now reserves the cap (ATOLL_DEFAULT_MAX_LOCAL_BYTES)
// at start and refuses any kernel needing more at load, so a first launch near the
// cap returns at once while another tenant's kernel runs.
//
// Its own binary: a fresh process, whose context no earlier test sized.
#include "RuntimeGpuUtil.h"

#include "atoll/abi.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;
using atoll_test::RuntimeGpu;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

constexpr uint64_t kCap = ATOLL_DEFAULT_MAX_LOCAL_BYTES;
constexpr uint32_t kLocalWords = 3840; // local_kernels.cu: 15,360 bytes of frame
constexpr uint32_t kBlocks = 64, kThreads = 128, kRounds = 1000;

/// The context's per-thread stack limit (the local-memory reservation), read on
/// this thread (Runtime::create made the context current here).
size_t stackLimit() {
  auto api = cuda::loadDriver();
  if (!api)
    return 0;
  size_t v = 0;
  CUresult r = (*api)->cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
  EXPECT_EQ(r, CUDA_SUCCESS) << cuda::describe(**api, r);
  return v;
}

uint32_t expected(uint32_t seed) {
  uint32_t acc = 0;
  for (uint32_t i = 0; i < kRounds; ++i)
    acc += seed * ((seed + i * 7u) % kLocalWords) + 1u;
  return acc;
}

class LocalMemoryGpu : public RuntimeGpu {
protected:
  /// Tenant A's long kernel (spin: ~400 ms, one thread) on one pipeline while
  /// tenant B makes the first launch of local_frame on another (in a partition of
  /// `bSms` SMs when non-zero): B's launch call must return at once, its result
  /// must be exact, and the reservation must not have grown.
  void run(uint32_t bSms) {
    auto runtimeApp = load("runtime_kernels.bc");
    auto localApp = load("local_kernels.bc"); // loaded first: a load waits for A
    ASSERT_TRUE(runtimeApp && localApp);
    Kernel spin = kernel(runtimeApp, "spin"), vadd = kernel(runtimeApp, "vadd");
    Kernel frame = kernel(localApp, "local_frame");
    ASSERT_TRUE(spin.valid() && vadd.valid() && frame.valid());
    const uint32_t local = frame.info().localBytesPerThread;
    std::printf("[local-memory] local_frame needs %u bytes of local memory per thread "
                "(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES); cap %llu\n",
                local, static_cast<unsigned long long>(kCap));
    EXPECT_GE(local, kLocalWords * 4u) << "the attribute does not count the frame";
    EXPECT_LE(local, kCap);

    auto a = pipeline({.arenaBytes = 8 << 20, .timeout = 30s, .name = "tenant-a"});
    auto b = bSms ? rt->createPipeline({.arenaBytes = 8 << 20, .timeout = 30s,
                                        .name = "tenant-b", .smCount = bSms})
                  : rt->createPipeline({.arenaBytes = 8 << 20, .timeout = 30s,
                                        .name = "tenant-b"});
    if (bSms && !b && b.error().code() == ErrorCode::Unsupported)
      GTEST_SKIP() << "no SM partitions here: " << b.error().describe();
    ASSERT_TRUE(b) << b.error().describe();
    ASSERT_TRUE(a);
    Pipeline &pb = **b;

    // B's buffers, inputs and a warm-up launch without local memory, all before A.
    const uint32_t n = kBlocks * kThreads;
    std::vector<uint32_t> seeds(n), out(n, 0);
    for (uint32_t i = 0; i < n; ++i)
      seeds[i] = i * 2654435761u + 12345u;
    auto bSeeds = pb.allocate(n * 4), bOut = pb.allocate(n * 4);
    ASSERT_TRUE(bSeeds && bOut);
    ASSERT_TRUE(pb.copyToDevice(*bSeeds, seeds));
    ASSERT_TRUE(pb.fill(*bOut, 0, n * 4, 0));
    ASSERT_TRUE(atoll_test::runVadd(pb, vadd, 1024, 7));
    const size_t before = stackLimit();

    auto flag = a->allocate(4), result = a->allocate(4);
    ASSERT_TRUE(flag && result);
    ASSERT_TRUE(a->fill(*flag, 0, 4, 0));
    ASSERT_TRUE(a->fill(*result, 0, 4, 0));
    const auto aStart = Clock::now();
    ASSERT_TRUE(a->launch(spin, {Dim3(1), Dim3(32)}, *flag, 400'000'000ull, *result));
    std::this_thread::sleep_for(20ms); // A's kernel is on the device
    auto idle = a->idle();
    ASSERT_TRUE(idle);
    ASSERT_FALSE(*idle) << "A's kernel ended before B's launch: the test measured nothing";

    const auto t0 = Clock::now();
    Status launched = pb.launch(frame, {Dim3(kBlocks), Dim3(kThreads)}, *bSeeds, *bOut, kRounds);
    const double launchMs = msSince(t0);
    ASSERT_TRUE(launched) << launched.error().describe();
    idle = a->idle();
    ASSERT_TRUE(idle);
    const bool aRanThroughout = !*idle;
    const auto t1 = Clock::now();
    Status bSync = pb.synchronize();
    const double bSyncMs = msSince(t1);
    ASSERT_TRUE(bSync) << bSync.error().describe();
    ASSERT_TRUE(a->synchronize());
    const double aMs = msSince(aStart);
    ASSERT_TRUE(pb.copyToHost(out, *bOut));
    uint32_t aResult = 0;
    ASSERT_TRUE(a->copyToHost(&aResult, *result, 0, 4));
    const size_t after = stackLimit();

    std::printf("[local-memory] %s: B's first launch of local_frame returned in %.3f ms "
                "while A's kernel ran (A ran %.1f ms in all, still running after B's launch: "
                "%s); B's synchronize %.3f ms\n",
                bSms ? "B in a partition" : "B on the whole device", launchMs, aMs,
                aRanThroughout ? "yes" : "no", bSyncMs);
    std::printf("[local-memory] stack limit before B's launch %zu bytes, after %zu bytes\n",
                before, after);
    EXPECT_TRUE(aRanThroughout) << "A's kernel ended during B's launch call: it waited";
    EXPECT_LT(launchMs, 50.0) << "B's first launch waited (the reservation grew?)";
    EXPECT_EQ(aResult, 2u) << "A's spin did not run to its bound";
    EXPECT_EQ(after, before) << "the reservation changed: B's launch resized it";
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i)
      wrong += out[i] != expected(seeds[i]);
    EXPECT_EQ(wrong, 0u) << "B's results are not exact";
    std::printf("[local-memory] B's results: %u of %u exact\n", n - uint32_t(wrong), n);
  }
};

} // namespace

TEST_F(LocalMemoryGpu, TheContextReservesTheCapAtStart) {
  const size_t limit = stackLimit();
  std::printf("[local-memory] context stack limit after start: %zu bytes (cap %llu); "
              "DeviceLimits::localBytesPerThread %llu\n",
              limit, static_cast<unsigned long long>(kCap),
              static_cast<unsigned long long>(rt->device().limits.localBytesPerThread));
  EXPECT_GE(limit, kCap);
  EXPECT_EQ(rt->device().limits.localBytesPerThread, limit);
}

// Timed (a 50 ms bound): left out of the memcheck run, which slows host calls.
class LocalMemoryTimingSensitive : public LocalMemoryGpu {};

TEST_F(LocalMemoryTimingSensitive, AFirstLaunchNearTheCapDoesNotWaitForAnotherTenant) { run(0); }

// Green contexts (SM partitions) launch the primary context's kernels on their own
// streams: the same must hold there.
TEST_F(LocalMemoryTimingSensitive, AFirstLaunchNearTheCapInAPartitionDoesNotWait) { run(8); }

// Review R6-F2: register spills made by ptxas (after every PTX check) are part of the
// frame. local_spill's PTX declares 16,000 bytes of .local (accepted); ptxas makes
// its frame larger than the cap. The driver's LOCAL_SIZE_BYTES counts it: refused
// at load, naming the kernel and both numbers, and nothing else changes.
TEST_F(LocalMemoryGpu, AKernelWhoseSpillsExceedTheCapIsRefused) {
  const size_t before = stackLimit();
  auto app = rt->loadApplicationFile(atoll_test::bitcodePath("spill_kernels.bc"));
  ASSERT_FALSE(app) << "a kernel whose spilled frame exceeds the cap was loaded";
  EXPECT_EQ(app.error().code(), ErrorCode::Refused) << app.error().describe();
  const std::string &msg = app.error().message();
  const std::string head = "refused by the driver-side module check: kernel 'local_spill' needs ";
  const size_t at = msg.find(head);
  ASSERT_NE(at, std::string::npos) << msg;
  const unsigned long needs = std::stoul(msg.substr(at + head.size()));
  std::printf("[local-memory] local_spill refused: the driver's LOCAL_SIZE_BYTES is %lu bytes "
              "(cap %llu): %s\n",
              needs, static_cast<unsigned long long>(kCap), msg.c_str());
  EXPECT_GT(needs, kCap);
  EXPECT_EQ(stackLimit(), before) << "the refused module changed the reservation";
}
