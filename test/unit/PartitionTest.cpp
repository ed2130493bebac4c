// SM partitions (issue 17) on the stand-in driver (bench/mock: 132 SMs, partitions of
// 8 with alignment 8, as measured on the H200): quotas, admission, reuse, release,
// teardown, the quiet-section rule for cuGreenCtxCreate, and Unsupported. Runs only
// with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH); skipped elsewhere.
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;

namespace {

struct Green {
  long live = 0;
  unsigned long created = 0, destroyedWithStreams = 0;
  unsigned lastLaunchSms = 0;
};

struct Mock {
  void (*green)(long *, unsigned long *, unsigned long *, unsigned *) = nullptr;
  void (*hold)(int) = nullptr;
  void (*waiting)(int) = nullptr;
  unsigned long (*waited)() = nullptr;
  void (*ignoreCancel)(int) = nullptr;
  Green get() const {
    Green g;
    green(&g.live, &g.created, &g.destroyedWithStreams, &g.lastLaunchSms);
    return g;
  }
};

class Partitions : public ::testing::Test {
protected:
  void SetUp() override {
    const bool expectMock = std::getenv("ATOLL_EXPECT_MOCK") != nullptr;
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (h) {
      mock.green = reinterpret_cast<decltype(mock.green)>(dlsym(h, "atollMockGreen"));
      mock.hold = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockHoldKernels"));
      mock.waiting = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockWaitingCalls"));
      mock.waited = reinterpret_cast<unsigned long (*)()>(dlsym(h, "atollMockWaitedCalls"));
      mock.ignoreCancel = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockIgnoreCancel"));
    }
    if (!mock.green || !mock.hold || !mock.waiting || !mock.waited || !mock.ignoreCancel) {
      if (expectMock)
        FAIL() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
      GTEST_SKIP() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    }
  }
  void TearDown() override {
    if (mock.hold) {
      mock.ignoreCancel(0);
      mock.waiting(0);
      mock.hold(0);
    }
  }
  std::unique_ptr<Runtime> runtime(RuntimeOptions o = {}) {
    auto rt = Runtime::create(o);
    EXPECT_TRUE(rt) << rt.error().describe();
    return rt ? std::move(*rt) : nullptr;
  }
  static Result<std::unique_ptr<Pipeline>> pipeline(Runtime &rt, uint32_t sms, double share = 0,
                                                    std::string name = "t") {
    return rt.createPipeline({.arenaBytes = 2 << 20, .name = std::move(name), .smCount = sms,
                              .smShare = share});
  }
  /// Polls until the mock has no green context alive (the reclaimer destroys them).
  bool allDestroyed() {
    for (int i = 0; i < 400; ++i) {
      if (mock.get().live == 0)
        return true;
      std::this_thread::sleep_for(5ms);
    }
    return false;
  }
  Mock mock;
};

std::string fmt_quota(uint32_t q) { return "RuntimeOptions::quotaSms of " + std::to_string(q); }

} // namespace

TEST_F(Partitions, QuotaRunsOnAGreenContextOfThatSize) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionSms, 132u); // 15 groups of 8 + the remainder of 12
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/runtime_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto p = pipeline(*rt, 5); // rounded up to the granularity
  ASSERT_TRUE(p) << p.error().describe();
  EXPECT_EQ((*p)->partitionSms(), 8u);
  EXPECT_EQ((*p)->stats().partitionSms, 8u);
  auto a = (*p)->allocate(64), c = (*p)->allocate(64);
  ASSERT_TRUE(a && c);
  ASSERT_TRUE((*p)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
  ASSERT_TRUE((*p)->synchronize());
  EXPECT_EQ(mock.get().lastLaunchSms, 8u) << "the kernel did not run on the partition";
  s = rt->stats();
  EXPECT_EQ(s.partitionsLive, 1u);
  EXPECT_EQ(s.partitionSmsCommitted, 8u);
  // Without a quota: the whole device (the primary context's stream).
  auto whole = pipeline(*rt, 0);
  ASSERT_TRUE(whole);
  EXPECT_EQ((*whole)->partitionSms(), 0u);
  auto wa = (*whole)->allocate(64), wc = (*whole)->allocate(64);
  ASSERT_TRUE((*whole)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *wa, *wa, *wc, 16));
  ASSERT_TRUE((*whole)->synchronize());
  EXPECT_EQ(mock.get().lastLaunchSms, 132u);
}

