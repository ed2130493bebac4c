// Section "partition": SM partitions on green contexts (issue 17).
//
// Victim: tenant.cu `spin` (4 blocks x 128 threads, 4096 dependent FMAs per thread),
// launch + synchronize, timed on the host: p50, p99 and kernels/s. Hogs, on a second
// pipeline and their own thread, back to back:
//   compute  hog_compute: SMs x 32 blocks x 256 threads (every thread slot, 4 waves),
//            each block resident 2 ms doing FMAs;
//   memory   hog_memory: 4 passes copying 256 MiB of float4 (SMs x 8 x 256 threads).
// Cases: the victim alone (whole device; and in a 64-SM partition), next to each hog
// (a) without partitions (both on the whole device) and (b) victim and hog each in a
// 64-SM partition (disjoint SMs). Target: (b) victim p99 <= 1.05x of alone for the
// compute hog; the memory hog is reported as measured (memory bandwidth is shared).
//
// Also: createPipeline with an 8-SM quota from the pool (p50, p99; target <= 10 us)
// next to one without a quota; the pool's start-up cost (RuntimeOptions::partitionPool
// of 16 x 8 SMs: Runtime::create with minus without); how many disjoint 8-SM
// partitions run at once (pipelines until CapacityExceeded; target 16 on an H200);
// and the single-tenant cost: kernels/s of a grid-filling `spin` on the whole device,
// in a partition of every SM, and in 64 SMs.
#include "Bench.h"

#include <atomic>
#include <cmath>
#include <thread>

