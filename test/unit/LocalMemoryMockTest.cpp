// The local-memory reservation (review R5-F4) on the stand-in driver (bench/mock):
// the runtime makes the context's per-thread stack limit the cap every hardened
// kernel is held to when it starts (cuCtxSetLimit, in a quiet section, never
// lowering it; a failure is a typed error), and refuses at load a kernel whose
// CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES exceeds it, or whose attributes cannot be read.
// Runs only with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH).
#include "TimedCall.h"
#include "cuda/ModuleCheck.h"

#include "atoll/abi.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <cuda.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using namespace Atoll;
using namespace std::chrono_literals;

namespace {

const std::string kBitcode = std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/runtime_kernels.bc";
constexpr unsigned long kCap = ATOLL_DEFAULT_MAX_LOCAL_BYTES;

struct Mock {
  void (*stackLimit)(unsigned long, int, unsigned long) = nullptr;
  void (*stackLimitState)(unsigned long *, unsigned long *) = nullptr;
  void (*localBytes)(int, int) = nullptr;
  void (*loads)(unsigned long *, unsigned long *, long *) = nullptr;
  void (*hold)(int) = nullptr;
  void (*waiting)(int) = nullptr;
  unsigned long (*waited)() = nullptr;
};

class LocalMemoryMock : public ::testing::Test {
protected:
  void SetUp() override {
    const bool expectMock = std::getenv("ATOLL_EXPECT_MOCK") != nullptr;
    auto probe = Runtime::create();
    if (!probe && expectMock)
      FAIL() << "the stand-in driver did not load: " << probe.error().describe();
    if (!probe)
      GTEST_SKIP() << "no device: " << probe.error().describe();
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      auto get = [h](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
        return fn != nullptr;
      };
      ok = get(mock.stackLimit, "atollMockStackLimit") &
           get(mock.stackLimitState, "atollMockStackLimitState") &
           get(mock.localBytes, "atollMockLocalBytes") & get(mock.loads, "atollMockModuleLoads") &
           get(mock.hold, "atollMockHoldKernels") & get(mock.waiting, "atollMockWaitingCalls") &
           get(mock.waited, "atollMockWaitedCalls");
    }
    if (!ok && expectMock)
      FAIL() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    if (!ok)
      GTEST_SKIP() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    reset();
  }
  void TearDown() override {
    if (ok) {
      mock.hold(0);
      mock.waiting(0);
      reset();
    }
  }
  /// A fresh context's limit (1024 bytes), no faults, kernels' frames from the cubin.
  void reset() {
    mock.stackLimit(1024, 0, 0);
    mock.localBytes(-1, 0);
  }
  unsigned long limit() const {
    unsigned long l = 0, s = 0;
    mock.stackLimitState(&l, &s);
    return l;
  }
  unsigned long sets() const {
    unsigned long l = 0, s = 0;
    mock.stackLimitState(&l, &s);
    return s;
  }
  long liveModules() const {
    unsigned long ptx = 0, cubin = 0;
    long live = 0;
    mock.loads(&ptx, &cubin, &live);
    return live;
  }
  bool ok = false;
  Mock mock;
};

} // namespace

TEST(LocalMemoryCap, IsTheFrameCapOfThePassAndTheValidator) {
  // One number (atoll/abi.h) for atoll-mem's max-local-bytes default, the PTX
  // validator's .local limit (test/unit/PtxValidatorTest.cpp checks its default) and
  // the runtime's reservation.
  static_assert(cuda::kReservedLocalBytes == ATOLL_DEFAULT_MAX_LOCAL_BYTES);
  EXPECT_EQ(cuda::kReservedLocalBytes, 16384u);
}

TEST_F(LocalMemoryMock, TheCapIsReservedAtStart) {
  const unsigned long before = sets();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  EXPECT_EQ(limit(), kCap) << "the context's stack limit was not raised to the cap";
  EXPECT_EQ(sets(), before + 1);
  EXPECT_EQ((*rt)->device().limits.localBytesPerThread, kCap);
  // A second runtime of the context finds the reservation made: no set, no wait.
  auto second = Runtime::create();
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(sets(), before + 1) << "the limit was set again";
  EXPECT_EQ((*second)->device().limits.localBytesPerThread, kCap);
}

