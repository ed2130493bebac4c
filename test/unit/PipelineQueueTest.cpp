// Pipelines under a tenant whose kernels do not end, on the stand-in driver
// (bench/mock, hold mode): the runtime never makes a driver call that the real
// driver would block in (an enqueue on a full queue, a pageable copy behind a
// running kernel; the mock counts them), and every call returns within its bound.
// Runs only with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH); skipped
// elsewhere.
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Mock {
  void (*hold)(int) = nullptr;
  unsigned long (*wouldBlock)() = nullptr;
  void (*queueDepth)(int) = nullptr;
};

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

class PipelineQueue : public ::testing::Test {
protected:
  void SetUp() override {
    // Under ctest the mock must be there: a skip would hide every check below.
    const bool expectMock = std::getenv("ATOLL_EXPECT_MOCK") != nullptr;
    auto rt = Runtime::create();
    if (!rt && expectMock)
      FAIL() << "the stand-in driver did not load: " << rt.error().describe();
    if (!rt)
      GTEST_SKIP() << "no device: " << rt.error().describe();
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h) {
      mock.hold = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockHoldKernels"));
      mock.wouldBlock = reinterpret_cast<unsigned long (*)()>(dlsym(h, "atollMockWouldBlock"));
      mock.queueDepth = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockSetQueueDepth"));
    }
    if ((!mock.hold || !mock.wouldBlock || !mock.queueDepth) && expectMock)
      FAIL() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    if (!mock.hold || !mock.wouldBlock || !mock.queueDepth)
      GTEST_SKIP() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    runtime = std::move(*rt);
    auto app = runtime->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                            "/runtime_kernels.bc");
    ASSERT_TRUE(app) << app.error().describe();
    this->app = std::move(*app);
    auto k = this->app->kernel("vadd");
    ASSERT_TRUE(k);
    vadd = *k;
  }
  void TearDown() override {
    if (mock.hold) {
      mock.hold(0);
      mock.queueDepth(1024);
    }
  }
  std::unique_ptr<Pipeline> pipeline(std::chrono::milliseconds timeout, bool cancel) {
    auto p = runtime->createPipeline(
        {.arenaBytes = 1 << 20, .timeout = timeout, .cancelOnTimeout = cancel,
         .cancelDeadline = 100ms});
    EXPECT_TRUE(p) << p.error().describe();
    if (!p)
      return nullptr;
    a = (*p)->allocate(64);
    c = (*p)->allocate(64);
    EXPECT_TRUE(a && c);
    EXPECT_TRUE((*p)->fill(*a, 0, 64, 0)); // before hold mode: completes at once
    return std::move(*p);
  }
  Status launch(Pipeline &p) { return p.launch(vadd, {Dim3(1), Dim3(16)}, *a, *a, *c, 16); }

  Mock mock;
  std::unique_ptr<Runtime> runtime;
  std::shared_ptr<Application> app;
  Kernel vadd;
  Result<Buffer> a = Error(ErrorCode::InvalidArgument, "unset"),
                 c = Error(ErrorCode::InvalidArgument, "unset");
};

} // namespace

// Kernels that never end, launched in a loop: the launch that would overfill the
// driver's queue waits for room (without the lock) and, at the timeout, returns
// Timeout; no enqueue ever meets a full queue.
TEST_F(PipelineQueue, LaunchesNeverOverfillTheDriverQueue) {
  auto p = pipeline(200ms, /*cancel=*/false);
  ASSERT_TRUE(p);
  const unsigned long before = mock.wouldBlock();
  mock.hold(1);
  int ok = 0;
  Status last;
  double longest = 0;
  for (int i = 0; i < 1000 && last; ++i) {
    auto t = Clock::now();
    last = launch(*p);
    longest = std::max(longest, msSince(t));
    ok += last.ok();
  }
  ASSERT_FALSE(last) << "1000 launches of kernels that never end were all enqueued";
  EXPECT_EQ(last.error().code(), ErrorCode::Timeout) << last.error().describe();
  EXPECT_NE(last.error().message().find("did not finish within the timeout of 200 ms"),
            std::string::npos)
      << last.error().message();
  EXPECT_GT(ok, 16);
  EXPECT_LT(ok, 128);
  EXPECT_LT(longest, 200 + 1000.0);
  EXPECT_EQ(mock.wouldBlock(), before) << "an enqueue met a full driver queue";
  EXPECT_TRUE(p->wedged());
  mock.hold(0); // the kernels end
  EXPECT_FALSE(p->wedged());
  EXPECT_TRUE(p->synchronize());
}

