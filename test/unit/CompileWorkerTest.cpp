// The real atoll-compile-worker: its sandbox as the kernel sees it (seccomp, no new
// privileges, limits, descriptors, environment), loads through it giving what the
// in-process toolchain gives, and the hostile corpus (test/hostile-compile): every
// input is a typed error naming the application, and the runtime goes on.
#include "compile/CompilePool.h"
#include "compile/RemoteCompile.h"
#include "compile/WorkerEntry.h"

#include "atoll/atoll.h"

#include "TestKernels.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <dirent.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

using namespace Atoll;
using namespace Atoll::detail::compile;

namespace {

std::string vaddModule(const std::string &tag = "") {
  return std::string(atoll_test::NvptxHeader) + atoll_test::TidDeclaration +
         atoll_test::VecAddKernel + "; " + tag + "\n";
}

std::span<const uint8_t> bytes(const std::string &s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RuntimeOptions workerOptions() {
  RuntimeOptions o;
  o.compileOnly = true;
  o.targetArch = "sm_90";
  o.compileWorkers.poolSize = 2;
  o.compileWorkers.memoryLimit = 2ull << 30;
  o.compileWorkers.cpuLimitSeconds = 20;
  o.compileWorkers.timeout = std::chrono::seconds(30);
  o.compileWorkers.maxOutputBytes = 64u << 20;
  return o;
}

/// The pids of this process's children running the compile worker.
std::vector<int> workerChildren() {
  std::vector<int> out;
  DIR *d = ::opendir("/proc");
  while (dirent *e = d ? ::readdir(d) : nullptr) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0)
      continue;
    std::string stat = slurp(fmt::format("/proc/{}/stat", pid));
    auto close = stat.rfind(')');
    if (close == std::string::npos)
      continue;
    int ppid = 0;
    char state;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != ::getpid())
      continue;
    if (stat.find("(atoll-compile-w") != std::string::npos)
      out.push_back(pid);
  }
  if (d)
    ::closedir(d);
  return out;
}

