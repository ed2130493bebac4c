// Section "cancel": how fast Pipeline::cancel() ends a kernel that never ends.
//
// A grid-filling kernel (SMs x 8 blocks of 256 threads, tenant.cu spin_register or
// spin_memory) is launched on a pipeline; once it runs (idle() false for 2 ms), the
// time from the call of cancel() to its return (which is when the pipeline's stream
// is idle, i.e. the whole grid has left) is one sample. 100 samples per kernel (5 in
// --tiny); p50, p99 and max. Each sample also checks that the pipeline is usable
// again (a small kernel's result). Targets (issue 15): p99 <= 200 us.
//
// Victim: a second pipeline runs a steady stream (one small kernel, launch then
// synchronize, on its own thread) while the first is idle, spins and is cancelled.
// Its throughput (kernels per ms) idle, during the spin, and in each 100 us window
// after cancel() returns (averaged over the runs) gives the time until it is back
// to >= 95% of idle. Target: within 1 ms.
#include "Bench.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

namespace atoll_bench {

namespace {

constexpr int kWindows = 20;          // 100 us windows after cancel() returns
constexpr double kWindowUs = 100;

/// Completions of the victim's stream (steady-clock ns), written by its thread only.
struct VictimStream {
  std::atomic<bool> stop{false};
  std::vector<int64_t> done;
  std::string error;
  std::thread thread;

  void start(Atoll::Pipeline &v, const Atoll::Kernel &k, const Atoll::Buffer &buf) {
    done.reserve(1 << 22);
    thread = std::thread([this, &v, k, buf] {
      while (!stop.load(std::memory_order_relaxed)) {
        Atoll::Status s = v.launch(k, {Atoll::Dim3(1), Atoll::Dim3(32), 0}, buf, 3);
        if (s)
          s = v.synchronize();
        if (!s) {
          error = s.error().describe();
          return;
        }
        if (done.size() < done.capacity())
          done.push_back(nowNs());
      }
    });
  }
  void finish() {
    stop = true;
    if (thread.joinable())
      thread.join();
  }
  /// Completions in [a, b) ns, as kernels per ms.
  double rate(int64_t a, int64_t b) const {
    auto lo = std::lower_bound(done.begin(), done.end(), a);
    auto hi = std::lower_bound(done.begin(), done.end(), b);
    return b > a ? double(hi - lo) / (double(b - a) / 1e6) : NAN;
  }
};

} // namespace

/// The victim measurement (see the file comment): p is the spinning pipeline.
static void runCancelVictim(Context &ctx, Atoll::Application &app, Atoll::Pipeline &p,
                            const Atoll::Buffer &spinOut, uint32_t blocks, uint32_t threads) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["cancel"]["victim"];
  const int runs = opts.tiny ? 3 : 50;

  Atoll::PipelineOptions po;
  po.name = "bench-victim";
  po.gpuTiming = false;
  auto v = take(rt.createPipeline(po), "creating the victim pipeline");
  Atoll::Buffer vbuf = take(v->allocate(4096), "allocate");
  Atoll::Kernel probe = take(app.kernel("first_result"), "kernel first_result");
  Atoll::Kernel spin = take(app.kernel("spin_register"), "kernel spin_register");

  VictimStream vs;
  vs.start(*v, probe, vbuf);
  std::this_thread::sleep_for(std::chrono::milliseconds(20)); // warm up
  const int64_t idleA = nowNs();
  std::this_thread::sleep_for(std::chrono::milliseconds(opts.tiny ? 5 : 50));
  const int64_t idleB = nowNs();

  struct Run {
    int64_t spinFrom, cancelAt, returned;
  };
  std::vector<Run> done;
  int endedEarly = 0;
  for (int i = 0; i < runs && vs.error.empty(); ++i) {
    const Atoll::LaunchConfig cfg{Atoll::Dim3(blocks), Atoll::Dim3(threads), 0};
    check(p.launch(spin, cfg, spinOut, -1.0f), "launch");
    const int64_t launched = nowNs();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (take(p.idle(), "idle")) {
      ++endedEarly;
      continue;
    }
    const int64_t t0 = nowNs();
    Atoll::Status s = p.cancel();
    const int64_t t1 = nowNs();
    if (!s)
      fail(std::string("victim run: cancel: ") + s.error().describe());
    // The spin has the GPU from about 0.5 ms after its launch.
    done.push_back({launched + 500000, t0, t1});
    std::this_thread::sleep_for(std::chrono::milliseconds(3)); // the windows after it
  }
  vs.finish();
  if (!vs.error.empty())
    fail("victim stream: " + vs.error);

