// Pipeline lanes (runtime/Lanes.h) on the stand-in driver (bench/mock): a pipeline's
// stream, cancel event and control slot are reused by the next pipeline of the same
// context only when no kernel of the last owner can still run and every cancel set
// has landed; what createPipeline costs in driver calls (counted per thread by the
// mock, so a regression on the creation path shows here without a GPU); lanes of an
// evicted partition go before its green context; the bench's step profile. Runs only
// with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH).
#include "MockDriverFixture.h"
#include "PipelineImpl.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll;
using namespace std::chrono_literals;

namespace {

const std::string kBitcode = std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/runtime_kernels.bc";

/// Driver calls this thread makes, by entry point, between construction and take().
class CallCounter {
public:
  CallCounter() {
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD))
      calls_ = reinterpret_cast<unsigned long (*)(const char *)>(dlsym(h, "atollMockCalls"));
    before_ = snapshot();
  }
  bool available() const { return calls_ != nullptr; }
  /// Calls per entry point since construction (or the last take), zero counts left out.
  std::map<std::string, unsigned long> take() {
    auto now = snapshot();
    std::map<std::string, unsigned long> d;
    for (auto &[k, v] : now)
      if (v != before_[k])
        d[k] = v - before_[k];
    before_ = now;
    return d;
  }
  static std::string describe(const std::map<std::string, unsigned long> &m) {
    std::string s;
    for (auto &[k, v] : m)
      s += (s.empty() ? "" : ", ") + k + " x" + std::to_string(v);
    return s.empty() ? "none" : s;
  }

private:
  static constexpr const char *kNames[] = {
      "", "cuCtxSetCurrent", "cuStreamCreate", "cuGreenCtxStreamCreate", "cuStreamDestroy",
      "cuStreamQuery", "cuStreamWaitEvent", "cuEventCreate", "cuEventDestroy",
      "cuEventRecord", "cuEventQuery", "cuMemsetD32Async", "cuMemsetD8Async", "cuMemAlloc",
      "cuMemCreate", "cuMemMap", "cuGreenCtxCreate"};
  std::map<std::string, unsigned long> snapshot() const {
    std::map<std::string, unsigned long> m;
    if (calls_)
      for (const char *n : kNames)
        m[*n ? n : "total"] = calls_(n);
    return m;
  }
  unsigned long (*calls_)(const char *) = nullptr;
  std::map<std::string, unsigned long> before_;
};

class Lanes : public atoll_test::MockDriverTest {
protected:
  Lanes() : MockDriverTest(/*deferredSets=*/true) {}
  void SetUp() override {
    MockDriverTest::SetUp();
    if (IsSkipped() || HasFatalFailure())
      return;
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD))
      green = reinterpret_cast<decltype(green)>(dlsym(h, "atollMockGreen"));
    if (!green || !CallCounter().available() || !mock.holdCopies)
      FAIL() << "the stand-in driver lacks atollMockGreen, atollMockCalls or atollMockHoldCopies";
  }
  std::unique_ptr<Runtime> runtime(RuntimeOptions o = {}) {
    auto rt = Runtime::create(o);
    EXPECT_TRUE(rt) << rt.error().describe();
    if (!rt)
      return nullptr;
    auto a = (*rt)->loadApplicationFile(kBitcode);
    EXPECT_TRUE(a) << a.error().describe();
    app = a ? *a : nullptr;
    return std::move(*rt);
  }
  /// Without timing events (gpuTiming adds two events per pipeline, created and
  /// destroyed with it), as the partition bench creates them.
  static Result<std::unique_ptr<Pipeline>> pipeline(Runtime &rt, uint32_t sms = 0,
                                                    std::string name = "t") {
    return rt.createPipeline(
        {.arenaBytes = 1 << 20, .name = std::move(name), .gpuTiming = false, .smCount = sms});
  }
  /// Launches vadd (held while hold mode is on) on `p`.
  Status launch(Pipeline &p) {
    auto x = p.allocate(64), y = p.allocate(64);
    if (!x || !y)
      return Error(ErrorCode::ArenaExhausted, "test buffers");
    auto k = app->kernel("vadd");
    return p.launch(*k, {Dim3(1), Dim3(16)}, *x, *x, *y, 16);
  }
  long liveGreen() const {
    long live = 0;
    unsigned long created = 0, withStreams = 0;
    unsigned sms = 0;
    green(&live, &created, &withStreams, &sms);
    return live;
  }
  unsigned long destroyedWithStreams() const {
    long live = 0;
    unsigned long created = 0, withStreams = 0;
    unsigned sms = 0;
    green(&live, &created, &withStreams, &sms);
    return withStreams;
  }
  std::shared_ptr<Application> app;
  void (*green)(long *, unsigned long *, unsigned long *, unsigned *) = nullptr;
};

} // namespace