TEST_F(Partitions, ShareIsRoundedUpToWholeGroups) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto half = pipeline(*rt, 0, 0.5); // 66 SMs -> 72 (9 groups of 8)
  ASSERT_TRUE(half) << half.error().describe();
  EXPECT_EQ((*half)->partitionSms(), 72u);
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 72u);
}

TEST_F(Partitions, AdmissionFillsEveryGroupThenRefuses) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  std::vector<std::unique_ptr<Pipeline>> held;
  unsigned sms = 0;
  for (int i = 0; i < 16; ++i) { // 15 groups of 8 and the remainder of 12
    auto p = pipeline(*rt, 8, 0, "tenant-" + std::to_string(i));
    ASSERT_TRUE(p) << i << ": " << p.error().describe();
    sms += (*p)->partitionSms();
    held.push_back(std::move(*p));
  }
  EXPECT_EQ(sms, 132u);
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 132u);
  EXPECT_EQ(rt->stats().partitionsLive, 16u);
  auto over = pipeline(*rt, 8, 0, "tenant-17");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_EQ(over.error().message(),
            "pipeline 'tenant-17': no room for a partition of 8 SMs (asked 8, rounded to the "
            "device's granularity of 8): 132 of 132 SMs are committed to other partitions");
  // A pipeline without a quota is still admitted (the whole device).
  EXPECT_TRUE(pipeline(*rt, 0));
  // Releasing one makes room for exactly one again.
  held.erase(held.begin() + 3);
  EXPECT_TRUE(pipeline(*rt, 8));
  auto big = pipeline(*rt, 200, 0, "big");
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(big.error().message().find("partitions can use 132 SMs of this device"),
            std::string::npos)
      << big.error().message();
}

TEST_F(Partitions, MalformedQuotasAreRefused) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto both = pipeline(*rt, 8, 0.5, "both");
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(both.error().message(), "pipeline 'both': set at most one of PipelineOptions::smCount "
                                    "and PipelineOptions::smShare");
  for (double bad : {1.5, -0.25}) {
    auto p = pipeline(*rt, 0, bad, "share");
    ASSERT_FALSE(p) << bad;
    EXPECT_EQ(p.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(p.error().message().find("PipelineOptions::smShare must be in (0, 1]"),
              std::string::npos)
        << p.error().message();
  }
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 0u); // nothing leaked
}

TEST_F(Partitions, SameSizeIsReusedFromThePool) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  const unsigned long before = mock.get().created;
  {
    auto p = pipeline(*rt, 16);
    ASSERT_TRUE(p);
    EXPECT_EQ((*p)->partitionSms(), 16u);
  }
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionsPooled, 1u);
  EXPECT_EQ(s.partitionSmsCommitted, 0u); // released with its pipeline
  {
    auto p = pipeline(*rt, 16);
    ASSERT_TRUE(p);
  }
  s = rt->stats();
  EXPECT_EQ(s.partitionsCreated, 1u);
  EXPECT_EQ(s.partitionsFromPool, 1u);
  EXPECT_EQ(mock.get().created - before, 1u);
  // Another size is a new green context.
  auto other = pipeline(*rt, 24);
  ASSERT_TRUE(other);
  EXPECT_EQ(rt->stats().partitionsCreated, 2u);
}

TEST_F(Partitions, PoolCreatedAtStartServesWithoutCreating) {
  auto rt = runtime({.partitionPool = {8, 8, 32}});
  ASSERT_TRUE(rt);
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionsCreated, 3u);
  EXPECT_EQ(s.partitionsPooled, 3u);
  EXPECT_EQ(s.partitionsFromPool, 0u);
  const unsigned long before = mock.get().created;
  auto a = pipeline(*rt, 8), b = pipeline(*rt, 8), c = pipeline(*rt, 32);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(mock.get().created, before) << "a pooled size created a green context";
  EXPECT_EQ(rt->stats().partitionsFromPool, 3u);
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 48u);
}