  const double idle = vs.rate(idleA, idleB);
  std::vector<double> during, recovery;
  std::vector<double> windowSum(kWindows, 0.0);
  for (const Run &r : done) {
    during.push_back(vs.rate(r.spinFrom, r.cancelAt));
    int firstBack = -1;
    for (int k = 0; k < kWindows; ++k) {
      int64_t a = r.returned + int64_t(k * kWindowUs * 1000);
      double w = vs.rate(a, a + int64_t(kWindowUs * 1000));
      windowSum[k] += w;
      if (firstBack < 0 && w >= 0.95 * idle)
        firstBack = k;
    }
    recovery.push_back(firstBack < 0 ? NAN : (firstBack + 1) * kWindowUs);
  }
  // The aggregate: the first window whose mean over the runs is >= 95% of idle (-1:
  // none within 2 ms).
  std::vector<double> ratio(kWindows, NAN);
  int back = -1;
  for (int k = 0; k < kWindows && !done.empty(); ++k) {
    ratio[k] = windowSum[k] / double(done.size()) / idle;
    if (back < 0 && ratio[k] >= 0.95)
      back = k;
  }
  const double backUs = back < 0 ? NAN : (back + 1) * kWindowUs;
  const double duringRatio = during.empty() ? NAN : mean(during) / idle;
  std::vector<double> finite;
  for (double r : recovery)
    if (!std::isnan(r))
      finite.push_back(r);

  out["runs"] = int(done.size());
  out["ended_before_cancel"] = endedEarly;
  out["idle_kernels_per_ms"] = idle;
  out["during_spin_ratio"] = duringRatio;
  Json &w = out["window_ratio"];
  for (int k = 0; k < kWindows; ++k)
    w[std::to_string(int(k * kWindowUs)) + "us"] = ratio[k];
  out["recovered_within_us"] = backUs;
  out["per_run_recovery_us"] = summary(finite);
  out["runs_never_recovered_in_2ms"] = int(recovery.size() - finite.size());
  res.row("cancel", "victim", "runtime", "idle", idle, "kernels/ms");
  res.row("cancel", "victim", "runtime", "during_spin_ratio", duringRatio, "x");
  for (int k = 0; k < kWindows; ++k)
    res.row("cancel", "victim", "runtime", "window_" + std::to_string(int(k * kWindowUs)) + "us",
            ratio[k], "x");
  res.row("cancel", "victim", "runtime", "recovered_within", backUs, "us");

  std::string windows;
  for (int k = 0; k < 10; ++k) {
    char b[32];
    std::snprintf(b, sizeof b, "%s%.0f%%", k ? " " : "", 100 * ratio[k]);
    windows += b;
  }
  std::string backText = back < 0 ? std::string("not within 2000 us")
                                   : "within " + std::to_string(int(backUs)) + " us";
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "victim throughput (first_result 1x32, launch+sync, own pipeline): idle %.1f "
                "kernels/ms, during the spin %.0f%%, per 100 us after cancel returns [%s]; back "
                "to >= 95%% of idle (mean over the runs) %s (per run p50 %.0f us, p90 %.0f us, "
                "%d runs not within 2 ms) over %zu runs [target <= 1000 us: %s]",
                idle, 100 * duringRatio, windows.c_str(), backText.c_str(),
                finite.empty() ? NAN : percentile(finite, 50),
                finite.empty() ? NAN : percentile(finite, 90),
                int(recovery.size() - finite.size()), done.size(),
                back >= 0 && backUs <= 1000 ? "PASS" : "FAIL");
  res.headline(buf);
  log("%s", buf);
  if (!opts.tiny && endedEarly)
    res.checkFailed("cancel", "victim: " + std::to_string(endedEarly) + " spins ended on their own");
}

