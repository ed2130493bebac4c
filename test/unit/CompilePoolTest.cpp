// The compile pool against a stand-in worker (FakeCompileWorker.cpp) that crashes,
// hangs, runs out of memory or CPU, or answers garbage on request: each is a typed
// error, the worker is replaced, other requests go on, and no worker serves twice.
#include "compile/CompilePool.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

using namespace Atoll;
using namespace Atoll::detail::compile;

namespace {

PoolConfig fakeConfig(size_t size = 2) {
  PoolConfig c;
  c.workerPath = ATOLL_FAKE_COMPILE_WORKER;
  c.size = size;
  c.timeout = std::chrono::milliseconds(1500);
  c.memoryLimit = 512ull << 20;
  c.cpuLimitSeconds = 1;
  return c;
}

std::unique_ptr<CompilePool> makePool(PoolConfig c) {
  auto p = CompilePool::create(std::move(c));
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().describe());
  return p.ok() ? std::move(*p) : nullptr;
}

Result<Response> runMode(CompilePool &pool, const std::string &mode) {
  CompileJob j;
  j.name = "mode:" + mode;
  return pool.run(Request(j));
}

void expectError(const Result<Response> &r, ErrorCode code, const std::string &text) {
  ASSERT_FALSE(r.ok()) << "expected " << to_string(code);
  EXPECT_EQ(r.error().code(), code) << r.error().describe();
  EXPECT_NE(r.error().message().find(text), std::string::npos) << r.error().message();
}

/// This process's children as the kernel sees them, zombies included (a killed
/// worker holds its slot until it is reaped). The pool's workers are the only ones.
int liveChildren() {
  int n = 0;
  DIR *d = ::opendir("/proc");
  while (dirent *e = d ? ::readdir(d) : nullptr) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0)
      continue;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string stat = ss.str();
    auto close = stat.rfind(')');
    int ppid = 0;
    char state;
    if (close != std::string::npos &&
        std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == ::getpid())
      ++n;
  }
  if (d)
    ::closedir(d);
  return n;
}

/// Samples liveChildren() and the pool's own count until stopped.
struct LiveMonitor {
  CompilePool &pool;
  std::atomic<bool> stop{false};
  std::atomic<int> maxChildren{0};
  std::atomic<uint64_t> maxLive{0};
  std::thread thread;
  explicit LiveMonitor(CompilePool &p) : pool(p) {
    thread = std::thread([this] {
      while (!stop) {
        maxChildren = std::max(maxChildren.load(), liveChildren());
        maxLive = std::max(maxLive.load(), pool.stats().live);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~LiveMonitor() { finish(); }
  void finish() {
    stop = true;
    if (thread.joinable())
      thread.join();
  }
};

} // namespace

TEST(CompilePool, RefusesAMissingWorker) {
  PoolConfig c = fakeConfig();
  c.workerPath = "/nonexistent/atoll-compile-worker";
  auto p = CompilePool::create(c);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(p.error().message().find("not an executable file"), std::string::npos);
}

TEST(CompilePool, AnswersAndIsSingleUse) {
  auto pool = makePool(fakeConfig(2));
  std::set<std::string> pids;
  for (int i = 0; i < 6; ++i) {
    auto r = runMode(*pool, "pid");
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto &c = std::get<Compiled>(*r);
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_TRUE(pids.insert(c.kernels[0].name).second) << "a worker served twice";
  }
  EXPECT_EQ(pids.size(), 6u);
  EXPECT_GE(pool->stats().started, 6u);
  EXPECT_EQ(pool->stats().served, 6u);
}

// PoolConfig::startOnSender: the worker wakes on the CPU of the thread that sent the
// request (pinned there for its wake-up), and then has its own CPU set again. Five
// requests, each must wake there: left to the scheduler, five wake-ups on one given
// CPU of two or more would be chance.
TEST(CompilePool, AWorkerWakesOnTheSendersCpuAndGetsItsOwnSetBack) {
  cpu_set_t own;
  ASSERT_EQ(::sched_getaffinity(0, sizeof own, &own), 0);
  if (CPU_COUNT(&own) < 2)
    GTEST_SKIP() << "one CPU: every worker wakes on it";
  auto pool = makePool(fakeConfig(2)); // workers inherit the whole set
  ASSERT_TRUE(pool);
  int last = -1;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &own))
      last = c;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(last, &one);
  ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
  for (int i = 0; i < 5; ++i) {
    auto r = runMode(*pool, "where");
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto &k = std::get<Compiled>(*r).kernels;
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "cpu_" + std::to_string(last)) << "request " << i;
    EXPECT_EQ(k[1].name, "allowed_" + std::to_string(CPU_COUNT(&own))) << "request " << i;
  }
  ASSERT_EQ(::sched_setaffinity(0, sizeof own, &own), 0);
}