TEST_F(Partitions, TeardownDestroysEveryGreenContextAfterItsStreams) {
  {
    auto rt = runtime({.partitionPool = {8}});
    ASSERT_TRUE(rt);
    auto p = pipeline(*rt, 8);
    auto q = pipeline(*rt, 40);
    ASSERT_TRUE(p && q);
    EXPECT_GE(mock.get().live, 2);
  }
  EXPECT_TRUE(allDestroyed()) << mock.get().live << " green contexts left";
  EXPECT_EQ(mock.get().destroyedWithStreams, 0u);
}

// cuGreenCtxCreate is made only in a quiet section: while a tenant's kernel runs, a
// new partition is not created (createPipeline answers Timeout after loadTimeout);
// once it ends, the creation goes on and the partition joins the pool.
TEST_F(Partitions, CreationWaitsForAQuietDevice) {
  auto rt = runtime({.loadTimeout = 300ms});
  ASSERT_TRUE(rt);
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/runtime_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto busy = rt->createPipeline({.arenaBytes = 2 << 20, .cancelOnTimeout = false});
  ASSERT_TRUE(busy);
  auto a = (*busy)->allocate(64), c = (*busy)->allocate(64);
  ASSERT_TRUE((*busy)->synchronize());
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  mock.waiting(1);
  ASSERT_TRUE((*busy)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
  const auto t0 = std::chrono::steady_clock::now();
  auto p = pipeline(*rt, 8, 0, "late");
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code(), ErrorCode::Timeout);
  EXPECT_NE(p.error().message().find("pipeline 'late': creating a partition of 8 SMs did not "
                                     "finish within 300 ms"),
            std::string::npos)
      << p.error().message();
  EXPECT_LT(ms, 2000);
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting call was made while a kernel ran";
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 8u); // reserved for the pending creation
  mock.waiting(0);
  mock.hold(0);
  ASSERT_TRUE((*busy)->synchronize());
  // The creation finishes and joins the pool; the retry takes it.
  for (int i = 0; i < 200 && rt->stats().partitionsPooled == 0; ++i)
    std::this_thread::sleep_for(5ms);
  auto retry = pipeline(*rt, 8, 0, "late");
  ASSERT_TRUE(retry) << retry.error().describe();
  EXPECT_EQ(rt->stats().partitionsFromPool, 1u);
}

// A pipeline destroyed while its kernel is still leaving: its SMs stay committed
// (the next tenant gets other SMs) until an event after that work has completed.
TEST_F(Partitions, SmsOfWorkStillRunningStayCommittedUntilItEnds) {
  // Two pooled partitions: creating one would wait for the running kernel.
  auto rt = runtime({.partitionPool = {8, 8}});
  ASSERT_TRUE(rt);
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/runtime_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto p = pipeline(*rt, 8, 0, "leaving");
  ASSERT_TRUE(p);
  auto a = (*p)->allocate(64), c = (*p)->allocate(64);
  ASSERT_TRUE((*p)->synchronize());
  mock.hold(1);
  mock.ignoreCancel(1); // the cancel of the teardown does not end it at once
  ASSERT_TRUE((*p)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
  p->reset();
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionSmsCommitted, 8u) << "released while its kernel still ran";
  EXPECT_EQ(s.partitionsLive, 0u);
  EXPECT_EQ(s.partitionsPooled, 1u); // the other one; the draining one is not pooled
  auto next = pipeline(*rt, 8, 0, "next");
  ASSERT_TRUE(next) << next.error().describe();
  EXPECT_EQ(rt->stats().partitionsFromPool, 2u); // the other pooled one, not the draining
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 16u);
  EXPECT_EQ(rt->stats().partitionsPooled, 0u);
  mock.hold(0); // the kernel ends
  for (int i = 0; i < 200 && rt->stats().partitionSmsCommitted != 8u; ++i)
    std::this_thread::sleep_for(5ms);
  s = rt->stats();
  EXPECT_EQ(s.partitionSmsCommitted, 8u);
  EXPECT_EQ(s.partitionsPooled, 1u);
}

