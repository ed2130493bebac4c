// Section "compile": bitcode -> PTX with and without the AToLL passes, and the
// application cache.
//
// 1. Toolchain phases (only where atoll-bench links the toolchain, i.e. the
//    development build with the shared libLLVM; the deployable build keeps LLVM
//    private to libatoll_runtime): parse, prepare (libdevice, NVVMReflect,
//    internalise, -O2), harden (the AToLL passes) and NVPTX codegen, timed
//    separately for Harden = true and false. The passes' share = harden / total.
// 2. Runtime::loadApplication in a compile-only runtime (no device): what a cold
//    load of an application costs in LLVM, end to end, and the second load of the
//    same bytes (a memory-cache hit).
// 3. With a device: the cold load including the driver's JIT (cuModuleLoadData),
//    and the cache hit of a device runtime.
// 4. Compile workers (issue 14): per kernel, the cold load through a warm pool of
//    sandboxed workers against the in-process toolchain (2. above); then 16
//    different kernels loaded at once from 16 threads, in-process and through the
//    pool (default limit: twice the number of cores), with where the workers' time
//    went (waits for a worker, worker start, the compile request).
#include "Bench.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <atomic>
#include <functional>

#ifdef ATOLL_BENCH_WITH_TOOLCHAIN
#include "atoll/toolchain/Toolchain.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#endif