TEST(CompilePool, CrashIsCompileErrorAndTheWorkerIsReplaced) {
  auto pool = makePool(fakeConfig(1));
  expectError(runMode(*pool, "crash"), ErrorCode::CompileError, "crashed (SIGSEGV)");
  expectError(runMode(*pool, "abort"), ErrorCode::CompileError, "crashed (SIGABRT)");
  expectError(runMode(*pool, "silent-exit"), ErrorCode::CompileError,
              "exited with status 0 without an answer");
  // The next request gets a fresh worker.
  auto r = runMode(*pool, "ok");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(pool->stats().failed, 3u);
}

TEST(CompilePool, HangIsCompileTimeout) {
  auto pool = makePool(fakeConfig(1));
  auto start = std::chrono::steady_clock::now();
  expectError(runMode(*pool, "hang"), ErrorCode::CompileTimeout, "did not finish within 1500 ms");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(runMode(*pool, "ok").ok());
}

TEST(CompilePool, MemoryAndCpuLimitsAreCompileResources) {
  PoolConfig c = fakeConfig(1);
  c.timeout = std::chrono::milliseconds(10000);
  auto pool = makePool(c);
  expectError(runMode(*pool, "oom"), ErrorCode::CompileResources, "ran out of memory (limit 512 MiB)");
  expectError(runMode(*pool, "cpu"), ErrorCode::CompileResources,
              "exceeded its CPU time limit of 1 s");
  EXPECT_TRUE(runMode(*pool, "ok").ok());
}

// R10-F2 through the pool: a (compromised) worker's answer whose kernels share one
// 8 KiB name. Over the module cap it is refused before any kernel is copied; under
// it, by the decode's bound (what it builds at most twice the frame).
TEST(CompilePool, AnswersThatDecodeToMoreThanTheFrameAreRefused) {
  PoolConfig c = fakeConfig(1);
  EXPECT_EQ(c.maxKernels, 512u); // RuntimeOptions::maxKernelsPerModule's default
  auto pool = makePool(c);
  expectError(runMode(*pool, "shared-name-600"), ErrorCode::CapacityExceeded,
              "the module has 600 kernels; at most 512 are loaded");
  expectError(runMode(*pool, "shared-name"), ErrorCode::CompileError,
              "decodes to more than twice its");
  EXPECT_TRUE(runMode(*pool, "ok").ok());
  c.maxKernels = 1000;
  pool = makePool(c);
  expectError(runMode(*pool, "shared-name-600"), ErrorCode::CompileError,
              "decodes to more than twice its");
}

TEST(CompilePool, MalformedAnswersAreTypedErrors) {
  PoolConfig c = fakeConfig(2);
  c.maxOutputBytes = 1 << 20;
  auto pool = makePool(c);
  expectError(runMode(*pool, "garbage"), ErrorCode::CompileError, "malformed response");
  expectError(runMode(*pool, "bad-magic"), ErrorCode::CompileError, "bad frame magic");
  expectError(runMode(*pool, "oversize"), ErrorCode::CompileResources,
              "exceeds the output limit of 1048576 bytes");
  expectError(runMode(*pool, "truncated"), ErrorCode::CompileError, "truncated frame");
  expectError(runMode(*pool, "ready-again"), ErrorCode::CompileError,
              "sent Ready instead of an answer");
  EXPECT_TRUE(runMode(*pool, "ok").ok());
}

TEST(CompilePool, AWorkerThatNeverStartsIsAnError) {
  PoolConfig c = fakeConfig(1);
  c.extraArgs = {"--mode=no-ready"};
  auto pool = makePool(c);
  auto r = pool->run(Request(CompileJob{}));
  expectError(r, ErrorCode::CompileError, "no compile worker could be started");
  // Three failed starts, or the request's deadline after at least one (on the H200
  // the deadline came first: it was reported as every worker busy, session 8).
  EXPECT_GE(pool->stats().startFailures, 1u);
}