// Devices without green contexts: a quota is Unsupported (with the reason), all else
// works.
TEST_F(Partitions, UnsupportedDeviceRefusesQuotasOnly) {
  setenv("ATOLL_MOCK_GREEN", "unsupported", 1);
  auto rt = runtime({.partitionPool = {8}}); // ignored, no failure
  unsetenv("ATOLL_MOCK_GREEN");
  ASSERT_TRUE(rt);
  EXPECT_EQ(rt->stats().partitionSms, 0u);
  auto p = pipeline(*rt, 8, 0, "quota");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code(), ErrorCode::Unsupported);
  EXPECT_NE(p.error().message().find(
                "pipeline 'quota': an SM quota needs SM partitions, which are unsupported here: "
                "the device does not offer SM partitions (cuDeviceGetDevResource: "),
            std::string::npos)
      << p.error().message();
  EXPECT_EQ(to_string(p.error().code()), "unsupported");
  auto share = pipeline(*rt, 0, 0.25, "share");
  ASSERT_FALSE(share);
  EXPECT_EQ(share.error().code(), ErrorCode::Unsupported);
  auto plain = pipeline(*rt, 0);
  EXPECT_TRUE(plain) << plain.error().describe();
}

// --- the rest of the device (RuntimeOptions::quotaSms) --------------------------------

namespace {

/// SMs the mock ran sm_probe's blocks on (block b on the b-th SM of the stream's).
std::set<uint32_t> probeSms(Pipeline &p, const Kernel &probe, uint32_t blocks = 132) {
  auto out = p.allocate(blocks * 4);
  EXPECT_TRUE(out);
  if (!out)
    return {};
  std::vector<uint32_t> ids(blocks, ~0u);
  EXPECT_TRUE(p.launch(probe, {Dim3(blocks), Dim3(32)}, *out, uint64_t(1000)));
  EXPECT_TRUE(p.synchronize());
  EXPECT_TRUE(p.copyToHost(ids, *out));
  (void)p.free(*out);
  return std::set<uint32_t>(ids.begin(), ids.end());
}

} // namespace

// quotaSms = 64: quotas come from 8 groups of 8; pipelines without a quota get their
// streams on one green context over the other 68 SMs (7 groups and the split's
// leftover of 12), whatever quotas come and go.
TEST_F(Partitions, NoQuotaPipelinesRunOnTheRestOfTheDevice) {
  const unsigned long createdBefore = mock.get().created;
  auto rt = runtime({.quotaSms = 64});
  ASSERT_TRUE(rt);
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionSms, 64u);
  EXPECT_EQ(s.partitionRemainderSms, 68u);
  EXPECT_EQ(s.partitionSmsCommitted, 0u);
  EXPECT_EQ(s.partitionsLive, 0u) << "the rest is not a quota's partition";
  EXPECT_EQ(mock.get().created - createdBefore, 1u) << "the rest's green context, once";
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/partition_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  const Kernel probe = *(*app)->kernel("sm_probe");
  auto plain = pipeline(*rt, 0, 0, "plain");
  ASSERT_TRUE(plain) << plain.error().describe();
  EXPECT_EQ((*plain)->partitionSms(), 68u);
  EXPECT_EQ((*plain)->stats().partitionSms, 68u);
  const std::set<uint32_t> rest = probeSms(**plain, probe);
  EXPECT_EQ(mock.get().lastLaunchSms, 68u) << "the stream is not the rest's";
  EXPECT_EQ(rest.size(), 68u);
  // Quota pipelines fill the SMs set aside: never one of the rest's.
  std::set<uint32_t> quotas;
  {
    std::vector<std::unique_ptr<Pipeline>> held;
    for (int i = 0; i < 4; ++i) {
      auto q = pipeline(*rt, 16, 0, "q" + std::to_string(i));
      ASSERT_TRUE(q) << q.error().describe();
      for (uint32_t sm : probeSms(**q, probe))
        EXPECT_TRUE(quotas.insert(sm).second) << "SM " << sm << " in two quotas";
      held.push_back(std::move(*q));
    }
  }
  EXPECT_EQ(quotas.size(), 64u);
  for (uint32_t sm : quotas)
    EXPECT_EQ(rest.count(sm), 0u) << "SM " << sm << " is both a quota's and the rest's";
  // Quotas came and went: a new pipeline without a quota, and the old one, still
  // run on the same rest; no other green context was made for them.
  const unsigned long created = mock.get().created;
  auto later = pipeline(*rt, 0, 0, "later");
  ASSERT_TRUE(later);
  EXPECT_EQ(probeSms(**later, probe), rest);
  EXPECT_EQ(probeSms(**plain, probe), rest);
  EXPECT_EQ(mock.get().created, created);
}