namespace atoll_bench {
namespace {

const char *kAllKernels[] = {"vadd",          "saxpy",          "copy",          "stencil2d",
                             "stencil3d",     "gemm_tiled",     "gemm_naive",    "reduce_atomic",
                             "histogram",     "gather_scatter", "transpose",     "local_array",
                             "const_table",   "vec4",           "libdevice_math", "pointer_chase"};
const char *kQuickKernels[] = {"vadd", "gemm_tiled", "local_array", "libdevice_math"};

/// A table cell: the number, or "-" when it was not measured.
std::string cell(double v, int precision = 2) {
  if (!std::isfinite(v))
    return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Waits (up to 20 s) until the runtime's compile pool has `n` warm workers, so that
/// a cold load measures the request, not the start of the pool.
void waitWarm(Atoll::Runtime &rt, uint64_t n) {
  auto until = Clock::now() + std::chrono::seconds(20);
  while (rt.stats().compileWorkersWarm < n && Clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

/// Where the time of the parallel loads through workers went (RuntimeStats sums).
struct WorkerSplit {
  uint64_t limit = 0, peak = 0, started = 0, waits = 0, compiles = 0, assembles = 0;
  double waitMs = 0, startMs = 0, compileMs = 0, assembleMs = 0; // means
};

WorkerSplit workerSplit(const Atoll::RuntimeStats &a, const Atoll::RuntimeStats &b) {
  auto mean = [](uint64_t us, uint64_t n) { return n ? double(us) / 1000.0 / double(n) : 0.0; };
  WorkerSplit w;
  w.limit = b.compileWorkersLimit;
  w.peak = b.compileWorkersPeak;
  w.started = b.compileWorkersStarted - a.compileWorkersStarted;
  w.waits = b.compileWorkerWaits - a.compileWorkerWaits;
  w.compiles = b.compileRequests - a.compileRequests;
  w.assembles = b.assembleRequests - a.assembleRequests;
  w.waitMs = mean(b.compileWorkerWaitMicros - a.compileWorkerWaitMicros, w.waits);
  w.startMs = mean(b.compileWorkerStartMicros, b.compileWorkersReady);
  w.compileMs = mean(b.compileRequestMicros - a.compileRequestMicros, w.compiles);
  w.assembleMs = mean(b.assembleRequestMicros - a.assembleRequestMicros, w.assembles);
  return w;
}

/// The 16 kernels loaded into one fresh runtime (warm pool): one at a time (the
/// baseline: the sum of 16 single cold loads, and the longest of them), or all at
/// once from 16 threads.
struct LoadRun {
  double wallMs = 0;    // the whole run
  double longestMs = 0; // one at a time: the longest single load
  WorkerSplit split;
  uint64_t answerPeak = 0, answerWaits = 0; // the compile answer budget
};

LoadRun loadAll(const std::string &arch, bool inProcess, bool parallel,
                const std::vector<std::vector<uint8_t>> &inputs) {
  Atoll::RuntimeOptions ro;
  ro.compileOnly = true;
  ro.targetArch = arch;
  ro.compileInProcess = inProcess;
  auto rt = take(Atoll::Runtime::create(ro), "creating a compile-only runtime");
  if (!inProcess)
    waitWarm(*rt, rt->stats().compileWorkersLimit);
  Atoll::RuntimeStats before = rt->stats();
  LoadRun run;
  std::atomic<int> failures{0};
  auto t = Clock::now();
  if (parallel) {
    std::vector<std::thread> threads;
    for (const auto &bytes : inputs)
      threads.emplace_back(
          [&, b = &bytes] { failures += !rt->loadApplication(b->data(), b->size()); });
    for (auto &th : threads)
      th.join();
  } else {
    for (const auto &bytes : inputs) {
      auto t1 = Clock::now();
      failures += !rt->loadApplication(bytes.data(), bytes.size());
      run.longestMs = std::max(run.longestMs, msSince(t1));
    }
  }
  run.wallMs = msSince(t);
  if (failures)
    fail("loads of the 16 kernels failed");
  Atoll::RuntimeStats after = rt->stats();
  run.split = workerSplit(before, after);
  run.answerPeak = after.compileAnswerBytesPeak;
  run.answerWaits = after.compileAnswerWaits;
  return run;
}

/// Median (by wall time) of `reps` runs.
LoadRun medianRun(int reps, const std::function<LoadRun()> &one) {
  std::vector<LoadRun> runs;
  for (int i = 0; i < reps; ++i)
    runs.push_back(one());
  std::sort(runs.begin(), runs.end(),
            [](const LoadRun &a, const LoadRun &b) { return a.wallMs < b.wallMs; });
  return runs[runs.size() / 2];
}

#ifdef ATOLL_BENCH_WITH_TOOLCHAIN
struct Phases {
  double parse = 0, prepare = 0, harden = 0, codegen = 0;
  double total() const { return parse + prepare + harden + codegen; }
};

Phases timePhases(const std::vector<uint8_t> &bytes, const std::string &name, bool harden,
                  const std::string &arch) {
  namespace tc = Atoll::toolchain;
  Phases p;
  llvm::LLVMContext llctx;
  llvm::StringRef data(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  auto t = Clock::now();
  auto m = tc::parseModule(llvm::MemoryBufferRef(data, name), llctx);
  if (!m)
    fail(name + ": parse: " + llvm::toString(m.takeError()));
  p.parse = msSince(t);
  tc::CompileOptions o;
  o.GpuArch = arch;
  o.Harden = harden;
  t = Clock::now();
  if (llvm::Error e = tc::prepareModule(**m, o))
    fail(name + ": prepare: " + llvm::toString(std::move(e)));
  p.prepare = msSince(t);
  if (harden) {
    t = Clock::now();
    if (llvm::Error e = tc::hardenModule(**m, o))
      fail(name + ": harden: " + llvm::toString(std::move(e)));
    p.harden = msSince(t);
  }
  t = Clock::now();
  auto ptx = tc::emitPTX(**m, o);
  if (!ptx)
    fail(name + ": codegen: " + llvm::toString(ptx.takeError()));
  p.codegen = msSince(t);
  return p;
}

Phases medianPhases(const std::vector<Phases> &v) {
  auto pick = [&](double Phases::*f) {
    std::vector<double> x;
    for (const auto &p : v)
      x.push_back(p.*f);
    return median(x);
  };
  Phases m;
  m.parse = pick(&Phases::parse);
  m.prepare = pick(&Phases::prepare);
  m.harden = pick(&Phases::harden);
  m.codegen = pick(&Phases::codegen);
  return m;
}

Json phasesJson(const Phases &p) {
  Json j = Json::object();
  j["parse_ms"] = p.parse;
  j["prepare_ms"] = p.prepare;
  j["harden_ms"] = p.harden;
  j["codegen_ms"] = p.codegen;
  j["total_ms"] = p.total();
  return j;
}
#endif

} // namespace

void runCompile(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  Json &out = res.root["sections"]["compile"];
  Budget budget{Clock::now(), opts.quick ? 10.0 : 30.0};
  const int reps = opts.quick ? 2 : 5;
  const int hitReps = opts.quick ? 20 : 50;
  const std::string arch = ctx.runtime ? ctx.runtime->device().targetArch : "sm_90";
  out["target"] = arch;
  out["repetitions"] = reps;
#ifdef ATOLL_BENCH_WITH_TOOLCHAIN
  out["phases_available"] = true;
#else
  out["phases_available"] = false;
  out["phases_note"] =
      "this atoll-bench does not link the toolchain (LLVM is private to libatoll_runtime in "
      "the deployable build): the per-phase split comes from a development build";
#endif

  std::vector<std::string> kernels;
  if (opts.quick)
    kernels.assign(std::begin(kQuickKernels), std::end(kQuickKernels));
  else
    kernels.assign(std::begin(kAllKernels), std::end(kAllKernels));

  log("%-16s %10s %10s %9s %8s | %12s %12s %10s | %12s %10s %12s", "kernel", "native ms",
      "harden ms", "passes ms", "share", "rt cold ms", "worker ms", "rt hit us", "dev cold ms",
      "dev hit us", "dev inproc ms");
  std::vector<double> shares, nativeTotals, hardenedTotals, coldLoads, hits, devCold, devHits,
      workerCold, devInCold;
  for (const std::string &name : kernels) {
    if (budget.spent()) {
      res.error("compile", "time budget spent: skipped the remaining kernels from " + name);
      break;
    }
    Json k = Json::object();
    k["name"] = name;
    try {
      auto bytes = readBitcode(opts, name);
      k["bitcode_bytes"] = bytes.size();
      double nativeMs = NAN, hardMs = NAN, passMs = NAN, share = NAN;
#ifdef ATOLL_BENCH_WITH_TOOLCHAIN
      {
        std::vector<Phases> nat, hard;
        (void)timePhases(bytes, name, true, arch); // warm-up (first use of the target, libdevice)
        for (int r = 0; r < reps; ++r) {
          nat.push_back(timePhases(bytes, name, false, arch));
          hard.push_back(timePhases(bytes, name, true, arch));
        }
        Phases n = medianPhases(nat), h = medianPhases(hard);
        k["native"] = phasesJson(n);
        k["hardened"] = phasesJson(h);
        nativeMs = n.total();
        hardMs = h.total();
        passMs = h.harden;
        share = h.harden / h.total();
        k["passes_share"] = share;
        k["hardened_over_native"] = hardMs / nativeMs;
        shares.push_back(share);
        nativeTotals.push_back(nativeMs);
        hardenedTotals.push_back(hardMs);
        res.row("compile", name, "native", "total_ms", nativeMs, "ms");
        res.row("compile", name, "hardened", "total_ms", hardMs, "ms");
        res.row("compile", name, "hardened", "passes_ms", passMs, "ms");
        res.row("compile", name, "hardened", "passes_share", share, "");
      }
#endif
      // Cold load and cache hit through the runtime, compile-only (pure LLVM time).
      std::vector<double> cold, hit;
      for (int r = 0; r < reps; ++r) {
        Atoll::RuntimeOptions ro;
        ro.compileOnly = true;
        ro.targetArch = arch;
        ro.compileInProcess = true;
        auto rt = take(Atoll::Runtime::create(ro), "creating a compile-only runtime");
        auto t = Clock::now();
        auto app = take(rt->loadApplication(bytes.data(), bytes.size()), "loading " + name);
        cold.push_back(msSince(t));
        if (app->origin() != Atoll::Application::Origin::Compiled)
          fail(name + ": the first load of a fresh runtime did not compile");
        if (r == 0) {
          for (int h = 0; h < hitReps; ++h) {
            auto t2 = Clock::now();
            auto again = take(rt->loadApplication(bytes.data(), bytes.size()), "reloading " + name);
            hit.push_back(usBetween(t2, Clock::now()));
            if (again->origin() != Atoll::Application::Origin::MemoryCache)
              fail(name + ": the second load of the same bytes was not a cache hit");
          }
        }
      }
      // The same cold load through a warm pool of compile workers.
      std::vector<double> wcold;
      for (int r = 0; r < reps; ++r) {
        Atoll::RuntimeOptions ro;
        ro.compileOnly = true;
        ro.targetArch = arch;
        ro.compileWorkers.poolSize = 2;
        auto rt = take(Atoll::Runtime::create(ro), "creating a compile-only runtime (workers)");
        waitWarm(*rt, 2);
        auto t = Clock::now();
        take(rt->loadApplication(bytes.data(), bytes.size()), "loading " + name + " (worker)");
        wcold.push_back(msSince(t));
      }
      double workerMs = median(wcold);
      k["worker_cold_load_ms"] = summary(wcold);
      workerCold.push_back(workerMs);
      res.row("compile", name, "worker", "cold_load_ms", workerMs, "ms");
      double coldMs = median(cold), hitUs = median(hit);
      k["worker_over_in_process"] = workerMs / coldMs;
      res.row("compile", name, "worker", "over_in_process", workerMs / coldMs, "");
      k["runtime_cold_load_ms"] = summary(cold);
      k["runtime_cache_hit_us"] = summary(hit);
      coldLoads.push_back(coldMs);
      hits.push_back(hitUs);
      res.row("compile", name, "runtime", "cold_load_ms", coldMs, "ms");
      res.row("compile", name, "runtime", "cache_hit_us", hitUs, "us");

      // With a device: the cold load includes the JIT; a fresh runtime has an empty cache.
      double devColdMs = NAN, devHitUs = NAN, devInMs = NAN;
      if (ctx.runtime) {
        Atoll::RuntimeOptions ro;
        ro.deviceOrdinal = opts.device;
        auto rt = take(Atoll::Runtime::create(ro), "creating a device runtime");
        waitWarm(*rt, 2); // a device load takes two: compile, then assemble
        auto t = Clock::now();
        auto app = take(rt->loadApplication(bytes.data(), bytes.size()), "loading " + name);
        devColdMs = msSince(t);
        std::vector<double> dh;
        for (int h = 0; h < hitReps; ++h) {
          auto t2 = Clock::now();
          auto again = take(rt->loadApplication(bytes.data(), bytes.size()), "reloading " + name);
          dh.push_back(usBetween(t2, Clock::now()));
        }
        devHitUs = median(dh);
        app.reset();
        rt.reset(); // one device runtime at a time
        {
          // The same cold load compiled and assembled in the service process.
          Atoll::RuntimeOptions io;
          io.deviceOrdinal = opts.device;
          io.compileInProcess = true;
          auto irt = take(Atoll::Runtime::create(io), "creating a device runtime (in-process)");
          auto t3 = Clock::now();
          take(irt->loadApplication(bytes.data(), bytes.size()), "loading " + name + " (in-process)");
          devInMs = msSince(t3);
          k["device_in_process_cold_load_ms"] = devInMs;
          devInCold.push_back(devInMs);
          res.row("compile", name, "device-in-process", "cold_load_ms", devInMs, "ms");
        }
        k["device_cold_load_ms"] = devColdMs;
        k["device_cache_hit_us"] = summary(dh);
        devCold.push_back(devColdMs);
        devHits.push_back(devHitUs);
        res.row("compile", name, "device", "cold_load_ms", devColdMs, "ms");
        res.row("compile", name, "device", "cache_hit_us", devHitUs, "us");
        if (ctx.gpu)
          ctx.gpu->makeCurrent();
      }
      log("%-16s %10s %10s %9s %8s | %12s %12s %10s | %12s %10s %12s", name.c_str(),
          cell(nativeMs).c_str(), cell(hardMs).c_str(), cell(passMs).c_str(),
          (std::isfinite(share) ? cell(share * 100, 1) + "%" : cell(share)).c_str(),
          cell(coldMs).c_str(), cell(workerMs).c_str(), cell(hitUs).c_str(), cell(devColdMs).c_str(),
          cell(devHitUs).c_str(), cell(devInMs).c_str());
    } catch (const std::exception &e) {
      k["error"] = e.what();
      res.error("compile", e.what());
    }
    out["kernels"].push_back(std::move(k));
  }

  // The 16 kernels one at a time (the baseline) and all at once from 16 threads,
  // in-process and through the worker pool; medians of 3 runs (1 with --quick).
  LoadRun ser16In, ser16Worker, par16InRun, par16WorkerRun;
  double par16In = NAN, par16Worker = NAN;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (!budget.spent()) {
    try {
      std::vector<std::vector<uint8_t>> inputs;
      for (const char *name : kAllKernels)
        inputs.push_back(readBitcode(opts, name));
      const int runs = opts.quick ? 1 : 3;
      ser16In = medianRun(runs, [&] { return loadAll(arch, true, false, inputs); });
      ser16Worker = medianRun(runs, [&] { return loadAll(arch, false, false, inputs); });
      par16InRun = medianRun(runs, [&] { return loadAll(arch, true, true, inputs); });
      par16WorkerRun = medianRun(runs, [&] { return loadAll(arch, false, true, inputs); });
      par16In = par16InRun.wallMs;
      par16Worker = par16WorkerRun.wallMs;
      const WorkerSplit &w = par16WorkerRun.split;
      out["parallel16_in_process_ms"] = par16In;
      out["parallel16_worker_ms"] = par16Worker;
      out["serial16_in_process_ms"] = ser16In.wallMs;
      out["serial16_worker_ms"] = ser16Worker.wallMs;
      out["serial16_worker_longest_ms"] = ser16Worker.longestMs;
      // Where the workers' time went (compile-only runtime: no assemble stage).
      Json &j = out["parallel16_worker_split"];
      j["worker_limit"] = w.limit;
      j["peak_live_workers"] = w.peak;
      j["workers_spawned_during_loads"] = w.started;
      j["requests_that_waited"] = w.waits;
      j["mean_wait_ms"] = w.waitMs;
      j["mean_worker_start_ms"] = w.startMs;
      j["compile_requests"] = w.compiles;
      j["mean_compile_request_ms"] = w.compileMs;
      j["assemble_requests"] = w.assembles;
      j["mean_assemble_request_ms"] = w.assembleMs;
      j["answer_budget_peak_bytes"] = par16WorkerRun.answerPeak;
      j["answer_budget_waits"] = par16WorkerRun.answerWaits;
      res.row("compile", "serial16", "in-process", "wall_ms", ser16In.wallMs, "ms");
      res.row("compile", "serial16", "worker", "wall_ms", ser16Worker.wallMs, "ms");
      res.row("compile", "parallel16", "in-process", "wall_ms", par16In, "ms");
      res.row("compile", "parallel16", "worker", "wall_ms", par16Worker, "ms");
      res.row("compile", "parallel16", "worker", "mean_compile_request_ms", w.compileMs, "ms");
      res.row("compile", "parallel16", "worker", "mean_wait_ms", w.waitMs, "ms");
      res.row("compile", "parallel16", "worker", "mean_worker_start_ms", w.startMs, "ms");
      log("16 kernels one at a time: in-process %.1f ms, workers %.1f ms (longest single load "
          "%.1f ms)",
          ser16In.wallMs, ser16Worker.wallMs, ser16Worker.longestMs);
      log("16 parallel cold loads (16 kernels, %u cores): in-process %.1f ms, workers %.1f ms",
          cores, par16In, par16Worker);
      log("  workers: limit %llu, peak live %llu; %llu spawned during the loads (replacements, "
          "ready after them); %llu of %llu requests waited (mean %.1f ms); mean compile request "
          "%.1f ms; mean worker start (exec to Ready, over the starts that finished) %.1f ms; "
          "answer budget: peak %llu bytes, %llu waits",
          (unsigned long long)w.limit, (unsigned long long)w.peak,
          (unsigned long long)w.started, (unsigned long long)w.waits,
          (unsigned long long)(w.compiles + w.assembles), w.waitMs, w.compileMs, w.startMs,
          (unsigned long long)par16WorkerRun.answerPeak,
          (unsigned long long)par16WorkerRun.answerWaits);
    } catch (const std::exception &e) {
      res.error("compile", e.what());
    }
  }

  Json &s = out["summary"];
  s["kernels"] = kernels.size();
  if (!workerCold.empty()) {
    s["worker_cold_load_ms_median"] = median(workerCold);
    s["worker_over_in_process_median"] = median(workerCold) / median(coldLoads);
  }
  s["runtime_cold_load_ms_median"] = median(coldLoads);
  s["runtime_cache_hit_us_median"] = median(hits);
  if (!devCold.empty()) {
    s["device_cold_load_ms_median"] = median(devCold);
    s["device_cache_hit_us_median"] = median(devHits);
  }
  char head[160];
  std::snprintf(head, sizeof head,
                "compile: cold load (LLVM, compile-only runtime) median %.2f ms, cache hit median "
                "%.2f us",
                median(coldLoads), median(hits));
  std::string line = head;
  if (!shares.empty()) {
    double sumN = 0, sumH = 0;
    for (double x : nativeTotals)
      sumN += x;
    for (double x : hardenedTotals)
      sumH += x;
    s["native_total_ms_sum"] = sumN;
    s["hardened_total_ms_sum"] = sumH;
    s["passes_share_median"] = median(shares);
    s["passes_share_max"] = *std::max_element(shares.begin(), shares.end());
    s["hardened_over_native_sum_ratio"] = sumH / sumN;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "; passes take %.1f%% of the hardened compile (median; max %.1f%%), hardened/native "
                  "compile time %.2fx",
                  100 * median(shares), 100 * *std::max_element(shares.begin(), shares.end()),
                  sumH / sumN);
    line += buf;
    res.row("compile", "all", "hardened", "passes_share_median", median(shares), "");
  }
  if (!workerCold.empty()) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; through compile workers: cold %.2f ms (%.2fx in-process)",
                  median(workerCold), median(workerCold) / median(coldLoads));
    line += buf;
  }
  if (std::isfinite(par16Worker)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; 16 parallel loads: in-process %.0f ms, workers %.0f ms",
                  par16In, par16Worker);
    line += buf;
  }
  if (!devHits.empty()) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "; with JIT: cold %.2f ms, hit %.2f us (medians)",
                  median(devCold), median(devHits));
    line += buf;
  }
  res.headline(line);

  // The targets, each with its verdict, so that one run proves or disproves
  // them (docs/benchmarks.md, "Compile workers"):
  //  - a cold load through the workers at most 1.2x the in-process one (median over
  //    the kernels; also with the device: assembly and driver load included);
  //  - 16 parallel loads scale with the cores: the speed-up over the same 16 loads
  //    one at a time reaches 0.75 of what is possible, min(16 loads, cores, serial
  //    time / longest single load: no schedule beats the longest load); and the
  //    parallel burst through the workers at most 1.2x the in-process one.
  Json &t = s["targets"];
  std::string verdicts = "compile targets (issue 14):";
  auto verdict = [](bool met) { return met ? "met" : "MISSED"; };
  if (!workerCold.empty() && !coldLoads.empty()) {
    double r = median(workerCold) / median(coldLoads);
    t["worker_over_in_process_cold"] = r;
    t["worker_over_in_process_cold_met"] = r <= 1.2;
    char buf[200];
    std::snprintf(buf, sizeof buf, " cold load workers/in-process %.2fx (<= 1.20x: %s)", r,
                  verdict(r <= 1.2));
    verdicts += buf;
  }
  if (!devCold.empty() && !devInCold.empty()) {
    double r = median(devCold) / median(devInCold);
    t["device_worker_over_in_process_cold"] = r;
    t["device_worker_over_in_process_cold_met"] = r <= 1.2;
    char buf[200];
    std::snprintf(buf, sizeof buf, "; with the device (assembly, driver load) %.2fx (%s)", r,
                  verdict(r <= 1.2));
    verdicts += buf;
  }
  if (std::isfinite(par16Worker) && par16Worker > 0 && ser16Worker.longestMs > 0) {
    double speedup = ser16Worker.wallMs / par16Worker;
    double inSpeedup = ser16In.wallMs / par16In;
    double bound = std::min({16.0, double(cores), ser16Worker.wallMs / ser16Worker.longestMs});
    double ofCores = speedup / std::min(16.0, double(cores));
    double burst = par16Worker / par16In;
    bool scales = speedup >= 0.75 * bound;
    t["parallel16_worker_speedup"] = speedup;
    t["parallel16_in_process_speedup"] = inSpeedup;
    t["parallel16_speedup_bound"] = bound;
    t["parallel16_worker_speedup_of_cores"] = ofCores;
    t["parallel16_worker_scales_met"] = scales;
    t["parallel16_worker_over_in_process"] = burst;
    t["parallel16_worker_over_in_process_met"] = burst <= 1.2;
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "; 16 parallel loads through workers %.1fx faster than one at a time "
                  "(%.0f -> %.0f ms; in-process %.1fx), %.2f of min(16, %u cores) and %.2f of "
                  "the bound %.1fx (>= 0.75: %s); parallel workers/in-process %.2fx "
                  "(<= 1.20x: %s)",
                  speedup, ser16Worker.wallMs, par16Worker, inSpeedup, ofCores, cores,
                  speedup / bound, bound, verdict(scales), burst, verdict(burst <= 1.2));
    verdicts += buf;
  }
  res.headline(verdicts);
}

} // namespace atoll_bench