// Another user of the shared primary context reserved more: never lowered.
TEST_F(LocalMemoryMock, ALargerLimitIsNeverLowered) {
  mock.stackLimit(4 * kCap, 0, 0);
  const unsigned long before = sets();
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  EXPECT_EQ(limit(), 4 * kCap);
  EXPECT_EQ(sets(), before);
  EXPECT_EQ((*rt)->device().limits.localBytesPerThread, 4 * kCap);
}

struct SetFailure {
  int result;
  ErrorCode code;
};

class LocalMemoryMockSetFails : public LocalMemoryMock,
                                public ::testing::WithParamInterface<SetFailure> {};

// A reservation the driver refuses is a typed error of Runtime::create, not a
// runtime whose kernels would grow the reservation later.
TEST_P(LocalMemoryMockSetFails, IsATypedErrorAtStart) {
  mock.stackLimit(1024, GetParam().result, 0);
  auto rt = Runtime::create();
  ASSERT_FALSE(rt) << "the runtime started without its local-memory reservation";
  EXPECT_EQ(rt.error().code(), GetParam().code) << rt.error().describe();
  EXPECT_EQ(rt.error().message(), "cannot reserve 16384 bytes of local memory per thread "
                                  "(cuCtxSetLimit(CU_LIMIT_STACK_SIZE) failed)");
  EXPECT_NE(rt.error().detail().find("MOCK_ERROR_" + std::to_string(GetParam().result)),
            std::string::npos)
      << rt.error().detail();
  EXPECT_EQ(limit(), 1024u);
}

INSTANTIATE_TEST_SUITE_P(
    Results, LocalMemoryMockSetFails,
    ::testing::Values(SetFailure{CUDA_ERROR_OUT_OF_MEMORY, ErrorCode::CapacityExceeded},
                      SetFailure{CUDA_ERROR_INVALID_VALUE, ErrorCode::DriverError},
                      SetFailure{CUDA_ERROR_UNSUPPORTED_LIMIT, ErrorCode::DriverError}),
    [](const ::testing::TestParamInfo<SetFailure> &i) {
      return "Result" + std::to_string(i.param.result);
    });

// The driver may adjust a limit it is given; one that reads back below the cap is
// no reservation.
TEST_F(LocalMemoryMock, ALimitReadingBackBelowTheCapIsATypedError) {
  mock.stackLimit(1024, 0, kCap / 2);
  auto rt = Runtime::create();
  ASSERT_FALSE(rt) << "the runtime started with a smaller reservation";
  EXPECT_EQ(rt.error().code(), ErrorCode::DriverError) << rt.error().describe();
  EXPECT_EQ(rt.error().message(), "cannot reserve 16384 bytes of local memory per thread: the "
                                  "context's stack limit reads back 8192 bytes");
}

// cuCtxSetLimit waits for the device: the runtime makes it only in a quiet section.
// While another runtime's kernel runs (held), a runtime that must reserve waits
// for it before the call, not in the driver (which would stall every tenant's
// calls, waiting mode of the mock).
TEST_F(LocalMemoryMock, TheReservationIsMadeInAQuietSection) {
  mock.waiting(1);
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(kBitcode);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  auto p = (*rt)->createPipeline({.arenaBytes = 1 << 20, .timeout = 60000ms});
  ASSERT_TRUE(p) << p.error().describe();
  auto x = (*p)->allocate(64), y = (*p)->allocate(64);
  ASSERT_TRUE(x && y);
  ASSERT_TRUE((*p)->fill(*x, 0, 64, 0));
  const unsigned long waitedBefore = mock.waited(), setsBefore = sets();
  mock.hold(1);
  ASSERT_TRUE((*p)->launch(*vadd, {Dim3(1), Dim3(16)}, *x, *x, *y, 16));
  // A context whose limit is back at the default (as after a reset): the next
  // runtime must reserve again.
  mock.stackLimit(1024, 0, 0);
  Result<std::unique_ptr<Runtime>> second = Error(ErrorCode::DriverError, "not run");
  atoll_test::Detached create([&] { second = Runtime::create(); });
  EXPECT_FALSE(create.waitFor(300ms)) << "the reservation did not wait for the running kernel";
  EXPECT_EQ(sets(), setsBefore) << "cuCtxSetLimit was called while a kernel ran";
  mock.hold(0);
  ASSERT_TRUE(create.waitFor(5000ms)) << "the reservation did not end after the kernel";
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(sets(), setsBefore + 1);
  EXPECT_EQ(limit(), kCap);
  EXPECT_EQ(mock.waited(), waitedBefore) << "a call waited in the driver for the kernel";
  EXPECT_TRUE((*p)->synchronize());
}