TEST_F(Partitions, AdmissionCountsOnlyTheSmsSetAside) {
  auto rt = runtime({.quotaSms = 60}); // rounded up to 64
  ASSERT_TRUE(rt);
  EXPECT_EQ(rt->stats().partitionSms, 64u);
  std::vector<std::unique_ptr<Pipeline>> held;
  for (int i = 0; i < 8; ++i) {
    auto p = pipeline(*rt, 8, 0, "tenant-" + std::to_string(i));
    ASSERT_TRUE(p) << i << ": " << p.error().describe();
    held.push_back(std::move(*p));
  }
  EXPECT_EQ(rt->stats().partitionSmsCommitted, 64u);
  auto over = pipeline(*rt, 8, 0, "tenant-9");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_EQ(over.error().message(),
            "pipeline 'tenant-9': no room for a partition of 8 SMs (asked 8, rounded to the "
            "device's granularity of 8): 64 of 64 SMs are committed to other partitions");
  // The rest still takes pipelines without a quota (it is not counted).
  auto plain = pipeline(*rt, 0, 0, "plain");
  ASSERT_TRUE(plain) << plain.error().describe();
  EXPECT_EQ((*plain)->partitionSms(), 68u);
  held.clear();
  auto big = pipeline(*rt, 72, 0, "big");
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_EQ(big.error().message(),
            "pipeline 'big': no room for a partition of 72 SMs (asked 72, rounded to the "
            "device's granularity of 8): quota pipelines can use the 64 SMs set aside for them "
            "(RuntimeOptions::quotaSms); the other 68 run pipelines without a quota");
  // A share is of the whole device: 0.25 x 132 = 33 -> 40 SMs, within the 64.
  auto share = pipeline(*rt, 0, 0.25, "share");
  ASSERT_TRUE(share) << share.error().describe();
  EXPECT_EQ((*share)->partitionSms(), 40u);
  // A quota as large as everything set aside fits.
  share->reset();
  EXPECT_TRUE(pipeline(*rt, 64, 0, "all"));
}

