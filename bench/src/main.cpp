// atoll-bench: one command for every AToLL measurement (docs/benchmarks.md).
//
//   atoll-bench [--quick] [--only=overhead|startup|compile|launch|multitenant|cancel|partition[,...]]
//               [--out DIR] [--bitcode-dir DIR] [--device N] [--time-limit SECONDS]
//               [--jit-cache]
//
// The CUDA driver's JIT cache (~/.nv/ComputeCache) is off for the run
// (CUDA_CACHE_DISABLE=1, set before any CUDA or nvJitLink use), unless --jit-cache:
// nvJitLink in the benchmark's own process reads and writes that cache, the
// sandboxed compile workers never reach it (a clean environment, no HOME), so with
// it on the in-process path's repeated assemblies of the same PTX are cache hits
// and the comparison of the two paths is unfair (H200, session 8: 2.99x with the
// cache, 0.94x without).
//
// Writes DIR/results.json and DIR/results.csv (after every section, so a run that is
// cut short still leaves what it measured) and DIR/ptx/ (native and hardened PTX of
// every overhead kernel). Exit status: 0 when every section ran and every check
// passed (also without a GPU: then only the compile benchmark runs), 1 when a
// section failed or an output check failed, 2 for a usage error, 3 when the
// watchdog (--time-limit) ended the run.
#include "Bench.h"
#include "GpuGate.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <thread>

#include <unistd.h>

#ifndef ATOLL_BENCH_BUILD_TYPE
#define ATOLL_BENCH_BUILD_TYPE "unknown"
#endif

using namespace atoll_bench;

namespace {

const char *kSections[] = {"compile", "overhead", "launch", "startup", "multitenant", "cancel",
                          "partition"};

/// 0 = ok, 1 = --help, 2 = error (CLI11 prints which).
int parseArgs(int argc, char **argv, Options &o) {
  std::string cmd;
  for (int i = 0; i < argc; ++i) {
    if (i)
      cmd += ' ';
    cmd += argv[i];
  }
  o.commandLine = cmd;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  o.exePath = n > 0 ? std::string(exe, size_t(n)) : std::string(argv[0]);

  CLI::App app("atoll-bench: AToLL's benchmarks; writes results.json and results.csv.",
               "atoll-bench");
  app.footer("sections: compile, overhead, launch, startup, multitenant, cancel, partition (default: "
             "all, in that order)");
  app.add_flag("--quick", o.quick,
               "smaller problems and fewer repetitions (about 90 s instead of 4 min)");
  bool tiny = false;
  // Test-only (the mock-driver test); hidden from --help, as are the tenant's flags.
  app.add_flag("--tiny", tiny)->group("");
  app.add_option("--only", o.only, "run only these sections (SECTION[,SECTION...])")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kSections), std::end(kSections))));
  app.add_option("--kernels", o.kernels,
                 "overhead section: only these kernels (NAME[,NAME...]; a diagnostic)")
      ->delimiter(',');
  app.add_option("--extra-ptx", o.extraPtx,
                 "overhead section: also time this PTX as a raw variant of KERNEL, with the "
                 "mask-raw launch (KERNEL:LABEL:FILE, repeatable; a diagnostic for hand-edited "
                 "PTX, reported against mask-nocheck-raw and mask-raw)");
  app.add_option("--out", o.outDir, "where results.json, results.csv and ptx/ go")
      ->default_str(o.outDir);
  app.add_option("--bitcode-dir", o.bitcodeDir,
                 "the kernels' bitcode (default: the build's bench/kernels, else <exe "
                 "dir>/../bench/kernels as in the GPU bundle)");
  app.add_option("--device", o.device, "the CUDA device's ordinal (default 0)");
  app.add_flag("--jit-cache", o.jitCache,
               "leave the CUDA driver's JIT cache as the environment has it (default: "
               "CUDA_CACHE_DISABLE=1 for the run, so that no path is answered from it)");
  int timeLimit = 0;
  app.add_option("--time-limit", timeLimit,
                 "watchdog: write what was measured and exit 3 after this many seconds "
                 "(default 420, quick 150)")
      ->check(CLI::Range(1, 86400));
  app.add_flag("--tenant-process", o.tenantProcess)->group("");
  app.add_option("--launches", o.tenantLaunches)->group("");
  app.add_option("--batch", o.tenantBatch)->group("");
  app.add_option("--iters", o.tenantIters)->group("");
  app.add_option("--grid", o.tenantGrid)->group("");
  app.add_option("--block", o.tenantBlock)->group("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 1 : 2;
  }
  if (tiny)
    o.tiny = o.quick = true;
  if (timeLimit > 0)
    o.timeLimitSec = timeLimit;
  return 0;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string firstLineOf(const char *path, const char *prefix = nullptr) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!prefix || line.rfind(prefix, 0) == 0)
      return line;
  return "";
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t'))
    s.pop_back();
  size_t i = s.find_first_not_of(" \t");
  return i == std::string::npos ? "" : s.substr(i);
}