TEST(CompilePool, ParallelRequestsUseParallelWorkers) {
  auto pool = makePool(fakeConfig(4));
  // Let the pool warm up, then 8 requests of 300 ms each on 4 workers.
  for (int i = 0; i < 200 && pool->warm() < 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] { ok += runMode(*pool, "slow-ok").ok(); });
  for (auto &t : threads)
    t.join();
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(ok.load(), 8);
  // Serially this takes 2.4 s.
  EXPECT_LT(elapsed, std::chrono::milliseconds(1800));
}

TEST(CompilePool, AHangingRequestDoesNotHoldUpOthers) {
  auto pool = makePool(fakeConfig(2));
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(runMode(*pool, "ok").ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1200));
  hang.join();
}

// A worker's environment (issue 14: a clean environment): the toolkit's and the
// library's paths pass, everything else of the service's stays behind, above all the
// ways to the CUDA driver's JIT cache (HOME, CUDA_CACHE_PATH: nvJitLink reads and
// writes ~/.nv/ComputeCache in a process that reaches it), and the cache is off.
TEST(CompilePool, WorkerEnvironmentIsClean) {
  std::map<std::string, std::string> service = {
      {"HOME", "/home/svc"},          {"CUDA_CACHE_PATH", "/var/cache/nv"},
      {"CUDA_CACHE_DISABLE", "0"},    {"CUDA_CACHE_MAXSIZE", "4294967296"},
      {"XDG_CACHE_HOME", "/home/svc/.cache"}, {"PATH", "/usr/bin"},
      {"AWS_SECRET_ACCESS_KEY", "x"}, {"ATOLL_CUDA_PATH", "/opt/cuda"},
      {"LD_LIBRARY_PATH", "/opt/atoll/lib"}, {"LC_ALL", "de_DE.UTF-8"}};
  auto lookup = [&](const char *var) -> const char * {
    auto it = service.find(var);
    return it == service.end() ? nullptr : it->second.c_str();
  };
  auto env = workerEnvironment(lookup);
  EXPECT_EQ(env, (std::vector<std::string>{"ATOLL_CUDA_PATH=/opt/cuda",
                                           "LD_LIBRARY_PATH=/opt/atoll/lib", "LC_ALL=C",
                                           "CUDA_CACHE_DISABLE=1"}));
  // CUDA_HOME passes too; with nothing set, only the fixed two.
  service = {{"CUDA_HOME", "/usr/local/cuda"}, {"HOME", "/root"}};
  EXPECT_EQ(workerEnvironment(lookup),
            (std::vector<std::string>{"CUDA_HOME=/usr/local/cuda", "LC_ALL=C",
                                      "CUDA_CACHE_DISABLE=1"}));
  service.clear();
  EXPECT_EQ(workerEnvironment(lookup),
            (std::vector<std::string>{"LC_ALL=C", "CUDA_CACHE_DISABLE=1"}));
}

TEST(CompilePool, ExitClassification) {
  PoolConfig c = fakeConfig();
  EXPECT_EQ(classifyExit(0, true, c).code(), ErrorCode::CompileTimeout);
  EXPECT_EQ(classifyExit(3 << 8, false, c).code(), ErrorCode::CompileResources);
  EXPECT_EQ(classifyExit(SIGXCPU, false, c).code(), ErrorCode::CompileResources);
  Error sys = classifyExit(SIGSYS, false, c);
  EXPECT_EQ(sys.code(), ErrorCode::CompileError);
  EXPECT_NE(sys.message().find("forbidden system call"), std::string::npos);
  EXPECT_EQ(classifyExit(SIGSEGV, false, c).code(), ErrorCode::CompileError);
}