TEST_F(Partitions, QuotaSmsThatLeaveNoRestAreRefused) {
  for (uint32_t bad : {132u, 128u, 200u, 0xffffffffu}) {
    SCOPED_TRACE(bad);
    auto rt = Runtime::create({.quotaSms = bad});
    ASSERT_FALSE(rt);
    EXPECT_EQ(rt.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(rt.error().message().find(fmt_quota(bad)), std::string::npos)
        << rt.error().message();
    EXPECT_NE(rt.error().message().find(
                  "leaves no SMs for pipelines without a quota: partitions can use 132 SMs of "
                  "this device in units of 8"),
              std::string::npos)
        << rt.error().message();
  }
  EXPECT_TRUE(allDestroyed()) << "a refused runtime left a green context";
  // The largest that leaves a unit: 15 groups of 8, the rest is the leftover's 12.
  auto rt = runtime({.quotaSms = 120});
  ASSERT_TRUE(rt);
  EXPECT_EQ(rt->stats().partitionSms, 120u);
  EXPECT_EQ(rt->stats().partitionRemainderSms, 12u);
}

// Teardown: the rest's green context outlives every pipeline stream on it (also one
// retired with its kernel still running) and is destroyed with the runtime, after
// them, on the reclaimer.
TEST_F(Partitions, RestIsDestroyedAfterItsStreams) {
  {
    auto rt = runtime({.quotaSms = 64});
    ASSERT_TRUE(rt);
    auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                       "/runtime_kernels.bc");
    ASSERT_TRUE(app) << app.error().describe();
    auto q = pipeline(*rt, 8, 0, "quota");
    auto p = pipeline(*rt, 0, 0, "leaving");
    ASSERT_TRUE(q && p);
    auto a = (*p)->allocate(64), c = (*p)->allocate(64);
    ASSERT_TRUE((*p)->synchronize());
    mock.hold(1);
    mock.ignoreCancel(1); // the teardown's cancel does not end it at once
    ASSERT_TRUE((*p)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
    p->reset(); // its stream is retired, still busy
    q->reset();
    EXPECT_GE(mock.get().live, 2) << "the rest went while a stream of it was busy";
    // A new pipeline without a quota still runs there.
    auto next = pipeline(*rt, 0, 0, "next");
    ASSERT_TRUE(next);
    EXPECT_EQ((*next)->partitionSms(), 68u);
    mock.ignoreCancel(0);
    mock.hold(0); // the kernel ends
  }
  EXPECT_TRUE(allDestroyed()) << mock.get().live << " green contexts left";
  EXPECT_EQ(mock.get().destroyedWithStreams, 0u) << "a green context went before its streams";
}

// The rest's green context is made like any other: only in a quiet section. Another
// runtime's running kernel makes Runtime::create wait at most loadTimeout, then
// answer Timeout (nothing half-made is left).
TEST_F(Partitions, RestIsCreatedInAQuietSection) {
  auto rt = runtime();
  ASSERT_TRUE(rt);
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/runtime_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto busy = rt->createPipeline({.arenaBytes = 2 << 20, .cancelOnTimeout = false});
  ASSERT_TRUE(busy);
  auto a = (*busy)->allocate(64), c = (*busy)->allocate(64);
  ASSERT_TRUE((*busy)->synchronize());
  const unsigned long waitedBefore = mock.waited();
  mock.hold(1);
  mock.waiting(1);
  ASSERT_TRUE((*busy)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
  auto second = Runtime::create({.loadTimeout = 300ms, .quotaSms = 64});
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code(), ErrorCode::Timeout);
  EXPECT_NE(second.error().message().find("creating the green context of the 68 SMs left to "
                                          "pipelines without a quota did not finish within "
                                          "300 ms"),
            std::string::npos)
      << second.error().message();
  EXPECT_EQ(mock.waited(), waitedBefore) << "a waiting call was made while a kernel ran";
  mock.waiting(0);
  mock.hold(0);
  ASSERT_TRUE((*busy)->synchronize());
  auto third = Runtime::create({.loadTimeout = 2000ms, .quotaSms = 64});
  ASSERT_TRUE(third) << third.error().describe();
  EXPECT_EQ((*third)->stats().partitionRemainderSms, 68u);
}

// No green contexts: quotaSms is ignored, pipelines without a quota run on the whole
// device as before, quotas are Unsupported.
TEST_F(Partitions, UnsupportedDeviceIgnoresQuotaSms) {
  setenv("ATOLL_MOCK_GREEN", "unsupported", 1);
  auto rt = runtime({.quotaSms = 64});
  unsetenv("ATOLL_MOCK_GREEN");
  ASSERT_TRUE(rt);
  EXPECT_EQ(rt->stats().partitionSms, 0u);
  EXPECT_EQ(rt->stats().partitionRemainderSms, 0u);
  auto app = rt->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                     "/runtime_kernels.bc");
  ASSERT_TRUE(app) << app.error().describe();
  auto plain = pipeline(*rt, 0);
  ASSERT_TRUE(plain) << plain.error().describe();
  EXPECT_EQ((*plain)->partitionSms(), 0u);
  auto a = (*plain)->allocate(64), c = (*plain)->allocate(64);
  ASSERT_TRUE((*plain)->launch(**app, "vadd", {Dim3(1), Dim3(16)}, *a, *a, *c, 16));
  ASSERT_TRUE((*plain)->synchronize());
  EXPECT_EQ(mock.get().lastLaunchSms, 132u);
  auto q = pipeline(*rt, 8, 0, "quota");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code(), ErrorCode::Unsupported);
}