void runCancel(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["cancel"];
  const int samples = opts.tiny ? 5 : 100;

  auto bytes = readBitcode(opts, "tenant");
  auto app = take(rt.loadApplication(bytes.data(), bytes.size()), "loading tenant.bc");
  Atoll::PipelineOptions po;
  po.name = "bench-cancel";
  po.gpuTiming = false;
  auto p = take(rt.createPipeline(po), "creating a pipeline");
  const uint32_t blocks = uint32_t(std::max(gpu.smCount, 1)) * 8, threads = 256;
  Atoll::Buffer outBuf = take(p->allocate(uint64_t(blocks) * threads * 4), "allocate");
  Atoll::Buffer flag = take(p->allocate(256), "allocate");
  check(p->fill(flag, 0, 256, 0), "fill");
  Atoll::Kernel probe = take(app->kernel("first_result"), "kernel first_result");
  out["grid"] = blocks;
  out["block"] = threads;
  out["samples"] = samples;

  for (const char *name : {"spin_register", "spin_memory"}) {
    Atoll::Kernel k = take(app->kernel(name), std::string("kernel ") + name);
    std::vector<double> us;
    int unusable = 0, endedEarly = 0;
    for (int i = 0; i < samples; ++i) {
      const Atoll::LaunchConfig cfg{Atoll::Dim3(blocks), Atoll::Dim3(threads), 0};
      if (std::string_view(name) == "spin_register")
        check(p->launch(k, cfg, outBuf, -1.0f), "launch");
      else
        check(p->launch(k, cfg, flag), "launch");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (take(p->idle(), "idle")) {
        ++endedEarly;
        continue;
      }
      auto t0 = Clock::now();
      Atoll::Status s = p->cancel();
      auto t1 = Clock::now();
      if (!s)
        fail(std::string(name) + ": cancel: " + s.error().describe());
      us.push_back(usBetween(t0, t1));
      // Usable again: a kernel after the cancel runs normally.
      check(p->launch(probe, {Atoll::Dim3(1), Atoll::Dim3(32), 0}, outBuf, 7), "probe launch");
      check(p->synchronize(), "probe synchronize");
      int got[32];
      check(p->copyToHost(got, outBuf, 0, sizeof got), "probe copy");
      for (int t = 0; t < 32; ++t)
        if (got[t] != 7 + t) {
          ++unusable;
          break;
        }
    }
    Json &j = out["kernels"][name];
    j["cancel_us"] = summary(us);
    const double p50 = us.empty() ? NAN : percentile(us, 50);
    const double p99 = us.empty() ? NAN : percentile(us, 99);
    const double mx = us.empty() ? NAN : *std::max_element(us.begin(), us.end());
    j["p50_us"] = p50;
    j["p99_us"] = p99;
    j["max_us"] = mx;
    j["ended_before_cancel"] = endedEarly;
    j["unusable_after_cancel"] = unusable;
    res.row("cancel", name, "runtime", "p50", p50, "us");
    res.row("cancel", name, "runtime", "p99", p99, "us");
    res.row("cancel", name, "runtime", "max", mx, "us");
    // The mock driver (--tiny) runs no kernel: nothing spins, nothing to check.
    if (!opts.tiny && (unusable || endedEarly))
      res.checkFailed("cancel", std::string(name) + ": " + std::to_string(unusable) +
                                    " samples unusable after cancel, " +
                                    std::to_string(endedEarly) + " ended on their own");
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "cancel latency (%s, %u x %u threads): p50 %.1f us, p99 %.1f us, max %.1f us "
                  "over %zu runs [target p99 <= 200 us: %s]",
                  name, blocks, threads, p50, p99, mx, us.size(),
                  p99 <= 200 ? "PASS" : "FAIL");
    res.headline(buf);
    log("%s", buf);
  }
  out["pipeline_stats_cancellations"] = p->stats().cancellations;
  runCancelVictim(ctx, *app, *p, outBuf, blocks, threads);
}

} // namespace atoll_bench