// A kernel whose frame (ptxas's layout, spills included) exceeds the reservation
// is refused at load, naming the kernel and both numbers; the module is unloaded
// and not cached.
TEST_F(LocalMemoryMock, AKernelNeedingMoreThanTheReservationIsRefused) {
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  const long live = liveModules();
  mock.localBytes(int(kCap) + 1, 0);
  auto app = (*rt)->loadApplicationFile(kBitcode);
  mock.localBytes(-1, 0);
  ASSERT_FALSE(app) << "a kernel needing more local memory than reserved was loaded";
  EXPECT_EQ(app.error().code(), ErrorCode::Refused) << app.error().describe();
  const std::string &msg = app.error().message();
  EXPECT_NE(msg.find("refused by the driver-side module check: kernel '"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("' needs 16385 bytes of local memory per thread "
                     "(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), more than the 16384 reserved at "
                     "start"),
            std::string::npos)
      << msg;
  for (int i = 0; i < 200 && liveModules() != live; ++i)
    std::this_thread::sleep_for(10ms); // unloads run on the reclaim thread
  EXPECT_EQ(liveModules(), live) << "the refused module stayed loaded";
  auto again = (*rt)->loadApplicationFile(kBitcode);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ((*again)->origin(), Application::Origin::Compiled) << "a refused module was cached";
}

TEST_F(LocalMemoryMock, AKernelNeedingExactlyTheReservationLoads) {
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  mock.localBytes(int(kCap), 0);
  auto app = (*rt)->loadApplicationFile(kBitcode);
  mock.localBytes(-1, 0);
  ASSERT_TRUE(app) << app.error().describe();
  auto vadd = (*app)->kernel("vadd");
  ASSERT_TRUE(vadd);
  EXPECT_EQ(vadd->info().localBytesPerThread, kCap);
}

// Deny by default: a kernel whose local memory cannot be read is not loaded.
TEST_F(LocalMemoryMock, AFailingAttributeQueryRefusesTheModule) {
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  mock.localBytes(0, CUDA_ERROR_INVALID_VALUE);
  auto app = (*rt)->loadApplicationFile(kBitcode);
  mock.localBytes(-1, 0);
  ASSERT_FALSE(app) << "a module whose kernels' local memory is unknown was loaded";
  EXPECT_EQ(app.error().code(), ErrorCode::Refused) << app.error().describe();
  const std::string &msg = app.error().message();
  EXPECT_NE(msg.find("refused by the driver-side module check: "
                     "CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES of kernel '"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("' could not be read"), std::string::npos) << msg;
}

// Review R6-F2: ptxas's register spills are part of the frame the driver reserves, and
// no PTX check sees them. local_spill (test/gpu/kernels/spill_kernels.cu) declares a
// 16,000-byte depot (under the cap: atoll-mem and the PTX validator accept it) and
// keeps 512 words live around a loop: ptxas spills and makes the frame larger than
// the cap. The stand-in driver reports the frame ptxas wrote in the cubin
// (EIATTR_FRAME_SIZE), as the driver's LOCAL_SIZE_BYTES does: refused at load.
TEST_F(LocalMemoryMock, AKernelWhoseSpillsExceedTheCapIsRefused) {
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                        "/spill_kernels.bc");
  ASSERT_FALSE(app) << "a kernel whose spilled frame exceeds the cap was loaded";
  EXPECT_EQ(app.error().code(), ErrorCode::Refused) << app.error().describe();
  const std::string &msg = app.error().message();
  const std::string head = "refused by the driver-side module check: kernel 'local_spill' needs ";
  const size_t at = msg.find(head);
  ASSERT_NE(at, std::string::npos) << msg;
  const unsigned long needs = std::stoul(msg.substr(at + head.size()));
  std::printf("[local-memory] local_spill: the cubin's frame is %lu bytes (cap %lu)\n", needs,
              kCap);
  EXPECT_GT(needs, kCap) << msg;
  EXPECT_NE(msg.find("more than the 16384 reserved at start"), std::string::npos) << msg;
}

// The same reading of a real cubin: a 15,360-byte frame (local_kernels.cu) loads and
// reports its size.
TEST_F(LocalMemoryMock, AFrameUnderTheCapLoadsWithItsSize) {
  auto rt = Runtime::create();
  ASSERT_TRUE(rt) << rt.error().describe();
  auto app = (*rt)->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                        "/local_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto frame = (*app)->kernel("local_frame");
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->info().localBytesPerThread, 15360u);
}