std::string driverRelease() {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." or, for the
  // open modules, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04
  // Release Build ...": the first word that is a dotted number.
  std::string line = firstLineOf("/proc/driver/nvidia/version", "NVRM");
  std::smatch m;
  if (std::regex_search(line, m, std::regex(R"((^|\s)(\d+\.\d+(\.\d+)?)(\s|$))")))
    return m[2];
  return trim(line);
}

/// Opens the device's primary context (shared with the runtime). False + reason
/// when there is no usable driver or device.
bool openGpu(const Options &opts, Gpu &gpu, std::string &reason) {
  auto driver = Atoll::cuda::loadDriver();
  if (!driver.ok()) {
    reason = driver.error().message();
    if (!driver.error().detail().empty())
      reason += " (" + driver.error().detail() + ")";
    return false;
  }
  gpu.api = *driver;
  const auto &api = *gpu.api;
  int count = 0;
  api.cuDeviceGetCount(&count);
  if (opts.device < 0 || opts.device >= count) {
    reason = "no CUDA device with ordinal " + std::to_string(opts.device) + " (" +
             std::to_string(count) + " present)";
    return false;
  }
  if (CUresult r = api.cuDeviceGet(&gpu.dev, opts.device); r != CUDA_SUCCESS) {
    reason = "cuDeviceGet: " + Atoll::cuda::describe(api, r);
    return false;
  }
  if (CUresult r = api.cuDevicePrimaryCtxRetain(&gpu.primary, gpu.dev); r != CUDA_SUCCESS) {
    reason = "cuDevicePrimaryCtxRetain: " + Atoll::cuda::describe(api, r);
    return false;
  }
  api.cuCtxSetCurrent(gpu.primary);
  char name[256] = {};
  api.cuDeviceGetName(name, sizeof name, gpu.dev);
  gpu.name = name;
  api.cuDeviceGetAttribute(&gpu.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, gpu.dev);
  api.cuDeviceGetAttribute(&gpu.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, gpu.dev);
  api.cuDeviceGetAttribute(&gpu.smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, gpu.dev);
  size_t total = 0;
  api.cuDeviceTotalMem(&total, gpu.dev);
  gpu.totalMemory = total;
  gpu.driverVersion = api.driverVersion;
  gpu.driverRelease = driverRelease();
  return true;
}

void machineInfo(const Options &opts, const Gpu *gpu, const std::string &noDevice, Results &res) {
  Json &m = res.root["machine"];
  m["date"] = utcNow();
  m["command"] = opts.commandLine;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  m["host"] = host;
  std::string cpu = firstLineOf("/proc/cpuinfo", "model name");
  if (auto c = cpu.find(':'); c != std::string::npos)
    cpu = trim(cpu.substr(c + 1));
  m["cpu"] = cpu;
  m["cpu_threads"] = std::thread::hardware_concurrency();
  if (gpu) {
    m["gpu"] = gpu->name;
    m["compute_capability"] = std::to_string(gpu->ccMajor) + "." + std::to_string(gpu->ccMinor);
    m["sm_count"] = gpu->smCount;
    m["gpu_memory_bytes"] = gpu->totalMemory;
    m["driver_api_version"] = gpu->driverVersion;
    m["driver_release"] = gpu->driverRelease;
  } else {
    m["gpu"] = nullptr;
    m["no_device_reason"] = noDevice;
  }
  m["build_type"] = ATOLL_BENCH_BUILD_TYPE;
#ifdef ATOLL_BENCH_WITH_TOOLCHAIN
  m["bench_has_toolchain"] = true;
#else
  m["bench_has_toolchain"] = false;
#endif
  m["native_ptx_arch"] = kEmbeddedPtxCount ? kEmbeddedPtx[0].gpuArch : "";
  m["bitcode_dir"] = opts.bitcodeDir;
  Json &c = res.root["config"];
  c["quick"] = opts.quick;
  c["tiny"] = opts.tiny;
  Json only = Json::array();
  for (const auto &s : opts.only)
    only.push_back(s);
  c["only"] = only;
  c["time_limit_s"] = opts.timeLimitSec;

  res.rowText("machine", "date", "", "value", m["date"].get<std::string>());
  res.rowText("machine", "command", "", "value", opts.commandLine);
  res.rowText("machine", "host", "", "value", host);
  res.rowText("machine", "cpu", "", "value", cpu);
  if (gpu) {
    res.rowText("machine", "gpu", "", "value", gpu->name);
    res.rowText("machine", "compute_capability", "", "value",
                std::to_string(gpu->ccMajor) + "." + std::to_string(gpu->ccMinor));
    res.rowText("machine", "driver_api_version", "", "value", std::to_string(gpu->driverVersion));
    res.rowText("machine", "driver_release", "", "value", gpu->driverRelease);
  } else {
    res.rowText("machine", "gpu", "", "value", "none: " + noDevice);
  }
}