// An ended pipeline's stream serves the next pipeline of the same context; a pipeline
// in a partition gets a lane of that partition's green context, never the whole
// device's (and the reverse).
TEST_F(Lanes, AnIdlePipelinesLaneServesTheNextOfTheSameContext) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  {
    auto p = pipeline(*rt);
    ASSERT_TRUE(p) << p.error().describe();
    EXPECT_FALSE((*p)->stats().streamFromPool);
    ASSERT_TRUE(launch(**p));
    ASSERT_TRUE((*p)->synchronize());
  }
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 1u);
  {
    auto p = pipeline(*rt);
    ASSERT_TRUE(p);
    EXPECT_TRUE((*p)->stats().streamFromPool);
    EXPECT_EQ(rt->stats().pipelineStreamsPooled, 0u);
    EXPECT_EQ(rt->stats().pipelineStreamsReused, 1u);
    // It runs as on a new stream.
    ASSERT_TRUE(launch(**p));
    ASSERT_TRUE((*p)->synchronize());
    // A quota pipeline does not take the whole device's lane.
    auto q = pipeline(*rt, 8);
    ASSERT_TRUE(q) << q.error().describe();
    EXPECT_FALSE((*q)->stats().streamFromPool);
  }
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 2u); // one per context
  auto q = pipeline(*rt, 8);
  ASSERT_TRUE(q);
  EXPECT_TRUE((*q)->stats().streamFromPool);
  EXPECT_EQ((*q)->partitionSms(), 8u);
  ASSERT_TRUE(launch(**q));
  ASSERT_TRUE((*q)->synchronize());
}

// Negative: a pipeline torn down while its kernel still runs keeps its stream out of
// the pool (retired until idle) and its slot quarantined; the next pipeline gets a
// new stream.
TEST_F(Lanes, ALaneWithAKernelStillRunningIsNotReused) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  mock.hold(1);
  {
    auto p = pipeline(*rt, 0, "busy");
    ASSERT_TRUE(p);
    ASSERT_TRUE(launch(**p));
    ASSERT_FALSE(*(*p)->idle()) << "the mock did not hold the kernel";
  }
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 0u);
  auto next = pipeline(*rt, 0, "next");
  ASSERT_TRUE(next);
  EXPECT_FALSE((*next)->stats().streamFromPool);
  mock.hold(0);
}

// Negative: an idle pipeline torn down while a cancel set (of another pipeline) is
// still queued on the control stream: its slot could still receive a late set, so
// its lane is not pooled. Positive once the set has landed.
TEST_F(Lanes, ALaneIsNotReusedWhileTheControlStreamHasSetsQueued) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  auto quiet = pipeline(*rt, 0, "quiet");
  ASSERT_TRUE(quiet);
  mock.hold(1);
  {
    auto busy = pipeline(*rt, 0, "busy");
    ASSERT_TRUE(busy);
    ASSERT_TRUE(launch(**busy));
    mock.defer(1); // its teardown's cancel set stays queued on the control stream
  }
  quiet->reset(); // idle, never launched, but the control stream is busy
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 0u);
  mock.defer(0);
  mock.hold(0);
  {
    auto p = pipeline(*rt, 0, "later");
    ASSERT_TRUE(p);
    EXPECT_FALSE((*p)->stats().streamFromPool);
  }
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 1u);
}

// Review R8-F2: a pipeline that never launched but left copies and fills queued
// (held by the stand-in driver: a memset or a DMA cannot be cancelled) is not idle;
// its lane is not pooled, and the next pipeline (another tenant) gets a new stream:
// its own work does not queue behind the first one's.
TEST_F(Lanes, ALaneWithQueuedCopiesIsNotPooled) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  mock.hold(1);
  mock.holdCopies(1);
  {
    auto p = pipeline(*rt, 0, "filler");
    ASSERT_TRUE(p);
    auto x = (*p)->allocate(4096);
    ASSERT_TRUE(x);
    ASSERT_TRUE((*p)->fillAsync(*x, 0, 4096, 0xab));
    ASSERT_FALSE(*(*p)->idle()) << "the mock did not hold the fill";
    EXPECT_EQ((*p)->stats().launches, 0u);
  }
  mock.holdCopies(0); // the first pipeline's fill and scrub stay held
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 0u)
      << "a lane whose stream still runs a tenant's fill was pooled";
  auto next = rt->createPipeline(
      {.arenaBytes = 1 << 20, .timeout = 2000ms, .name = "next", .gpuTiming = false});
  ASSERT_TRUE(next) << next.error().describe();
  EXPECT_FALSE((*next)->stats().streamFromPool);
  auto y = (*next)->allocate(64);
  ASSERT_TRUE(y);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE((*next)->fill(*y, 0, 64, 1)) << "the next pipeline waited for the first's fill";
  ASSERT_TRUE((*next)->synchronize());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1000ms);
  mock.hold(0);
}