// The worker's seccomp filter (Sandbox.cpp, installed by the stand-in exactly as by
// the real worker): what a compromised worker would do next kills it.
TEST(CompilePool, SeccompKillsForbiddenCalls) {
  auto pool = makePool(fakeConfig(2));
  for (const char *mode : {"seccomp-exec", "seccomp-fork",
                           "seccomp-write-other-fd", "seccomp-mprotect-exec",
                           "seccomp-kill-parent"}) {
    SCOPED_TRACE(mode);
    expectError(runMode(*pool, mode), ErrorCode::CompileError, "forbidden system call (seccomp)");
  }
  // Opening a file fails with EACCES (the worker lives on, with nothing opened).
  auto open = runMode(*pool, "seccomp-open");
  ASSERT_TRUE(open.ok()) << open.error().describe();
  ASSERT_TRUE(std::holds_alternative<Failed>(*open));
  EXPECT_EQ(std::get<Failed>(*open).message, "open refused");
  // So does making a socket (libcuda reaches for a daemon where the driver is
  // installed): nothing can be connected.
  auto sock = runMode(*pool, "seccomp-socket");
  ASSERT_TRUE(sock.ok()) << sock.error().describe();
  ASSERT_TRUE(std::holds_alternative<Failed>(*sock));
  EXPECT_EQ(std::get<Failed>(*sock).message, "socket refused");
  // Positive control: the filter allows answering on the socket.
  auto r = runMode(*pool, "seccomp-none");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(std::holds_alternative<Failed>(*r));
  EXPECT_EQ(std::get<Failed>(*r).message, "survived seccomp-none");
}

// R4-F4: the pool size is a hard cap on live workers. Slow loads and a stream of
// fast ones that end at once (the reviewer's flood: each end used to start a full
// pool of replacements) never hold more than `size` processes, zombies included;
// every request is still served, by waiting for a freed slot.
TEST(CompilePool, ConcurrentRequestsNeverExceedTheCap) {
  PoolConfig c = fakeConfig(2);
  c.timeout = std::chrono::milliseconds(20000);
  auto pool = makePool(c);
  LiveMonitor monitor(*pool);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&] { ok += runMode(*pool, "slow-ok").ok(); });
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&] {
      for (int j = 0; j < 3; ++j)
        ok += runMode(*pool, "ok").ok();
    });
  for (auto &t : threads)
    t.join();
  monitor.finish();
  EXPECT_EQ(ok.load(), 6 + 18);
  EXPECT_LE(monitor.maxChildren.load(), 2) << "more live worker processes than the cap";
  EXPECT_LE(monitor.maxLive.load(), 2u);
  auto st = pool->stats();
  EXPECT_LE(st.peakLive, 2u);
  EXPECT_EQ(st.peakLive, 2u); // the cap was reached: the test measured something
  EXPECT_GT(st.waits, 0u);
  EXPECT_GE(st.started, 24u); // single use still holds
}