// The watchdog: after the time limit it writes what was measured and ends the
// process, so that a hang (a wedged GPU, a stuck child) never eats the caller's budget.
struct Watchdog {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread thread;
  std::atomic<const char *> section{"setup"};

  void start(double seconds, Results &res, const std::string &outDir) {
    thread = std::thread([this, seconds, &res, outDir] {
      std::unique_lock lock(m);
      if (cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return done; }))
        return;
      std::fprintf(stdout,
                   "\nWATCHDOG: the time limit of %.0f s ran out during section '%s'; writing "
                   "partial results to %s and exiting with status 3\n",
                   seconds, section.load(), outDir.c_str());
      std::fflush(stdout);
      res.error(section.load(), "watchdog: time limit exceeded; results are partial");
      res.write(outDir);
      std::_Exit(3);
    });
  }
  void stop() {
    {
      std::lock_guard lock(m);
      done = true;
    }
    cv.notify_all();
    if (thread.joinable())
      thread.join();
  }
};

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (int rc = parseArgs(argc, argv, opts); rc != 0)
    return rc == 1 ? 0 : 2;
  // Before any CUDA or nvJitLink use (the driver and nvJitLink read it once): the
  // driver's JIT cache would answer the in-process path's repeated assemblies of the
  // same PTX and never the workers' (see the header). Still one thread here, so
  // setenv races with nothing; the tenant processes inherit it.
  if (!opts.jitCache) {
    ::setenv("CUDA_CACHE_DISABLE", "1", 1);
    opts.jitCacheState = "off (CUDA_CACHE_DISABLE=1, set by atoll-bench; --jit-cache leaves it)";
  } else {
    const char *v = std::getenv("CUDA_CACHE_DISABLE");
    opts.jitCacheState =
        v && std::string(v) == "1"
            ? "off (--jit-cache, but CUDA_CACHE_DISABLE=1 came with the environment)"
            : "as the environment has it (--jit-cache; CUDA_CACHE_DISABLE " +
                  (v ? "= '" + std::string(v) + "'" : std::string("unset")) + ")";
  }
  if (opts.tenantProcess)
    return runTenantProcess(opts);

  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // A tenant process that died must not take the benchmark with it (the start pipe).
  std::signal(SIGPIPE, SIG_IGN);
  opts.bitcodeDir = resolveBitcodeDir(opts);
  if (opts.timeLimitSec <= 0)
    opts.timeLimitSec = opts.quick ? 150 : 420;
  const auto t0 = Clock::now();

  Results res;
  res.root["schema"] = "atoll-bench/1";
  Gpu gpu;
  std::string noDevice;
  // The GPU sections are skipped only without a driver library or a device; a
  // broken driver, or no GPU under ATOLL_REQUIRE_GPU=1, is an error (GpuGate.h).
  std::string gate;
  const atoll_test::GpuVerdict verdict = atoll_test::gpuVerdict(gate);
  if (verdict == atoll_test::GpuVerdict::Fail) {
    std::fprintf(stderr, "atoll-bench: %s\n", gate.c_str());
    return 1;
  }
  const bool haveGpu = verdict == atoll_test::GpuVerdict::Run && openGpu(opts, gpu, noDevice);
  if (verdict == atoll_test::GpuVerdict::Skip)
    noDevice = gate;
  else if (!haveGpu) {
    std::fprintf(stderr, "atoll-bench: the CUDA driver is broken: %s\n", noDevice.c_str());
    return 1;
  }
  machineInfo(opts, haveGpu ? &gpu : nullptr, noDevice, res);

  log("atoll-bench: %s mode, results in %s, bitcode from %s", opts.quick ? "quick" : "full",
      opts.outDir.c_str(), opts.bitcodeDir.c_str());
  log("CUDA driver JIT cache: %s", opts.jitCacheState.c_str());
  res.root["machine"]["jit_cache"] = opts.jitCacheState;
  if (haveGpu)
    log("GPU: %s (sm_%d%d, %d SMs), driver %s (API %d)", gpu.name.c_str(), gpu.ccMajor,
        gpu.ccMinor, gpu.smCount, gpu.driverRelease.c_str(), gpu.driverVersion);
  else
    log("no CUDA device: %s", noDevice.c_str());

  Watchdog watchdog;
  watchdog.start(opts.timeLimitSec, res, opts.outDir);

  std::unique_ptr<Atoll::Runtime> runtime;
  Context ctx;
  ctx.opts = opts;
  ctx.results = &res;
  ctx.noDeviceReason = noDevice;
  if (haveGpu) {
    Atoll::RuntimeOptions ro;
    ro.deviceOrdinal = opts.device;
    // The overhead and launch benchmarks load the hardened PTX themselves
    // (Application::ptx(), raw-launch variants): kept only when asked for.
    ro.keepPtx = true;
    auto rt = Atoll::Runtime::create(ro);
    if (rt.ok()) {
      runtime = std::move(rt).value();
      ctx.gpu = &gpu;
      ctx.runtime = runtime.get();
      res.root["machine"]["runtime_target"] = runtime->device().targetArch;
      res.root["machine"]["runtime_ptx_version"] =
          runtime->device().ptxVersion.empty() ? "llvm-default" : runtime->device().ptxVersion;
      if (runtime->device().targetArch != (kEmbeddedPtxCount ? kEmbeddedPtx[0].gpuArch : ""))
        log("note: the runtime compiles for %s but the native PTX was built for %s",
            runtime->device().targetArch.c_str(), kEmbeddedPtx[0].gpuArch);
    } else {
      res.error("setup", "Atoll::Runtime::create failed: " + rt.error().describe());
    }
  }
  res.write(opts.outDir);

  struct Section {
    const char *name;
    bool needsGpu;
    std::function<void(Context &)> run;
  };
  const Section sections[] = {{"compile", false, runCompile},
                              {"overhead", true, runOverhead},
                              {"launch", true, runLaunch},
                              {"startup", true, runStartup},
                              {"multitenant", true, runMultiTenant},
                              {"cancel", true, runCancel},
                              {"partition", true, runPartition}};
  for (const Section &s : sections) {
    if (!opts.wants(s.name))
      continue;
    if (s.needsGpu && !ctx.runtime) {
      log("\n== %s: skipped (no CUDA device%s) ==", s.name,
          haveGpu ? " runtime" : "");
      res.root["sections"][s.name]["skipped"] =
          haveGpu ? std::string("the runtime could not be created") : "no CUDA device: " + noDevice;
      continue;
    }
    watchdog.section = s.name;
    auto start = Clock::now();
    log("\n== %s ==", s.name);
    try {
      s.run(ctx);
    } catch (const std::exception &e) {
      res.error(s.name, e.what());
    }
    double secs = secondsSince(start);
    res.root["sections"][s.name]["seconds"] = secs;
    log("-- %s took %.1f s", s.name, secs);
    if (ctx.gpu) {
      // A section that left another context current must not confuse the next one.
      ctx.gpu->api->cuCtxSetCurrent(ctx.gpu->primary);
      if (runtime && runtime->lost())
        res.error(s.name, "the shared CUDA context was lost during this section");
    }
    res.write(opts.outDir);
  }
  watchdog.section = "teardown";

  double total = secondsSince(t0);
  res.root["summary"]["seconds"] = total;
  log("\n== summary (%.1f s) ==", total);
  for (const auto &h : res.headlines)
    log("  %s", h.c_str());
  log("  output checks failed: %d; section errors: %d", res.checksFailed(), res.errors());
  res.write(opts.outDir);
  log("results: %s/results.json, %s/results.csv", opts.outDir.c_str(), opts.outDir.c_str());
  watchdog.stop();

  runtime.reset();
  if (haveGpu)
    gpu.api->cuDevicePrimaryCtxRelease(gpu.dev);
  return res.checksFailed() || res.errors() ? 1 : 0;
}