// Review R8-F2, at take(): a pooled lane whose stream still runs (here the last
// owner's arena scrub, held) is skipped, not handed out (negative), and stays parked;
// once its stream is idle the next pipeline takes it (positive).
TEST_F(Lanes, APooledLaneIsTakenOnlyOnceItsStreamIsIdle) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  auto first = pipeline(*rt, 0, "first");
  ASSERT_TRUE(first);
  mock.hold(1);
  mock.holdCopies(1);
  first->reset(); // idle: pooled; its arena scrub is held on the stream
  mock.holdCopies(0);
  ASSERT_EQ(rt->stats().pipelineStreamsPooled, 1u);
  auto second = pipeline(*rt, 0, "second");
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_FALSE((*second)->stats().streamFromPool)
      << "a pooled lane was handed out while its stream was busy";
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 1u) << "the busy lane was not kept parked";
  EXPECT_EQ(rt->stats().pipelineStreamsReused, 0u);
  mock.hold(0); // the scrub ends
  auto third = pipeline(*rt, 0, "third");
  ASSERT_TRUE(third);
  EXPECT_TRUE((*third)->stats().streamFromPool);
  EXPECT_EQ(rt->stats().pipelineStreamsReused, 1u);
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, 0u);
  ASSERT_TRUE(launch(**third));
  ASSERT_TRUE((*third)->synchronize());
}

// What one createPipeline costs in driver calls once a lane and an arena are pooled:
// the context made current, the pooled stream's idle check (R8-F2) and the control
// block's zeroing (the pooled arena's scrub
// event was found complete at the last teardown; else one cuEventQuery, and a
// cuStreamWaitEvent while it runs); no stream, no event is created. A teardown
// creates and destroys nothing either. A change that adds a driver call to this
// path fails here.
TEST_F(Lanes, CreationFromThePoolsMakesThreeDriverCalls) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  for (uint32_t sms : {0u, 8u}) {
    SCOPED_TRACE(sms ? "8-SM quota" : "no quota");
    { ASSERT_TRUE(pipeline(*rt, sms)); } // the lane, the arena and the partition exist
    CallCounter counter;
    auto p = pipeline(*rt, sms);
    auto created = counter.take();
    ASSERT_TRUE(p);
    EXPECT_TRUE((*p)->stats().streamFromPool);
    EXPECT_TRUE((*p)->stats().arenaFromPool);
    std::printf("[lanes] createPipeline (%s) from the pools: %s\n", sms ? "8-SM quota" : "no quota",
                CallCounter::describe(created).c_str());
    EXPECT_EQ(created["cuCtxSetCurrent"], 1u);
    EXPECT_EQ(created["cuMemsetD32Async"], 1u) << "the control block is zeroed once";
    EXPECT_EQ(created["cuStreamCreate"] + created["cuGreenCtxStreamCreate"], 0u);
    EXPECT_EQ(created["cuEventCreate"], 0u);
    EXPECT_EQ(created["cuStreamWaitEvent"], 0u) << "the arena's scrub had ended";
    EXPECT_EQ(created["cuStreamQuery"], 1u) << "the pooled stream is checked idle (R8-F2)";
    EXPECT_EQ(created["total"], 3u) << CallCounter::describe(created);
    p->reset();
    auto destroyed = counter.take();
    std::printf("[lanes] its teardown: %s\n", CallCounter::describe(destroyed).c_str());
    EXPECT_EQ(destroyed["cuStreamDestroy"] + destroyed["cuEventDestroy"] +
                  destroyed["cuEventCreate"],
              0u)
        << CallCounter::describe(destroyed);
    EXPECT_EQ(destroyed["cuMemsetD8Async"], 1u) << "the arena's scrub";
    // Made current (twice), both streams queried, the scrub and its event, the arena
    // pool's query of that event.
    EXPECT_LE(destroyed["total"], 7u) << CallCounter::describe(destroyed);
  }
}