// The check above can fail: with a driver queue shorter than the runtime's limit the
// mock sees enqueues on a full queue.
TEST_F(PipelineQueue, ShortDriverQueueIsDetected) {
  auto p = pipeline(200ms, /*cancel=*/false);
  ASSERT_TRUE(p);
  const unsigned long before = mock.wouldBlock();
  mock.queueDepth(8);
  mock.hold(1);
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(launch(*p));
  EXPECT_GT(mock.wouldBlock(), before);
}

// A pageable synchronous copy behind a kernel waits without the lock and is issued
// only once the stream is idle: here the kernel ends after 50 ms and the copy is
// done; other calls that take the pipeline lock return meanwhile.
TEST_F(PipelineQueue, PageableCopyWaitsForIdleWithoutTheLock) {
  auto p = pipeline(2000ms, /*cancel=*/true);
  ASSERT_TRUE(p);
  const unsigned long before = mock.wouldBlock();
  mock.hold(1);
  ASSERT_TRUE(launch(*p));
  std::atomic<double> statsMs{-1};
  std::thread other([&] {
    std::this_thread::sleep_for(20ms);
    auto t = Clock::now();
    (void)p->stats();
    statsMs = msSince(t);
    std::this_thread::sleep_for(30ms);
    mock.hold(0);
  });
  std::vector<uint8_t> out(64, 0xff);
  auto t = Clock::now();
  Status s = p->copyToHost(out.data(), *c, 0, out.size());
  const double ms = msSince(t);
  other.join();
  EXPECT_TRUE(s) << s.error().describe();
  EXPECT_GE(ms, 45.0) << "the copy did not wait for the kernel";
  EXPECT_LT(statsMs.load(), 20.0) << "the copy held the pipeline lock while waiting";
  EXPECT_GE(statsMs.load(), 0.0);
  EXPECT_EQ(mock.wouldBlock(), before) << "a pageable copy was issued behind a running kernel";
}

// Another thread launches never-ending kernels as fast as it can (each wait for room
// times out and cancels them): a pageable copy is never issued behind a kernel and
// returns within timeout + cancelDeadline, done or Timeout; so does every launch.
TEST_F(PipelineQueue, PageableCopyWhileAnotherThreadLaunches) {
  auto p = pipeline(200ms, /*cancel=*/true);
  ASSERT_TRUE(p);
  const unsigned long before = mock.wouldBlock();
  mock.hold(1);
  std::atomic<bool> stop{false};
  std::atomic<int> launches{0}, timeouts{0};
  std::atomic<double> longestLaunch{0};
  std::thread launcher([&] {
    while (!stop) {
      auto t = Clock::now();
      Status l = launch(*p);
      double ms = msSince(t);
      if (ms > longestLaunch)
        longestLaunch = ms;
      ++launches;
      if (!l) {
        EXPECT_EQ(l.error().code(), ErrorCode::Timeout) << l.error().describe();
        ++timeouts;
      }
    }
  });
  std::this_thread::sleep_for(20ms);
  std::vector<uint8_t> out(64);
  for (int i = 0; i < 3; ++i) {
    auto t = Clock::now();
    Status s = p->copyToHost(out.data(), *c, 0, out.size());
    const double ms = msSince(t);
    if (!s)
      EXPECT_EQ(s.error().code(), ErrorCode::Timeout) << s.error().describe();
    EXPECT_LT(ms, 200 + 100 + 250.0) << "copy " << i;
  }
  stop = true;
  launcher.join();
  EXPECT_GT(timeouts.load(), 0) << "the queue never filled: nothing was measured";
  EXPECT_LT(longestLaunch.load(), 200 + 100 + 250.0);
  EXPECT_EQ(mock.wouldBlock(), before) << "a call the driver would block in was made";
  mock.hold(0);
  EXPECT_TRUE(p->synchronize());
  EXPECT_FALSE(p->wedged());
}
