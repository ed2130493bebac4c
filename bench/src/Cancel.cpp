// Section "cancel": how fast Pipeline::cancel() ends a kernel that never ends.
//
// A grid-filling kernel (SMs x 8 blocks of 256 threads, tenant.cu spin_register or
// spin_memory) is launched on a pipeline; once it runs (idle() false for 2 ms), the
// time from the call of cancel() to its return (which is when the pipeline's stream
// is idle, i.e. the whole grid has left) is one sample. 100 samples per kernel; p50,
// p99 and max. Each sample also checks that the pipeline is usable again (a small
// kernel's result). Targets (issue 15): p99 <= 200 us.
#include "Bench.h"

#include <cmath>
#include <thread>

namespace atoll_bench {

void runCancel(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["cancel"];
  const int samples = opts.tiny ? 5 : opts.quick ? 30 : 100;

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
    j["p50_us"] = p50;
    j["p99_us"] = p99;
    j["ended_before_cancel"] = endedEarly;
    j["unusable_after_cancel"] = unusable;
    res.row("cancel", name, "runtime", "p50", p50, "us");
    res.row("cancel", name, "runtime", "p99", p99, "us");
    // The mock driver (--tiny) runs no kernel: nothing spins, nothing to check.
    if (!opts.tiny && (unusable || endedEarly))
      res.checkFailed("cancel", std::string(name) + ": " + std::to_string(unusable) +
                                    " samples unusable after cancel, " +
                                    std::to_string(endedEarly) + " ended on their own");
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "cancel latency (%s, %u x %u threads): p50 %.1f us, p99 %.1f us over %zu "
                  "runs [target p99 <= 200 us: %s]",
                  name, blocks, threads, p50, p99, us.size(),
                  p99 <= 200 ? "PASS" : "FAIL");
    res.headline(buf);
    log("%s", buf);
  }
  out["pipeline_stats_cancellations"] = p->stats().cancellations;
}

} // namespace atoll_bench