namespace atoll_bench {
namespace {

struct Hog {
  std::atomic<bool> stop{false};
  std::atomic<long> kernels{0};
  std::string error;
  std::thread thread;
  void start(Atoll::Pipeline &p, Atoll::Kernel k, Atoll::LaunchConfig cfg,
             std::vector<Atoll::Arg> args) {
    thread = std::thread([this, &p, k, cfg, args] {
      while (!stop.load()) {
        Atoll::Status s = p.launch(k, cfg, std::span<const Atoll::Arg>(args));
        if (s)
          s = p.synchronize();
        if (!s) {
          error = s.error().describe();
          return;
        }
        kernels++;
      }
    });
  }
  void finish() {
    stop = true;
    if (thread.joinable())
      thread.join();
  }
};

struct Victim {
  double p50 = NAN, p99 = NAN, perSec = NAN;
};

/// Pipeline options (no timing events) with an SM quota (0: none).
Atoll::PipelineOptions withQuota(uint64_t arena, uint32_t quota, const char *name = "",
                                 std::chrono::milliseconds timeout = std::chrono::milliseconds(0)) {
  Atoll::PipelineOptions o;
  o.arenaBytes = arena;
  o.smCount = quota;
  o.name = name;
  o.timeout = timeout;
  o.gpuTiming = false;
  return o;
}

Victim measureVictim(Atoll::Pipeline &v, const Atoll::Kernel &spin, const Atoll::Buffer &out,
                     int samples) {
  std::vector<double> lat;
  lat.reserve(size_t(samples));
  const auto begin = Clock::now();
  for (int i = 0; i < samples; ++i) {
    const auto t0 = Clock::now();
    check(v.launch(spin, {Atoll::Dim3(4), Atoll::Dim3(128)}, out, 4096), "victim launch");
    check(v.synchronize(), "victim synchronize");
    lat.push_back(usBetween(t0, Clock::now()));
  }
  Victim r;
  r.p50 = percentile(lat, 50);
  r.p99 = percentile(lat, 99);
  r.perSec = double(samples) / secondsSince(begin);
  return r;
}

} // namespace

void runPartition(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["partition"];
  const Atoll::RuntimeStats st0 = rt.stats();
  if (st0.partitionSms == 0) {
    auto p = rt.createPipeline(withQuota(2 << 20, 8));
    if (p || p.error().code() != Atoll::ErrorCode::Unsupported)
      res.checkFailed("partition", "a quota without partitions was not Unsupported");
    out["skipped"] = p ? std::string("?") : p.error().describe();
    log("no SM partitions here: %s", p ? "?" : p.error().describe().c_str());
    return;
  }
  const int sms = ctx.gpu ? ctx.gpu->smCount : 132;
  auto bytes = readBitcode(opts, "tenant");
  auto app = take(rt.loadApplication(bytes.data(), bytes.size()), "loading tenant.bc");
  const Atoll::Kernel spin = take(app->kernel("spin"), "spin");
  const Atoll::Kernel hogC = take(app->kernel("hog_compute"), "hog_compute");
  const Atoll::Kernel hogM = take(app->kernel("hog_memory"), "hog_memory");

  // --- creation from the pool, and the pool's start-up cost ---------------------------
  {
    const int n = opts.tiny ? 20 : 2000;
    auto timeCreate = [&](uint32_t quota) {
      std::vector<double> us;
      for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        auto p = take(rt.createPipeline(withQuota(2 << 20, quota)),
                      "createPipeline");
        us.push_back(usBetween(t0, Clock::now()));
      }
      return us;
    };
    (void)timeCreate(8); // the first creates the partition; later ones reuse it
    auto quota = timeCreate(8), plain = timeCreate(0);
    res.row("partition", "create_pipeline", "quota_8_pooled", "p50", percentile(quota, 50), "us");
    res.row("partition", "create_pipeline", "quota_8_pooled", "p99", percentile(quota, 99), "us");
    res.row("partition", "create_pipeline", "no_quota", "p50", percentile(plain, 50), "us");
    res.row("partition", "create_pipeline", "no_quota", "p99", percentile(plain, 99), "us");
    log("createPipeline: 8-SM quota from the pool p50 %.1f us p99 %.1f us; no quota p50 %.1f us",
        percentile(quota, 50), percentile(quota, 99), percentile(plain, 50));
    Atoll::RuntimeOptions ro;
    ro.compileInProcess = true;
    ro.deviceOrdinal = opts.device;
    auto t0 = Clock::now();
    { auto plainRt = take(Atoll::Runtime::create(ro), "a runtime without a pool"); }
    const double plainMs = usBetween(t0, Clock::now()) / 1000;
    ro.partitionPool.assign(16, 8);
    t0 = Clock::now();
    auto pooled = take(Atoll::Runtime::create(ro), "a runtime with a pool of 16 x 8 SMs");
    const double pooledMs = usBetween(t0, Clock::now()) / 1000;
    const Atoll::RuntimeStats ps = pooled->stats();
    res.row("partition", "pool_startup", "16x8", "ms", pooledMs - plainMs, "ms");
    res.row("partition", "pool_startup", "16x8", "created", double(ps.partitionsCreated), "");
    log("pool start-up: %llu partitions of 8 SMs in %.2f ms (runtime %.2f ms, without a pool "
        "%.2f ms)",
        (unsigned long long)ps.partitionsCreated, pooledMs - plainMs, pooledMs, plainMs);
    // How many disjoint 8-SM partitions at once.
    std::vector<std::unique_ptr<Atoll::Pipeline>> held;
    for (int i = 0; i < 200; ++i) {
      auto p = pooled->createPipeline(withQuota(2 << 20, 8));
      if (!p) {
        if (p.error().code() != Atoll::ErrorCode::CapacityExceeded)
          fail("the partition after " + std::to_string(i) + ": " + p.error().describe());
        break;
      }
      held.push_back(std::move(*p));
    }
    res.row("partition", "concurrent", "8_sms", "partitions", double(held.size()), "");
    log("concurrent disjoint partitions of 8 SMs: %zu", held.size());
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "partition: createPipeline with an 8-SM quota p50 %.1f us (target <= 10 us); "
                  "%zu disjoint 8-SM partitions; pool of 16 in %.1f ms",
                  percentile(quota, 50), held.size(), pooledMs - plainMs);
    res.headline(buf);
  }

  // --- single tenant: the cost of partitioning ----------------------------------------
  {
    const int launches = opts.tiny ? 5 : 200;
    const uint32_t grid = uint32_t(sms) * 8;
    auto rate = [&](uint32_t quota) {
      auto p = take(rt.createPipeline(withQuota(16 << 20, quota)),
                    "the single-tenant pipeline");
      Atoll::Buffer b = take(p->allocate(uint64_t(grid) * 256 * 4), "allocate");
      check(p->launch(spin, {Atoll::Dim3(grid), Atoll::Dim3(256)}, b, 4096), "warm-up");
      check(p->synchronize(), "warm-up");
      const auto t0 = Clock::now();
      for (int i = 0; i < launches; ++i)
        check(p->launch(spin, {Atoll::Dim3(grid), Atoll::Dim3(256)}, b, 4096), "launch");
      check(p->synchronize(), "synchronize");
      return double(launches) / secondsSince(t0);
    };
    const double whole = rate(0), all = rate(st0.partitionSms), half = rate(64);
    res.row("partition", "single_tenant", "whole_device", "kernels_per_s", whole, "1/s");
    res.row("partition", "single_tenant", "partition_all_sms", "ratio", all / whole, "x");
    res.row("partition", "single_tenant", "partition_64_sms", "ratio", half / whole, "x");
    log("single tenant, grid-filling spin: whole device %.0f kernels/s; in a partition of all "
        "%u SMs %.3fx; in 64 SMs %.3fx",
        whole, st0.partitionSms, all / whole, half / whole);
  }

  // --- victim next to a hog -------------------------------------------------------------
  const int alone = opts.tiny ? 20 : 2000, partitioned = opts.tiny ? 20 : 1000,
            shared = opts.tiny ? 5 : 100;
  const uint64_t hogBytes = opts.tiny ? (1 << 20) : (256ull << 20);
  auto victimIn = [&](uint32_t quota) {
    auto v = take(rt.createPipeline(withQuota(2 << 20, quota, "victim", std::chrono::seconds(60))),
                  "the victim pipeline");
    return v;
  };
  auto record = [&](const std::string &variant, const Victim &v, const Victim &base) {
    res.row("partition", "victim", variant, "p50", v.p50, "us");
    res.row("partition", "victim", variant, "p99", v.p99, "us");
    res.row("partition", "victim", variant, "kernels_per_s", v.perSec, "1/s");
    res.row("partition", "victim", variant, "p99_vs_alone", v.p99 / base.p99, "x");
    log("victim %-24s p50 %9.1f us  p99 %9.1f us  %8.0f kernels/s  p99 %.2fx of alone",
        variant.c_str(), v.p50, v.p99, v.perSec, v.p99 / base.p99);
  };
  Victim baseWhole, basePart;
  {
    auto v = victimIn(0);
    Atoll::Buffer b = take(v->allocate(4 * 128 * 4), "allocate");
    (void)measureVictim(*v, spin, b, 20);
    baseWhole = measureVictim(*v, spin, b, alone);
    record("alone", baseWhole, baseWhole);
    auto vp = victimIn(64);
    Atoll::Buffer bp = take(vp->allocate(4 * 128 * 4), "allocate");
    (void)measureVictim(*vp, spin, bp, 20);
    basePart = measureVictim(*vp, spin, bp, alone);
    record("alone_partition_64", basePart, baseWhole);
  }
  char line[300] = {};
  std::string summary = "partition: victim p99 vs alone:";
  for (const char *hogName : {"compute", "memory"}) {
    const bool compute = std::string(hogName) == "compute";
    for (bool parts : {false, true}) {
      const uint32_t quota = parts ? 64 : 0;
      const uint64_t hogArena =
          compute ? (64ull << 20) : std::max<uint64_t>(4 * hogBytes, 4 << 20);
      auto hp = take(rt.createPipeline(withQuota(hogArena, quota, "hog", std::chrono::seconds(60))),
                     "the hog pipeline");
      Hog hog;
      if (compute) {
        const uint32_t grid = uint32_t(sms) * 32;
        Atoll::Buffer o = take(hp->allocate(uint64_t(grid) * 256 * 4), "allocate");
        hog.start(*hp, hogC, {Atoll::Dim3(grid), Atoll::Dim3(256)},
                  {Atoll::Arg::buffer(o), Atoll::Arg::u64(opts.tiny ? 50'000 : 2'000'000)});
      } else {
        Atoll::Buffer in = take(hp->allocate(hogBytes), "allocate");
        Atoll::Buffer o = take(hp->allocate(hogBytes), "allocate");
        hog.start(*hp, hogM, {Atoll::Dim3(uint32_t(sms) * 8), Atoll::Dim3(256)},
                  {Atoll::Arg::buffer(in), Atoll::Arg::buffer(o), Atoll::Arg::u64(hogBytes / 16),
                   Atoll::Arg::i32(4)});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(opts.tiny ? 5 : 50));
      auto v = victimIn(quota);
      Atoll::Buffer b = take(v->allocate(4 * 128 * 4), "allocate");
      Victim r = measureVictim(*v, spin, b, parts ? partitioned : shared);
      hog.finish();
      if (!hog.error.empty())
        fail(std::string("the ") + hogName + " hog: " + hog.error);
      const std::string variant =
          std::string(hogName) + "_hog_" + (parts ? "partitioned_64_64" : "shared");
      record(variant, r, parts ? basePart : baseWhole);
      res.row("partition", "hog", variant, "kernels", double(hog.kernels.load()), "");
      std::snprintf(line, sizeof line, " %s hog %s %.2fx", hogName,
                    parts ? "partitioned" : "shared", r.p99 / (parts ? basePart : baseWhole).p99);
      summary += line;
    }
  }
  res.headline(summary + " (target: compute hog partitioned <= 1.05x)");
}

} // namespace atoll_bench