/// Ends the test binary with a message if a scope takes longer than `limit`: a hang
/// (e.g. a pool whose slots leak) fails the run instead of blocking CI.
class Watchdog {
public:
  Watchdog(const char *what, std::chrono::seconds limit) {
    thread_ = std::thread([this, what, limit] {
      std::unique_lock lock(mutex_);
      if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
        std::fprintf(stderr, "WATCHDOG: %s did not finish within %lld s (hang?)\n", what,
                     (long long)limit.count());
        std::fflush(stderr);
        std::abort();
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

} // namespace

TEST(CompileWorker, DefaultPathIsFoundNextToTheLibrary) {
  std::string path = CompilePool::defaultWorkerPath();
  ASSERT_FALSE(path.empty());
  EXPECT_NE(path.find("atoll-compile-worker"), std::string::npos);
}

// The runtime's warm floor (PoolConfig::warmFloor, the starts a pool makes during a
// burst without a waiting request): 2 in a pool of 16 or more, none below, where it
// would be a large share of the pool (a pool of 2 would refill during every load).
TEST(CompileWorker, TheRuntimesWarmFloorDependsOnThePoolSize) {
  EXPECT_EQ(Atoll::detail::warmFloorFor(32), 2u); // 16 cores, the default pool
  EXPECT_EQ(Atoll::detail::warmFloorFor(16), 2u);
  EXPECT_EQ(Atoll::detail::warmFloorFor(15), 0u);
  EXPECT_EQ(Atoll::detail::warmFloorFor(4), 0u); // 2 cores
  EXPECT_EQ(Atoll::detail::warmFloorFor(2), 0u); // the bench's per-kernel pools
  EXPECT_EQ(Atoll::detail::warmFloorFor(1), 0u);
}

TEST(CompileWorker, WarmWorkersAreSandboxed) {
  // The service's environment has the ways to the CUDA driver's JIT cache (HOME,
  // CUDA_CACHE_PATH): the worker must see neither (checked below). Set here, before
  // the pool's thread starts, so that the check cannot pass for want of them.
  struct Env {
    bool setHome = !std::getenv("HOME");
    Env() {
      if (setHome)
        ::setenv("HOME", "/nonexistent-home", 1);
      ::setenv("CUDA_CACHE_PATH", "/tmp/atoll-test-jit-cache", 1);
    }
    ~Env() {
      if (setHome)
        ::unsetenv("HOME");
      ::unsetenv("CUDA_CACHE_PATH");
    }
  } parentEnv;
  PoolConfig c;
  c.workerPath = CompilePool::defaultWorkerPath();
  c.size = 1;
  c.memoryLimit = 3ull << 30;
  c.cpuLimitSeconds = 42;
  auto pool = CompilePool::create(c);
  ASSERT_TRUE(pool.ok()) << pool.error().describe();
  for (int i = 0; i < 600 && (*pool)->warm() < 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ((*pool)->warm(), 1u) << "no worker became ready";
  auto pids = workerChildren();
  ASSERT_EQ(pids.size(), 1u);
  int pid = pids[0];
  std::string status = slurp(fmt::format("/proc/{}/status", pid));
  EXPECT_NE(status.find("Seccomp:\t2"), std::string::npos) << status; // filter mode
  EXPECT_NE(status.find("NoNewPrivs:\t1"), std::string::npos);
  // First in line for the OOM killer (R4-F4).
  EXPECT_EQ(slurp(fmt::format("/proc/{}/oom_score_adj", pid)), "1000\n");
  std::string limits = slurp(fmt::format("/proc/{}/limits", pid));
  auto limitLine = [&](const std::string &name) {
    auto at = limits.find(name);
    return at == std::string::npos ? std::string() : limits.substr(at, limits.find('\n', at) - at);
  };
  EXPECT_NE(limitLine("Max address space").find("3221225472"), std::string::npos) << limits;
  EXPECT_NE(limitLine("Max cpu time").find("42"), std::string::npos) << limits;
  EXPECT_NE(limitLine("Max file size").find(" 0 "), std::string::npos) << limits;
  EXPECT_NE(limitLine("Max core file size").find(" 0 "), std::string::npos) << limits;
  EXPECT_NE(limitLine("Max open files").find("32"), std::string::npos) << limits;
  // Descriptors: stdio (/dev/null) and the socket.
  std::set<int> fds;
  for (auto &e : std::filesystem::directory_iterator(fmt::format("/proc/{}/fd", pid)))
    fds.insert(std::stoi(e.path().filename()));
  EXPECT_EQ(fds, (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(std::filesystem::read_symlink(fmt::format("/proc/{}/fd/0", pid)), "/dev/null");
  EXPECT_NE(std::filesystem::read_symlink(fmt::format("/proc/{}/fd/3", pid)).string().find("socket:"),
            std::string::npos);
  // Environment: only what the worker needs, and the driver's JIT cache off.
  std::string env = slurp(fmt::format("/proc/{}/environ", pid));
  std::stringstream ss(env);
  std::set<std::string> names;
  for (std::string var; std::getline(ss, var, '\0');) {
    names.insert(var.substr(0, var.find('=')));
    EXPECT_TRUE(var.rfind("ATOLL_CUDA_PATH=", 0) == 0 || var.rfind("CUDA_HOME=", 0) == 0 ||
                var.rfind("LD_LIBRARY_PATH=", 0) == 0 || var == "LC_ALL=C" ||
                var == "CUDA_CACHE_DISABLE=1")
        << var;
  }
  EXPECT_EQ(names.count("HOME"), 0u);
  EXPECT_EQ(names.count("CUDA_CACHE_PATH"), 0u);
  EXPECT_EQ(names.count("CUDA_CACHE_DISABLE"), 1u);
  EXPECT_EQ(names.count("LC_ALL"), 1u);
}

namespace {
/// In a forked child (the test process keeps its own malloc settings): after
/// atoll_compile_worker_keep_heap() when `keep`, after giving the heap back
/// (malloc_trim) otherwise, how many bytes of resident memory a 6 MiB block takes
/// when every page of it is written. -1 if the child failed.
long residentGrowthOfA6MiBBlock(bool keep) {
  int p[2];
  if (::pipe(p) != 0)
    return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    auto resident = [] {
      long size = 0, pages = -1;
      if (std::FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &size, &pages) != 2)
          pages = -1;
        std::fclose(f);
      }
      return pages * ::sysconf(_SC_PAGESIZE);
    };
    if (keep)
      atoll_compile_worker_keep_heap();
    else
      ::malloc_trim(0);
    const size_t n = 6u << 20;
    long before = resident();
    auto *block = static_cast<volatile char *>(std::malloc(n));
    for (size_t i = 0; block && i < n; i += 4096)
      block[i] = 1;
    long growth = block && before >= 0 ? resident() - before : -1;
    std::free(const_cast<char *>(block));
    (void)!::write(p[1], &growth, sizeof growth);
    ::_exit(0);
  }
  ::close(p[1]);
  long growth = -1;
  if (pid < 0 || ::read(p[0], &growth, sizeof growth) != sizeof growth)
    growth = -1;
  ::close(p[0]);
  int st;
  if (pid > 0)
    ::waitpid(pid, &st, 0);
  return growth;
}
} // namespace

// A worker keeps its heap warm before Ready (issue 14, a cold load through a worker
// against the in-process compile of a long-lived service): a request's allocations up
// to ATOLL_WORKER_WARM_HEAP_BYTES land on pages already resident. Without it, the
// same block takes resident memory (page faults) as it is written.
TEST(CompileWorker, AWarmWorkersHeapIsAlreadyResident) {
  static_assert((6u << 20) < ATOLL_WORKER_WARM_HEAP_BYTES);
  long warm = residentGrowthOfA6MiBBlock(true);
  long cold = residentGrowthOfA6MiBBlock(false);
  ASSERT_GE(warm, 0);
  ASSERT_GE(cold, 0);
  EXPECT_LT(warm, 1l << 20) << "the block was not in the kept heap";
  EXPECT_GE(cold, 5l << 20) << "the measurement cannot tell a cold heap";
}

TEST(CompileWorker, LoadsGiveWhatTheInProcessToolchainGives) {
  RuntimeOptions wo = workerOptions();
  auto viaWorker = Runtime::create(wo);
  ASSERT_TRUE(viaWorker.ok()) << viaWorker.error().describe();
  RuntimeOptions io = wo;
  io.compileInProcess = true;
  auto inProcess = Runtime::create(io);
  ASSERT_TRUE(inProcess.ok());
  std::string m = vaddModule("same");
  auto a = (*viaWorker)->loadApplication(bytes(m), {.name = "tenant-w"});
  ASSERT_TRUE(a.ok()) << a.error().describe();
  auto b = (*inProcess)->loadApplication(bytes(m), {.name = "tenant-i"});
  ASSERT_TRUE(b.ok()) << b.error().describe();
  EXPECT_EQ((*a)->ptx(), (*b)->ptx());
  ASSERT_EQ((*a)->kernels().size(), 1u);
  EXPECT_EQ((*a)->kernels()[0].name, "vadd");
  EXPECT_EQ((*a)->kernels()[0].params.size(), 4u);
  EXPECT_EQ((*viaWorker)->stats().compilations, 1u);
  // The scheduler's view of that request (/proc of the worker): sampled once (a
  // compile-only runtime: no assemble request), and a compile takes milliseconds
  // on a CPU; the in-process runtime has no workers to sample.
  auto ws = (*viaWorker)->stats();
  EXPECT_EQ(ws.compileWorkerSampledRequests, ws.compileRequests + ws.assembleRequests);
  EXPECT_GE(ws.compileWorkerSampledRequests, 1u);
  EXPECT_GE(ws.compileWorkerCpuMicros, 500u);
  EXPECT_LE(ws.compileWorkerQueuedRequests, ws.compileWorkerSampledRequests);
  EXPECT_EQ((*inProcess)->stats().compileWorkerSampledRequests, 0u);
  // The same bitcode again comes from the memory cache: no worker.
  auto again = (*viaWorker)->loadApplication(bytes(m), {.name = "tenant-w2"});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*viaWorker)->stats().memoryCacheHits, 1u);
}

// The answer budget through the runtime: the default is derived from the caps
// (2 x (2 x 5 x maxCubinBytes + maxCubinBytes + 4096)), a load's charge ends with
// the load, and an answer over a small budget is CompileResources naming the
// application and the option.
TEST(CompileWorker, AnswerBudgetThroughTheRuntime) {
  // Eight copies of vadd: a PTX of several KiB.
  auto eightKernels = [](const std::string &tag) {
    std::string m = std::string(atoll_test::NvptxHeader) + atoll_test::TidDeclaration;
    for (int i = 0; i < 8; ++i) {
      std::string k = atoll_test::VecAddKernel;
      k.replace(k.find("@vadd("), 6, fmt::format("@vadd_{}(", i));
      m += k;
    }
    return m + "; " + tag + "\n";
  };
  auto rt = Runtime::create(workerOptions());
  ASSERT_TRUE(rt.ok()) << rt.error().describe();
  auto a = (*rt)->loadApplication(bytes(eightKernels("budget")), {.name = "tenant-fits"});
  ASSERT_TRUE(a.ok()) << a.error().describe();
  auto s = (*rt)->stats();
  EXPECT_EQ(s.compileAnswerBudget, 2 * (2 * (64ull << 20) + (32ull << 20) + 4096));
  EXPECT_GE(s.compileAnswerBytesPeak, (*a)->ptx().size()); // charged while in flight
  EXPECT_EQ(s.compileAnswerBytes, 0u);                     // and released after the load
  ASSERT_GT((*a)->ptx().size(), 4096u); // so that 4 KiB cannot hold it

  RuntimeOptions o = workerOptions();
  o.compileWorkers.maxOutputBytes = 0; // derived: 5 x maxCubinBytes
  o.compileWorkers.answerBudget = 4096;
  auto small = Runtime::create(o);
  ASSERT_TRUE(small.ok()) << small.error().describe();
  auto r = (*small)->loadApplication(bytes(eightKernels("budget2")), {.name = "tenant-big"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::CompileResources) << r.error().describe();
  EXPECT_NE(r.error().message().find("application 'tenant-big': the compile worker's answer "
                                     "needs"),
            std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find("more than the whole compile answer budget of 4096 bytes "
                                     "(RuntimeOptions::compileWorkers.answerBudget)"),
            std::string::npos)
      << r.error().message();
  EXPECT_EQ((*small)->stats().compileAnswerRefusals, 1u);
  EXPECT_EQ((*small)->stats().compileAnswerBytes, 0u);

  // The derived caps: maxOutputBytes = 5 x maxCubinBytes, the cubin answer
  // maxCubinBytes + 4 KiB, both at least 1 MiB; the budget twice one largest load.
  RuntimeOptions d = workerOptions();
  d.compileWorkers.maxOutputBytes = 0;
  auto derived = Runtime::create(d);
  ASSERT_TRUE(derived.ok()) << derived.error().describe();
  EXPECT_EQ((*derived)->stats().compileAnswerBudget,
            2 * (2 * (160ull << 20) + (32ull << 20) + 4096));
  d.maxCubinBytes = 64;
  auto floor = Runtime::create(d);
  ASSERT_TRUE(floor.ok()) << floor.error().describe();
  EXPECT_EQ((*floor)->stats().compileAnswerBudget, 2 * (2 * (1ull << 20) + (1ull << 20)));

  o.compileWorkers.answerBudget = 100;
  auto tiny = Runtime::create(o);
  ASSERT_FALSE(tiny.ok());
  EXPECT_EQ(tiny.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(tiny.error().message().find("answerBudget is below 4096 bytes"), std::string::npos);
}

TEST(CompileWorker, RefusalsPassThroughWithTheirCodes) {
  auto rt = Runtime::create(workerOptions());
  ASSERT_TRUE(rt.ok()) << rt.error().describe();
  std::string garbage = "this is not bitcode";
  auto r = (*rt)->loadApplication(bytes(garbage), {.name = "tenant-g"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidBitcode) << r.error().describe();
  EXPECT_EQ(r.error().message().rfind("application 'tenant-g': ", 0), 0u) << r.error().message();

  std::string x86 = "target triple = \"x86_64-unknown-linux-gnu\"\ndefine void @f() { ret void }\n";
  r = (*rt)->loadApplication(bytes(x86), {.name = "tenant-x"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::WrongTarget) << r.error().describe();

  std::string asmKernel = std::string(atoll_test::NvptxHeader) +
                          "define ptx_kernel void @k() {\n  call void asm sideeffect \"trap;\", \"\"()\n"
                          "  ret void\n}\n";
  r = (*rt)->loadApplication(bytes(asmKernel), {.name = "tenant-a"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::Refused) << r.error().describe();
  EXPECT_FALSE(r.error().detail().empty());
  // And the runtime goes on.
  EXPECT_TRUE((*rt)->loadApplication(bytes(vaddModule("after")), {}).ok());
}

// R10-F1 through the runtime and real workers: a module of more kernels than
// maxKernelsPerModule is refused when the worker's answer is decoded (before the PTX
// is validated or assembled), with the cap's message; at a cap that admits it, it
// loads (a compile-only runtime has the cap too).
TEST(CompileWorker, ModulesOverTheKernelCapAreRefusedAtTheAnswer) {
  std::string many(atoll_test::NvptxHeader);
  for (int i = 0; i < 40; ++i)
    many += fmt::format("define ptx_kernel void @k{}(ptr addrspace(1) %p) {{\n"
                        "  store i32 {}, ptr addrspace(1) %p, align 4\n  ret void\n}}\n",
                        i, i);
  RuntimeOptions o = workerOptions();
  o.maxKernelsPerModule = 39;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt.ok()) << rt.error().describe();
  auto r = (*rt)->loadApplication(bytes(many), {.name = "tenant-many"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::CapacityExceeded) << r.error().describe();
  EXPECT_NE(r.error().message().find("application 'tenant-many': the module has 40 kernels; at "
                                     "most 39 are loaded (RuntimeOptions::maxKernelsPerModule)"),
            std::string::npos)
      << r.error().message();
  o.maxKernelsPerModule = 40;
  rt = Runtime::create(o);
  ASSERT_TRUE(rt.ok()) << rt.error().describe();
  auto ok = (*rt)->loadApplication(bytes(many), {.name = "tenant-many"});
  ASSERT_TRUE(ok.ok()) << ok.error().describe();
  EXPECT_EQ((*ok)->kernels().size(), 40u);
}

TEST(CompileWorker, ParallelLoads) {
  RuntimeOptions o = workerOptions();
  o.compileWorkers.poolSize = 4;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt.ok());
  // The cap (R4-F4) as the kernel sees it: never more than poolSize worker
  // processes, zombies included, while 8 loads (16 requests) run.
  std::atomic<bool> stop{false};
  std::atomic<size_t> most{0};
  std::thread monitor([&] {
    while (!stop) {
      most = std::max(most.load(), workerChildren().size());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      std::string m = vaddModule("parallel " + std::to_string(i));
      ok += (*rt)->loadApplication(bytes(m), {}).ok();
    });
  for (auto &t : threads)
    t.join();
  stop = true;
  monitor.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_LE(most.load(), 4u);
  EXPECT_GE(most.load(), 1u);
  EXPECT_EQ((*rt)->stats().compilations, 8u);
}

// test/hostile-compile/MANIFEST (inputs written by generate.py at build time): "<file> <error-code> <text in the message>" per line.
// Each input goes through a runtime with tight worker limits; after each, a good
// module still compiles through the same runtime.
TEST(CompileWorker, HostileCorpus) {
  // Each input ends within its 40 s deadline; the whole corpus takes a few minutes on
  // a loaded 2-core machine. A pool that stops handing out workers must fail here.
  Watchdog guard("CompileWorker.HostileCorpus", std::chrono::seconds(900));
  RuntimeOptions o = workerOptions();
  // CPU-bound inputs meet RLIMIT_CPU (4 s) well before the wall-clock deadline even
  // on a loaded machine; memory-bound ones RLIMIT_AS.
  o.compileWorkers.memoryLimit = 768ull << 20;
  o.compileWorkers.cpuLimitSeconds = 4;
  o.compileWorkers.timeout = std::chrono::seconds(40);
  o.compileWorkers.maxOutputBytes = 16u << 20;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt.ok()) << rt.error().describe();
  PoolConfig ac;
  ac.workerPath = CompilePool::defaultWorkerPath();
  ac.size = 1;
  ac.timeout = std::chrono::seconds(20);
  auto assembler = CompilePool::create(ac);
  ASSERT_TRUE(assembler.ok());
  std::ifstream manifest(std::string(ATOLL_HOSTILE_DIR) + "/MANIFEST");
  ASSERT_TRUE(manifest.good());
  int cases = 0;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ls(line);
    std::string file, code, text;
    ls >> file >> code;
    std::getline(ls >> std::ws, text);
    std::string input = slurp(std::string(ATOLL_HOSTILE_DIR) + "/" + file);
    ASSERT_FALSE(input.empty()) << file;
    ++cases;
    std::string name = "hostile-" + file;
    auto start = std::chrono::steady_clock::now();
    auto r = (*rt)->loadApplication(bytes(input), {.name = name});
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    if (code == "assembler" && r.ok()) {
      // Hardened PTX that only the assembler can refuse (it exceeds a hardware
      // limit): the assemble request, in a worker too, must refuse it.
      auto a = (*assembler)->run(Request(AssembleJob{(*r)->ptx(), "sm_90"}));
      bool refused = !a.ok() || std::holds_alternative<Failed>(*a);
      EXPECT_TRUE(refused) << file << " assembled";
      std::printf("[hostile] %-36s %-18s %6lld ms  assemble: %s\n", file.c_str(), "loaded",
                  (long long)ms,
                  !a.ok() ? a.error().message().substr(0, 100).c_str()
                  : std::holds_alternative<Failed>(*a)
                      ? std::get<Failed>(*a).message.substr(0, 100).c_str()
                      : "assembled");
      continue;
    }
    if (r.ok()) {
      ADD_FAILURE() << file << " loaded";
      continue;
    }
    EXPECT_EQ(to_string(r.error().code()), code) << file << ": " << r.error().describe();
    EXPECT_NE(r.error().message().find("application '" + name + "'"), std::string::npos)
        << r.error().message();
    EXPECT_NE(r.error().describe().find(text), std::string::npos)
        << file << ": " << r.error().describe();
    std::printf("[hostile] %-36s %-18s %6lld ms  %s\n", file.c_str(),
                std::string(to_string(r.error().code())).c_str(), (long long)ms,
                r.error().message().substr(0, 120).c_str());
    auto good = (*rt)->loadApplication(bytes(vaddModule(file)), {});
    EXPECT_TRUE(good.ok()) << "after " << file << ": " << good.error().describe();
  }
  EXPECT_GE(cases, 20);
}

// PTX that the assembler must refuse (or crash on) goes to a worker too: a typed
// error, and the pool goes on.
TEST(CompileWorker, HostilePtxForTheAssembler) {
  PoolConfig c;
  c.workerPath = CompilePool::defaultWorkerPath();
  c.size = 1;
  c.timeout = std::chrono::seconds(20);
  auto pool = CompilePool::create(c);
  ASSERT_TRUE(pool.ok());
  int cases = 0;
  for (auto &e : std::filesystem::directory_iterator(ATOLL_HOSTILE_DIR)) {
    if (e.path().extension() != ".ptx")
      continue;
    ++cases;
    auto r = (*pool)->run(Request(AssembleJob{slurp(e.path()), "sm_90"}));
    if (!r.ok()) { // the assembler crashed the worker, or hung
      EXPECT_TRUE(r.error().code() == ErrorCode::CompileError ||
                  r.error().code() == ErrorCode::CompileTimeout ||
                  r.error().code() == ErrorCode::CompileResources)
          << e.path() << ": " << r.error().describe();
      continue;
    }
    ASSERT_TRUE(std::holds_alternative<Failed>(*r)) << e.path() << " assembled";
    EXPECT_EQ(std::get<Failed>(*r).kind, FailureKind::CompileError);
  }
  EXPECT_GE(cases, 2);
}