// A request that finds every slot busy gets the first worker started after one
// frees, well within its deadline.
TEST(CompilePool, AWaiterGetsTheNextFreedWorker) {
  PoolConfig c = fakeConfig(1);
  c.timeout = std::chrono::milliseconds(5000);
  auto pool = makePool(c);
  for (int i = 0; i < 200 && pool->warm() < 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::thread busy([&] { EXPECT_TRUE(runMode(*pool, "slow-ok").ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto start = std::chrono::steady_clock::now();
  auto r = runMode(*pool, "pid");
  auto waited = std::chrono::steady_clock::now() - start;
  busy.join();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_GE(waited, std::chrono::milliseconds(150)); // it did wait for the slow one
  EXPECT_LT(waited, std::chrono::milliseconds(4000));
  EXPECT_EQ(pool->stats().waits, 1u);
  EXPECT_LE(pool->stats().peakLive, 1u);
}

// Past its wait deadline, a request is refused with a typed error that names the
// limit; the pool goes on once the slot frees.
TEST(CompilePool, AWaitPastTheDeadlineIsATypedError) {
  PoolConfig c = fakeConfig(1);
  c.timeout = std::chrono::milliseconds(3000);
  c.waitTimeout = std::chrono::milliseconds(300);
  auto pool = makePool(c);
  for (int i = 0; i < 200 && pool->warm() < 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto start = std::chrono::steady_clock::now();
  auto r = runMode(*pool, "ok");
  auto waited = std::chrono::steady_clock::now() - start;
  expectError(r, ErrorCode::CompileResources,
              "all 1 compile workers (the limit, RuntimeOptions::compileWorkers.poolSize) "
              "stayed busy for");
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::milliseconds(2000));
  hang.join();
  // The hung worker was killed and reaped: the slot serves again.
  EXPECT_TRUE(runMode(*pool, "ok").ok());
  EXPECT_LE(pool->stats().peakLive, 1u);
}

// Replacements wait for a free core (cpuSlots): while every core runs a request, the
// warm workers are used up and the next request's wait ends in a typed error that
// says why; once a core frees, replacements start again.
TEST(CompilePool, ReplacementsWaitForAFreeCore) {
  PoolConfig c = fakeConfig(3);
  c.cpuSlots = 1;
  c.timeout = std::chrono::milliseconds(3000);
  c.waitTimeout = std::chrono::milliseconds(300);
  auto pool = makePool(c);
  for (int i = 0; i < 300 && pool->warm() < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(pool->warm(), 3u);
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(runMode(*pool, "ok").ok()); // the two warm ones
  EXPECT_TRUE(runMode(*pool, "ok").ok());
  expectError(runMode(*pool, "ok"), ErrorCode::CompileResources,
              "compile requests kept every core busy for");
  hang.join();
  EXPECT_TRUE(runMode(*pool, "ok").ok());
  EXPECT_LE(pool->stats().peakLive, 3u);
}

namespace {
/// A pool of `size` stand-in workers, all warm (exactly `size` started).
std::unique_ptr<CompilePool> warmPool(PoolConfig c) {
  size_t size = c.size;
  auto pool = makePool(std::move(c));
  for (int i = 0; pool && i < 500 && pool->warm() < size; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(pool && pool->warm() == size) << "the pool did not warm up";
  return pool;
}
/// Waits (up to 5 s) until `done` holds.
template <typename F> bool eventually(F done) {
  for (int i = 0; i < 500 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return done();
}
} // namespace

// While a load is in flight, a replacement starts only when it is needed (issue 14:
// at N = 16 parallel loads the H200 counted 16 starts during the burst, competing for
// the 16 CPUs with the compiles): slots freed during the burst stay empty while the
// idle workers cover the floor, and are all refilled as soon as no load is in flight.
TEST(CompilePool, ReplacementsWaitForTheEndOfTheBurst) {
  PoolConfig c = fakeConfig(4);
  c.warmFloor = 1;
  c.timeout = std::chrono::milliseconds(2500);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  ASSERT_EQ(pool->stats().started, 4u);
  // In flight until its deadline (2.5 s): the burst.
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  ASSERT_TRUE(eventually([&] { return pool->warm() == 3; }));
  // Two requests come and go: two slots free, one worker idle (= the floor).
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto during = pool->stats();
  EXPECT_EQ(during.started, 4u) << "a replacement started during the burst, not needed";
  EXPECT_EQ(during.startedDuringLoads, 0u);
  EXPECT_EQ(pool->warm(), 1u);
  EXPECT_LT(during.live, 4u) << "the freed slots were not left empty";
  hang.join();
  // The burst is over: every slot is refilled (the two requests' and the hang's).
  EXPECT_TRUE(eventually([&] { return pool->warm() == 4; }));
  EXPECT_EQ(pool->stats().started, 7u);
  EXPECT_EQ(pool->stats().startedDuringLoads, 0u);
  EXPECT_LE(pool->stats().peakLive, 4u);
}

// The floor: during a burst the pool keeps `warmFloor` workers idle or starting for
// requests that arrive meanwhile (one start per worker taken below it), and no more.
TEST(CompilePool, TheFloorKeepsWarmWorkersDuringTheBurst) {
  PoolConfig c = fakeConfig(4);
  c.warmFloor = 2;
  c.timeout = std::chrono::milliseconds(2500);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  ASSERT_TRUE(eventually([&] { return pool->warm() == 3; }));
  ASSERT_TRUE(runMode(*pool, "ok").ok()); // 2 idle: the floor, no start
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(pool->stats().started, 4u);
  ASSERT_TRUE(runMode(*pool, "ok").ok()); // 1 idle: below the floor, one start
  EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(pool->stats().started, 5u) << "more starts than the floor needs";
  EXPECT_EQ(pool->stats().startedDuringLoads, 1u);
  EXPECT_EQ(pool->warm(), 2u);
  hang.join();
  EXPECT_TRUE(eventually([&] { return pool->warm() == 4; }));
  EXPECT_EQ(pool->stats().started, 7u);
}

// A request that finds no worker during a burst gets one started for it at once
// (no floor here), long before the burst ends, and without a start for anyone else.
TEST(CompilePool, AWaitingRequestGetsAReplacementDuringTheBurst) {
  PoolConfig c = fakeConfig(3);
  c.warmFloor = 0;
  c.timeout = std::chrono::milliseconds(3000);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  auto begun = std::chrono::steady_clock::now();
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  ASSERT_TRUE(eventually([&] { return pool->warm() == 2; }));
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(pool->stats().started, 3u) << "no request waited, yet a replacement started";
  EXPECT_EQ(pool->warm(), 0u);
  auto r = runMode(*pool, "pid");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_LT(std::chrono::steady_clock::now() - begun, std::chrono::milliseconds(2500))
      << "the waiting request was served only after the burst";
  auto st = pool->stats();
  EXPECT_EQ(st.waits, 1u);
  EXPECT_EQ(st.started, 4u);
  EXPECT_EQ(st.startedDuringLoads, 1u);
  hang.join();
  // All three slots refill (the hang's, the two requests' and the one started for the
  // waiting request, now ended too).
  EXPECT_TRUE(eventually([&] { return pool->warm() == 3; }));
  EXPECT_EQ(pool->stats().started, 7u);
  EXPECT_LE(pool->stats().peakLive, 3u);
}

// Ahead of need (cpuSlots set), a replacement starts during a burst only while the
// warm supply is short of the demand (the loads in flight, or the requests of the
// demand window if more): a burst that the idle workers cover starts nothing, however
// many cores are free (the H200's N = 16 burst on 16 cores with 32 workers counted 15
// starts under the earlier spare-core rule); once fewer workers are idle or starting
// than that, a free core starts the difference.
TEST(CompilePool, IdleWorkersThatCoverTheDemandStartNothingAheadOfNeed) {
  PoolConfig c = fakeConfig(4);
  c.warmFloor = 0;
  c.cpuSlots = 16;                              // plenty of spare cores
  c.demandWindow = std::chrono::seconds(60);    // every request of the test is recent
  c.timeout = std::chrono::milliseconds(2500);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  std::thread hang([&] { (void)runMode(*pool, "hang"); }); // one load in flight
  ASSERT_TRUE(eventually([&] { return pool->warm() == 3; }));
  // A request comes and goes: its slot frees; two idle workers for two recent
  // requests.
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(pool->stats().started, 4u) << "a start ahead of need while the idle workers "
                                          "covered the demand";
  EXPECT_EQ(pool->stats().startedDuringLoads, 0u);
  EXPECT_EQ(pool->warm(), 2u);
  // The next one leaves one idle worker for three recent requests: two starts (one
  // while it runs, one in its slot), and no more.
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  EXPECT_TRUE(eventually([&] { return pool->warm() == 3; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(pool->stats().started, 6u);
  EXPECT_EQ(pool->stats().startedDuringLoads, 2u);
  EXPECT_EQ(pool->warm(), 3u);
  hang.join();
  EXPECT_TRUE(eventually([&] { return pool->warm() == 4; }));
  EXPECT_EQ(pool->stats().started, 7u);
  EXPECT_LE(pool->stats().peakLive, 4u);
}

// The demand window: a stream of requests next to a long load keeps as many workers
// warm or starting as requests arrived within the window (a start's time by default),
// ahead of the pool running dry; requests older than the window do not count.
TEST(CompilePool, AStreamKeepsItsRecentRequestsWarm) {
  for (bool recent : {true, false}) {
    SCOPED_TRACE(recent ? "window 60 s" : "window 1 ms");
    PoolConfig c = fakeConfig(6);
    c.warmFloor = 0;
    c.cpuSlots = 16;
    c.demandWindow = recent ? std::chrono::milliseconds(60000) : std::chrono::milliseconds(1);
    auto pool = warmPool(c);
    ASSERT_TRUE(pool);
    {
      CompilePool::Activity load = pool->activity(); // a load in flight throughout
      for (int i = 0; i < 4; ++i) {
        ASSERT_TRUE(runMode(*pool, "ok").ok());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      // Two idle workers after four requests: short of four recent ones (two
      // starts), not of one load in flight.
      if (recent) {
        EXPECT_TRUE(eventually([&] { return pool->warm() == 4; }));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        EXPECT_EQ(pool->stats().started, 8u);
        EXPECT_EQ(pool->stats().startedDuringLoads, 2u);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        EXPECT_EQ(pool->stats().started, 6u) << "a start ahead of need for requests "
                                                "older than the window";
        EXPECT_EQ(pool->warm(), 2u);
      }
    }
    EXPECT_TRUE(eventually([&] { return pool->warm() == 6; }));
    EXPECT_EQ(pool->stats().started, 10u);
  }
}

// Requests the pool has made up for (it was all warm again since) are no demand: a
// burst after earlier ones, each refilled, counts only its own requests.
TEST(CompilePool, RequestsMadeUpForAreNoDemand) {
  PoolConfig c = fakeConfig(4);
  c.warmFloor = 0;
  c.cpuSlots = 16;
  c.demandWindow = std::chrono::seconds(60);
  c.timeout = std::chrono::milliseconds(2500);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  for (int i = 0; i < 3; ++i) { // no load in flight after each: refilled at once
    ASSERT_TRUE(runMode(*pool, "ok").ok());
    ASSERT_TRUE(eventually([&] { return pool->warm() == 4 && pool->stats().started == 5u + i; }));
  }
  std::thread hang([&] { (void)runMode(*pool, "hang"); });
  ASSERT_TRUE(eventually([&] { return pool->warm() == 3; }));
  ASSERT_TRUE(runMode(*pool, "ok").ok()); // two idle for two requests since all warm
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(pool->stats().started, 7u) << "the requests made up for counted as demand";
  EXPECT_EQ(pool->stats().startedDuringLoads, 0u);
  EXPECT_EQ(pool->warm(), 2u);
  hang.join();
  EXPECT_TRUE(eventually([&] { return pool->warm() == 4; }));
}

// A start ahead of need also waits for a spare core: with the supply short (two loads
// in flight, one worker idle), it starts when loads + starting workers < cpuSlots (3
// cores), not when the loads take every core (2 cores). The loads are Activities (in
// the service's part of the load, holding no worker), so that only this test decides.
TEST(CompilePool, AStartAheadOfNeedWaitsForASpareCore) {
  for (size_t cores : {size_t(2), size_t(3)}) {
    SCOPED_TRACE("cpuSlots " + std::to_string(cores));
    PoolConfig c = fakeConfig(2);
    c.warmFloor = 0;
    c.cpuSlots = cores;
    c.demandWindow = std::chrono::seconds(60);
    auto pool = warmPool(c);
    ASSERT_TRUE(pool);
    {
      CompilePool::Activity first = pool->activity(), second = pool->activity();
      ASSERT_TRUE(runMode(*pool, "ok").ok()); // its slot frees; one worker idle
      if (cores == 3) {
        EXPECT_TRUE(eventually([&] { return pool->stats().started == 3; }));
        EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
        EXPECT_EQ(pool->stats().startedDuringLoads, 1u);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        EXPECT_EQ(pool->stats().started, 2u) << "a start ahead of need without a spare core";
        EXPECT_EQ(pool->stats().startedDuringLoads, 0u);
        EXPECT_EQ(pool->warm(), 1u);
      }
    }
    EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
    EXPECT_EQ(pool->stats().started, 3u);
    EXPECT_LE(pool->stats().peakLive, 2u);
  }
}

// The service's own part of a load (between and after its requests) is part of the
// burst: while an Activity is held, freed slots stay empty; when it ends, the pool
// refills.
TEST(CompilePool, AnActivityHoldsTheRefillUntilItEnds) {
  PoolConfig c = fakeConfig(2);
  c.warmFloor = 0;
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  {
    CompilePool::Activity load = pool->activity();
    ASSERT_TRUE(runMode(*pool, "ok").ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(pool->stats().started, 2u) << "a replacement started while a load was in flight";
    EXPECT_EQ(pool->warm(), 1u);
    CompilePool::Activity moved = std::move(load); // one load, still in flight
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(pool->stats().started, 2u);
  }
  EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
  EXPECT_EQ(pool->stats().started, 3u);
  EXPECT_EQ(pool->stats().startedDuringLoads, 0u);
  // Without any load in flight, a request's slot is refilled at once.
  ASSERT_TRUE(runMode(*pool, "ok").ok());
  EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
  EXPECT_EQ(pool->stats().started, 4u);
}

// A worker that answered waits (as the real one does) until the pool ends it: while
// a load is in flight it is held, blocked at nice 19, so that its exit (the unmapping
// of a process of about 120 MB resident) does not run next to the compiles of the
// other loads; once no load is in flight it is ended and its slot refilled.
TEST(CompilePool, AnAnsweredWorkerEndsOnceNoLoadIsInFlight) {
  PoolConfig c = fakeConfig(2);
  c.warmFloor = 0;
  c.holdAnswered = std::chrono::milliseconds(60000);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  {
    CompilePool::Activity load = pool->activity();
    ASSERT_TRUE(runMode(*pool, "wait-end").ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto during = pool->stats();
    EXPECT_EQ(during.held, 1u) << "the worker that answered was not held";
    EXPECT_EQ(during.live, 2u) << "the held worker was ended during the load";
    EXPECT_EQ(liveChildren(), 2);
    EXPECT_EQ(during.endedAfterLoads, 0u);
  }
  EXPECT_TRUE(eventually([&] { return pool->stats().held == 0; }));
  EXPECT_EQ(pool->stats().endedAfterLoads, 1u);
  EXPECT_TRUE(eventually([&] { return pool->warm() == 2; }));
  EXPECT_EQ(pool->stats().started, 3u);
  // Without a load in flight, a request's worker is ended at once.
  ASSERT_TRUE(runMode(*pool, "wait-end").ok());
  EXPECT_TRUE(eventually([&] { return pool->stats().held == 0 && pool->warm() == 2; }));
  EXPECT_EQ(pool->stats().endedAfterLoads, 2u);
  // holdAnswered = 0: never held, killed as it answers (no load ends it).
  PoolConfig now = fakeConfig(1);
  now.warmFloor = 0;
  now.holdAnswered = std::chrono::milliseconds(0);
  auto direct = warmPool(now);
  ASSERT_TRUE(direct);
  CompilePool::Activity load = direct->activity();
  ASSERT_TRUE(runMode(*direct, "wait-end").ok());
  EXPECT_EQ(direct->stats().held, 0u);
  EXPECT_TRUE(eventually([&] { return direct->stats().live == 0; }))
      << "an answered worker outlived its answer with holdAnswered = 0";
  EXPECT_EQ(direct->stats().endedAfterLoads, 0u);
}

// The bounds of the hold: a held worker is ended after holdAnswered even while loads
// stay in flight (a stream never has none), and at once when a request waits for its
// slot (here the pool's only one: without that, the request would wait for the hold
// to end and fail at its deadline).
TEST(CompilePool, AHeldWorkerEndsAtItsLimitOrWhenItsSlotIsNeeded) {
  PoolConfig c = fakeConfig(2);
  c.warmFloor = 0;
  c.holdAnswered = std::chrono::milliseconds(200);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  {
    CompilePool::Activity load = pool->activity();
    ASSERT_TRUE(runMode(*pool, "wait-end").ok());
    EXPECT_EQ(pool->stats().held, 1u);
    EXPECT_TRUE(eventually([&] { return pool->stats().held == 0; }))
        << "the held worker outlived holdAnswered";
    EXPECT_TRUE(eventually([&] { return pool->stats().live == 1; }));
    EXPECT_EQ(pool->stats().endedAfterLoads, 0u);
  }
  PoolConfig one = fakeConfig(1);
  one.warmFloor = 0;
  one.holdAnswered = std::chrono::milliseconds(60000);
  one.waitTimeout = std::chrono::milliseconds(3000);
  auto single = warmPool(one);
  ASSERT_TRUE(single);
  CompilePool::Activity load = single->activity();
  ASSERT_TRUE(runMode(*single, "wait-end").ok());
  EXPECT_EQ(single->stats().held, 1u);
  // Every slot is held: the request waits, which ends the held worker, whose slot
  // gets a replacement (needed: a waiting request).
  auto r = runMode(*single, "ok");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  EXPECT_EQ(single->stats().endedAfterLoads, 0u);
  EXPECT_LE(single->stats().peakLive, 1u);
}

// A worker that ends by itself after its answer (an older worker, or one that
// crashed on the way out) is reaped while held: its slot is not kept.
TEST(CompilePool, AHeldWorkerThatEndsByItselfIsReaped) {
  PoolConfig c = fakeConfig(2);
  c.warmFloor = 0;
  c.holdAnswered = std::chrono::milliseconds(60000);
  auto pool = warmPool(c);
  ASSERT_TRUE(pool);
  CompilePool::Activity load = pool->activity();
  ASSERT_TRUE(runMode(*pool, "ok").ok()); // the stand-in's default: _exit after answering
  EXPECT_TRUE(eventually([&] { return pool->stats().held == 0 && pool->stats().live == 1; }))
      << "a worker that exited after answering kept its slot while held";
  EXPECT_EQ(liveChildren(), 1);
}
