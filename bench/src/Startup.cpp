// Section "startup": what a new tenant costs.
//
//   pipeline creation   Runtime::createPipeline (stream + 64 MiB arena): pooled (the
//                       arena recycled from the pool), the first creation of a fresh
//                       runtime (a new arena), and with the pool disabled
//                       (RuntimeOptions::poolArenas = false); also "ready" (creation +
//                       synchronize: the arena's scrub has finished) and destruction
//   context             cuCtxCreate and cuCtxDestroy (what a context per tenant costs)
//   first result        a new tenant until its first kernel result is on the host:
//                       AToLL: createPipeline + loadApplication (cached) + allocate +
//                       launch + synchronize + copyToHost;
//                       context: cuCtxCreate + cuModuleLoadData (native PTX) + cuMemAlloc +
//                       cuLaunchKernel + cuCtxSynchronize + cuMemcpyDtoH.
// Medians over >= 50 iterations (10 for the ~115 ms context paths; fewer in --quick).
#include "Bench.h"

#include <algorithm>
#include <cmath>

namespace atoll_bench {
namespace {

struct PipelineTimes {
  std::vector<double> create, ready, destroy;
  int fromPool = 0;
};

void createLoop(Atoll::Runtime &rt, int iterations, PipelineTimes &t, const Budget &budget) {
  Atoll::PipelineOptions po;
  po.arenaBytes = 64ull << 20;
  po.name = "bench-startup";
  for (int i = 0; i < iterations; ++i) {
    if (i >= 10 && budget.spent())
      break;
    auto t0 = Clock::now();
    auto p = take(rt.createPipeline(po), "createPipeline");
    auto t1 = Clock::now();
    check(p->synchronize(), "synchronize");
    auto t2 = Clock::now();
    t.fromPool += p->stats().arenaFromPool;
    p.reset();
    auto t3 = Clock::now();
    t.create.push_back(usBetween(t0, t1));
    t.ready.push_back(usBetween(t0, t2));
    t.destroy.push_back(usBetween(t2, t3));
  }
}

Json timesJson(const PipelineTimes &t) {
  Json j = Json::object();
  j["create_us"] = summary(t.create);
  j["create_and_ready_us"] = summary(t.ready);
  j["destroy_us"] = summary(t.destroy);
  j["arenas_from_pool"] = t.fromPool;
  return j;
}

} // namespace

void runStartup(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Json &out = res.root["sections"]["startup"];
  Budget budget{Clock::now(), opts.quick ? 10.0 : 25.0};
  const int pooledIters = opts.tiny ? 10 : opts.quick ? 50 : 200;
  const int unpooledIters = opts.tiny ? 3 : opts.quick ? 20 : 50;
  const int contextIters = opts.tiny ? 2 : opts.quick ? 3 : 10;
  const int firstResultIters = opts.tiny ? 5 : opts.quick ? 20 : 50;

  auto bytes = readBitcode(opts, "tenant");
  const EmbeddedPtx &native = nativePtxFor("tenant", bytes);

  // --- pipeline creation -----------------------------------------------------------
  Atoll::RuntimeOptions ro;
  ro.deviceOrdinal = opts.device;
  auto pooled = take(Atoll::Runtime::create(ro), "creating a runtime (pooled)");
  PipelineTimes first, pool, unpool;
  createLoop(*pooled, 1, first, budget); // a fresh runtime: the first arena is new
  createLoop(*pooled, pooledIters, pool, budget);
  ro.poolArenas = false;
  {
    auto unpooledRt = take(Atoll::Runtime::create(ro), "creating a runtime (no pool)");
    createLoop(*unpooledRt, unpooledIters, unpool, budget);
  }
  out["pipeline"]["first_creation"] = timesJson(first);
  out["pipeline"]["pooled"] = timesJson(pool);
  out["pipeline"]["unpooled"] = timesJson(unpool);
  if (pool.fromPool < int(pool.create.size()))
    res.error("startup", "only " + std::to_string(pool.fromPool) + " of " +
                             std::to_string(pool.create.size()) +
                             " pooled creations got their arena from the pool");
  log("%-34s %10s %10s %10s", "pipeline (64 MiB arena)", "create us", "+ready us", "destroy us");
  auto show = [&](const char *what, const char *id, const PipelineTimes &t) {
    log("%-34s %10.1f %10.1f %10.1f", what, median(t.create), median(t.ready), median(t.destroy));
    res.row("startup", "pipeline", id, "create_us", median(t.create), "us");
    res.row("startup", "pipeline", id, "create_and_ready_us", median(t.ready), "us");
    res.row("startup", "pipeline", id, "destroy_us", median(t.destroy), "us");
  };
  show("pooled (median)", "pooled", pool);
  show("first of a runtime (1 sample)", "first", first);
  show("pool disabled (median)", "unpooled", unpool);

  // --- context creation --------------------------------------------------------------
  std::vector<double> ctxCreate, ctxDestroy;
  for (int i = 0; i < contextIters; ++i) {
    if (i >= 3 && budget.spent())
      break;
    CUcontext c = nullptr;
    auto t0 = Clock::now();
    CU(gpu, cuCtxCreate(&c, nullptr, 0, gpu.dev));
    auto t1 = Clock::now();
    CU(gpu, cuCtxDestroy(c));
    auto t2 = Clock::now();
    ctxCreate.push_back(usBetween(t0, t1));
    ctxDestroy.push_back(usBetween(t1, t2));
  }
  gpu.makeCurrent();
  out["context"]["create_us"] = summary(ctxCreate);
  out["context"]["destroy_us"] = summary(ctxDestroy);
  log("%-34s %10.1f %10s %10.1f", "cuCtxCreate / cuCtxDestroy", median(ctxCreate), "",
      median(ctxDestroy));
  res.row("startup", "context", "cuCtxCreate", "create_us", median(ctxCreate), "us");
  res.row("startup", "context", "cuCtxDestroy", "destroy_us", median(ctxDestroy), "us");

  // --- new tenant to first result: AToLL ------------------------------------------------
  std::vector<double> aTotal, aCreate, aLoad, aLaunch, aResult;
  {
    auto app0 = take(pooled->loadApplication(bytes.data(), bytes.size()), "loading tenant.bc");
    Atoll::PipelineOptions po;
    po.arenaBytes = 64ull << 20;
    for (int i = 0; i < firstResultIters; ++i) {
      if (i >= 10 && budget.spent())
        break;
      const int value = 1000 + i;
      int host[32] = {};
      auto t0 = Clock::now();
      auto p = take(pooled->createPipeline(po), "createPipeline");
      auto t1 = Clock::now();
      auto app = take(pooled->loadApplication(bytes.data(), bytes.size()), "loadApplication");
      auto t2 = Clock::now();
      Atoll::Buffer b = take(p->allocate(sizeof host), "allocate");
      check(p->launch(*app, "first_result", {Atoll::Dim3(1), Atoll::Dim3(32)}, b, value),
            "launch first_result");
      auto t3 = Clock::now();
      check(p->synchronize(), "synchronize");
      check(p->copyToHost(host, b, 0, sizeof host), "copyToHost");
      auto t4 = Clock::now();
      for (int k = 0; k < 32; ++k)
        if (host[k] != value + k) {
          res.checkFailed("startup", "AToLL first_result: wrong value at " + std::to_string(k));
          break;
        }
      if (app->origin() != Atoll::Application::Origin::MemoryCache)
        res.error("startup", "the tenant application was not a cache hit");
      aTotal.push_back(usBetween(t0, t4));
      aCreate.push_back(usBetween(t0, t1));
      aLoad.push_back(usBetween(t1, t2));
      aLaunch.push_back(usBetween(t2, t3));
      aResult.push_back(usBetween(t3, t4));
    }
  }
  Json &fa = out["first_result"]["atoll"];
  fa["total_us"] = summary(aTotal);
  fa["create_pipeline_us"] = median(aCreate);
  fa["load_cached_app_us"] = median(aLoad);
  fa["allocate_and_launch_us"] = median(aLaunch);
  fa["sync_and_read_us"] = median(aResult);

  // --- new tenant to first result: a context per tenant ---------------------------------
  std::vector<double> cTotal, cCreate, cModule, cLaunch, cResult, cDestroy;
  for (int i = 0; i < contextIters; ++i) {
    if (i >= 3 && budget.spent())
      break;
    const int value = 2000 + i;
    int host[32] = {};
    CUcontext c = nullptr;
    auto t0 = Clock::now();
    CU(gpu, cuCtxCreate(&c, nullptr, 0, gpu.dev));
    auto t1 = Clock::now();
    CUfunction fn = nullptr;
    double destroyUs = 0;
    {
      PtxModule mod(gpu, native.ptx, "tenant (native, own context)");
      fn = mod.function("first_result");
      auto t2 = Clock::now();
      CUdeviceptr d = 0;
      CU(gpu, cuMemAlloc(&d, sizeof host));
      int v = value;
      void *params[] = {&d, &v};
      CU(gpu, cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
      auto t3 = Clock::now();
      CU(gpu, cuCtxSynchronize());
      CU(gpu, cuMemcpyDtoH(host, d, sizeof host));
      auto t4 = Clock::now();
      for (int k = 0; k < 32; ++k)
        if (host[k] != value + k) {
          res.checkFailed("startup", "context first_result: wrong value at " + std::to_string(k));
          break;
        }
      cTotal.push_back(usBetween(t0, t4));
      cCreate.push_back(usBetween(t0, t1));
      cModule.push_back(usBetween(t1, t2));
      cLaunch.push_back(usBetween(t2, t3));
      cResult.push_back(usBetween(t3, t4));
      gpu.api->cuMemFree(d);
    } // module unloaded in its context
    auto t5 = Clock::now();
    CU(gpu, cuCtxDestroy(c));
    destroyUs = usBetween(t5, Clock::now());
    cDestroy.push_back(destroyUs);
  }
  gpu.makeCurrent();
  Json &fc = out["first_result"]["context"];
  fc["total_us"] = summary(cTotal);
  fc["create_context_us"] = median(cCreate);
  fc["load_module_us"] = median(cModule);
  fc["allocate_and_launch_us"] = median(cLaunch);
  fc["sync_and_read_us"] = median(cResult);
  fc["destroy_context_us"] = median(cDestroy);

  log("%-34s %10s %10s %10s %10s %10s", "new tenant -> first result", "total us", "setup us",
      "load us", "launch us", "result us");
  log("%-34s %10.1f %10.1f %10.1f %10.1f %10.1f", "AToLL pipeline", median(aTotal),
      median(aCreate), median(aLoad), median(aLaunch), median(aResult));
  log("%-34s %10.1f %10.1f %10.1f %10.1f %10.1f", "own context", median(cTotal), median(cCreate),
      median(cModule), median(cLaunch), median(cResult));
  res.row("startup", "first_result", "atoll", "total_us", median(aTotal), "us");
  res.row("startup", "first_result", "context", "total_us", median(cTotal), "us");

  const double pooledUs = median(pool.create);
  const double ctxUs = median(ctxCreate);
  const double speedup = ctxUs / pooledUs;
  const double firstSpeedup = median(cTotal) / median(aTotal);
  Json &t = out["targets"];
  t["pooled_create_max_us"] = 200;
  t["min_speedup_vs_context"] = 500;
  t["pooled_create_us"] = pooledUs;
  t["speedup_vs_context"] = speedup;
  t["first_result_speedup"] = firstSpeedup;
  t["pass"] = pooledUs <= 200 && speedup >= 500;
  res.row("startup", "pipeline", "pooled-vs-context", "speedup", speedup, "x");
  res.row("startup", "first_result", "atoll-vs-context", "speedup", firstSpeedup, "x");
  char line[400];
  std::snprintf(line, sizeof line,
                "startup: pipeline creation pooled %.1f us (unpooled %.1f us), cuCtxCreate %.1f ms "
                "-> %.0fx [target <= 200 us, >= 500x: %s]; first result %.1f us vs %.1f ms with a "
                "context (%.0fx)",
                pooledUs, median(unpool.create), ctxUs / 1000, speedup,
                pooledUs <= 200 && speedup >= 500 ? "PASS" : "FAIL", median(aTotal),
                median(cTotal) / 1000, firstSpeedup);
  res.headline(line);
}

} // namespace atoll_bench