// Without a pooled lane of its context: the stream and the cancel event are created
// (the counts above are not met by skipping work that must happen); timing events
// are two more.
TEST_F(Lanes, AFirstCreationMakesItsStream) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  { ASSERT_TRUE(pipeline(*rt)); } // control blocks, a pooled arena, a whole-device lane
  CallCounter counter;
  auto p = pipeline(*rt, 8);
  auto created = counter.take();
  ASSERT_TRUE(p);
  EXPECT_FALSE((*p)->stats().streamFromPool);
  EXPECT_TRUE((*p)->stats().arenaFromPool);
  EXPECT_EQ(created["cuGreenCtxStreamCreate"], 1u) << CallCounter::describe(created);
  EXPECT_EQ(created["cuStreamCreate"], 0u) << CallCounter::describe(created);
  EXPECT_EQ(created["cuEventCreate"], 1u) << CallCounter::describe(created);
  EXPECT_EQ(created["cuMemsetD32Async"], 1u) << CallCounter::describe(created);
  p->reset();
  counter.take();
  auto timed = rt->createPipeline({.arenaBytes = 1 << 20, .gpuTiming = true, .smCount = 8});
  created = counter.take();
  ASSERT_TRUE(timed);
  EXPECT_TRUE((*timed)->stats().streamFromPool);
  EXPECT_EQ(created["cuEventCreate"], 2u) << CallCounter::describe(created);
}

// At most LanePool::kMaxPerContext lanes per context are kept; the others' streams
// are destroyed.
TEST_F(Lanes, ThePoolPerContextIsBounded) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  const size_t n = detail::LanePool::kMaxPerContext + 8;
  {
    std::vector<std::unique_ptr<Pipeline>> many;
    for (size_t i = 0; i < n; ++i) {
      auto p = pipeline(*rt, 0, "p" + std::to_string(i));
      ASSERT_TRUE(p) << p.error().describe();
      many.push_back(std::move(*p));
    }
    CallCounter counter;
    many.clear();
    EXPECT_EQ(counter.take()["cuStreamDestroy"], 8u);
  }
  EXPECT_EQ(rt->stats().pipelineStreamsPooled, detail::LanePool::kMaxPerContext);
}

// A partition evicted from the pool (more than kMaxIdle idle ones) takes its pooled
// lanes with it: their streams go before its green context.
TEST_F(Lanes, AnEvictedPartitionsLanesGoBeforeItsGreenContext) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  const unsigned long before = destroyedWithStreams();
  // Idle partitions of several sizes, each with a pooled lane: 16 of 8 SMs, 8 of 16,
  // 5 of 24, 4 of 32 (33 > kMaxIdle = 32: the least recently used goes).
  for (auto [sms, count] : std::vector<std::pair<uint32_t, int>>{{8, 16}, {16, 8}, {24, 5}, {32, 4}}) {
    std::vector<std::unique_ptr<Pipeline>> held;
    for (int i = 0; i < count; ++i) {
      auto p = pipeline(*rt, sms);
      ASSERT_TRUE(p) << sms << " SMs, #" << i << ": " << p.error().describe();
      held.push_back(std::move(*p));
    }
  }
  const RuntimeStats s = rt->stats();
  EXPECT_EQ(s.partitionsCreated, 33u);
  EXPECT_EQ(s.partitionsPooled, 32u) << "no partition was evicted";
  EXPECT_EQ(s.pipelineStreamsPooled, 32u) << "the evicted partition's lane stayed pooled";
  // Its green context is destroyed on the reclaimer (a quiet section).
  for (int i = 0; i < 400 && liveGreen() > 32; ++i)
    std::this_thread::sleep_for(5ms);
  EXPECT_EQ(liveGreen(), 32);
  EXPECT_EQ(destroyedWithStreams(), before) << "a green context went before its streams";
}

// The bench's breakdown (bench/src/Partition.cpp): with the hook on, each creation
// records its steps and whether it reused a lane, each teardown its duration; off,
// nothing is recorded.
TEST_F(Lanes, TheStepProfileRecordsOnlyWhileOn) {
  auto rt = runtime();
  ASSERT_TRUE(rt && app);
  detail::CreateProfile &prof = detail::createProfile();
  auto counts = [&] {
    std::lock_guard lock(prof.mutex);
    return std::pair(prof.creates.size(), prof.teardownNs.size());
  };
  const auto [c0, t0] = counts();
  { ASSERT_TRUE(pipeline(*rt)); }
  EXPECT_EQ(counts(), std::pair(c0, t0));
  detail::profileCreatePipeline = true;
  { ASSERT_TRUE(pipeline(*rt)); }
  { ASSERT_TRUE(pipeline(*rt, 8)); }
  detail::profileCreatePipeline = false;
  const auto [c1, t1] = counts();
  ASSERT_EQ(c1, c0 + 2);
  EXPECT_EQ(t1, t0 + 2);
  std::lock_guard lock(prof.mutex);
  EXPECT_TRUE(prof.creates[c0].laneReused);
  EXPECT_FALSE(prof.creates[c0 + 1].laneReused); // the partition's first
  uint64_t total = 0;
  for (uint32_t ns : prof.creates[c0].ns)
    total += ns;
  EXPECT_GT(total, 0u);
  EXPECT_STREQ(detail::createStepName(detail::CreateStep::Lane), "lane");
}
