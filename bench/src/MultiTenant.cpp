// Section "multitenant": N tenants (1, 2, 4, 8, 16), each submitting a stream of
// small kernels (tenant.cu: spin, 16 blocks x 128 threads, calibrated to ~10 us),
// synchronising every K launches.
//
//   atoll      one process, one shared context, one AToLL pipeline per tenant, one
//              thread per tenant, hardened kernels (mask-based) via Pipeline::launch
//              and Pipeline::synchronize;
//   processes  one process per tenant (this binary re-executed with
//              --tenant-process), each with its own CUDA context (cuCtxCreate), native
//              kernels via cuLaunchKernel and cuStreamSynchronize.
// All tenants get ready (context/pipeline, module, buffer, warm-up) and then start at
// one signal (a barrier; a pipe byte for the processes). Aggregate throughput =
// all launches / (last end - first start), with steady_clock (CLOCK_MONOTONIC, the
// same clock in every process). Per-launch latency = completion of its batch (the
// synchronisation returned) - its enqueue time; p99 per tenant.
#include "Bench.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace atoll_bench {
namespace {

constexpr int kGrid = 16, kBlock = 128;

struct TenantResult {
  int64_t startNs = 0, endNs = 0;
  int launches = 0;
  double p50Us = NAN, p99Us = NAN, maxUs = NAN;
  std::string error;
};

void latencyStats(std::vector<double> &lat, TenantResult &r) {
  r.p50Us = percentile(lat, 50);
  r.p99Us = percentile(lat, 99);
  r.maxUs = lat.empty() ? NAN : *std::max_element(lat.begin(), lat.end());
}

struct Aggregate {
  double kernelsPerSec = NAN, p99Median = NAN, p99Max = NAN, p50Median = NAN, wallMs = NAN;
  int tenants = 0, ok = 0;
  std::string error;
};

Aggregate aggregate(const std::vector<TenantResult> &rs) {
  Aggregate a;
  a.tenants = int(rs.size());
  int64_t first = INT64_MAX, last = INT64_MIN;
  long total = 0;
  std::vector<double> p99, p50;
  for (const auto &r : rs) {
    if (!r.error.empty()) {
      a.error += (a.error.empty() ? "" : "; ") + r.error;
      continue;
    }
    a.ok++;
    first = std::min(first, r.startNs);
    last = std::max(last, r.endNs);
    total += r.launches;
    p99.push_back(r.p99Us);
    p50.push_back(r.p50Us);
  }
  if (a.ok && last > first) {
    a.wallMs = double(last - first) / 1e6;
    a.kernelsPerSec = double(total) / (double(last - first) / 1e9);
    a.p99Median = median(p99);
    a.p99Max = *std::max_element(p99.begin(), p99.end());
    a.p50Median = median(p50);
  }
  return a;
}

Json aggregateJson(const Aggregate &a, const std::vector<TenantResult> &rs) {
  Json j = Json::object();
  j["kernels_per_s"] = a.kernelsPerSec;
  j["wall_ms"] = a.wallMs;
  j["p99_us_median_of_tenants"] = a.p99Median;
  j["p99_us_max_of_tenants"] = a.p99Max;
  j["p50_us_median_of_tenants"] = a.p50Median;
  j["tenants_ok"] = a.ok;
  Json per = Json::array();
  for (const auto &r : rs) {
    Json t = Json::object();
    if (!r.error.empty()) {
      t["error"] = r.error;
    } else {
      t["launches"] = r.launches;
      t["ms"] = double(r.endNs - r.startNs) / 1e6;
      t["p50_us"] = r.p50Us;
      t["p99_us"] = r.p99Us;
      t["max_us"] = r.maxUs;
    }
    per.push_back(std::move(t));
  }
  j["per_tenant"] = std::move(per);
  if (!a.error.empty())
    j["error"] = a.error;
  return j;
}

// --- AToLL: pipelines in one context, one thread per tenant ---------------------------------

std::vector<TenantResult> runAtoll(Atoll::Runtime &rt, const Atoll::Kernel &kernel, int tenants,
                                   int launches, int batch, int iters) {
  std::vector<std::unique_ptr<Atoll::Pipeline>> pipes;
  std::vector<Atoll::Buffer> bufs;
  for (int t = 0; t < tenants; ++t) {
    Atoll::PipelineOptions po;
    po.name = "tenant-" + std::to_string(t);
    pipes.push_back(take(rt.createPipeline(po), "creating pipeline " + po.name));
    bufs.push_back(take(pipes.back()->allocate(kGrid * kBlock * 4), "allocate"));
  }
  std::vector<TenantResult> results(static_cast<size_t>(tenants));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  const Atoll::LaunchConfig cfg{Atoll::Dim3(kGrid), Atoll::Dim3(kBlock), 0};
  auto body = [&](int t) {
    TenantResult &r = results[size_t(t)];
    Atoll::Pipeline &p = *pipes[size_t(t)];
    try {
      for (int i = 0; i < 5; ++i)
        check(p.launch(kernel, cfg, bufs[size_t(t)], iters), "warm-up launch");
      check(p.synchronize(), "warm-up synchronize");
    } catch (const std::exception &e) {
      r.error = e.what();
    }
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire))
      std::this_thread::yield();
    if (!r.error.empty())
      return;
    std::vector<double> lat;
    lat.reserve(size_t(launches));
    std::vector<int64_t> enq(static_cast<size_t>(batch));
    try {
      r.startNs = nowNs();
      for (int done = 0; done < launches;) {
        int k = std::min(batch, launches - done);
        for (int i = 0; i < k; ++i) {
          enq[size_t(i)] = nowNs();
          check(p.launch(kernel, cfg, bufs[size_t(t)], iters), "launch");
        }
        check(p.synchronize(), "synchronize");
        int64_t end = nowNs();
        for (int i = 0; i < k; ++i)
          lat.push_back(double(end - enq[size_t(i)]) / 1e3);
        done += k;
      }
      r.endNs = nowNs();
      r.launches = launches;
      latencyStats(lat, r);
    } catch (const std::exception &e) {
      r.error = e.what();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < tenants; ++t)
    threads.emplace_back(body, t);
  while (ready.load() < tenants)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  go.store(true, std::memory_order_release);
  for (auto &th : threads)
    th.join();
  return results;
}

// --- processes: one context per tenant ------------------------------------------------------

struct Child {
  pid_t pid = -1;
  int out = -1; // read end of the child's stdout
  std::string buffer;
  bool ready = false, finished = false;
  TenantResult result;
};

/// Reads what is available from every child until `done(child)` holds for all, or the
/// deadline passes. False on timeout.
template <typename Pred>
bool pump(std::vector<Child> &children, Clock::time_point deadline, Pred done) {
  for (;;) {
    bool all = true;
    std::vector<pollfd> fds;
    std::vector<Child *> who;
    for (auto &c : children) {
      if (done(c))
        continue;
      all = false;
      if (c.out >= 0) {
        fds.push_back({c.out, POLLIN, 0});
        who.push_back(&c);
      }
    }
    if (all)
      return true;
    if (Clock::now() >= deadline)
      return false;
    if (fds.empty()) // a child closed its output without saying what we wait for
      return true;
    int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                     .count());
    int n = poll(fds.data(), fds.size(), std::clamp(ms, 1, 200));
    if (n < 0 && errno != EINTR)
      return false;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      Child &c = *who[i];
      char buf[4096];
      ssize_t got = read(c.out, buf, sizeof buf);
      if (got <= 0) {
        close(c.out);
        c.out = -1;
        if (!c.finished && c.result.error.empty())
          c.result.error = "tenant process " + std::to_string(c.pid) + " exited without a result";
        c.finished = true;
        c.ready = true;
        continue;
      }
      c.buffer.append(buf, size_t(got));
      size_t nl;
      while ((nl = c.buffer.find('\n')) != std::string::npos) {
        std::string line = c.buffer.substr(0, nl);
        c.buffer.erase(0, nl + 1);
        std::istringstream ss(line);
        std::string tag;
        ss >> tag;
        if (tag == "READY") {
          c.ready = true;
        } else if (tag == "RESULT") {
          TenantResult &r = c.result;
          ss >> r.startNs >> r.endNs >> r.launches >> r.p50Us >> r.p99Us >> r.maxUs;
          if (!ss)
            r.error = "malformed result line: " + line;
          c.finished = true;
        } else if (tag == "ERROR") {
          c.result.error = line.substr(6);
          c.ready = c.finished = true;
        }
      }
    }
  }
}

std::vector<TenantResult> runProcesses(const Options &opts, int tenants, int launches, int batch,
                                       int iters, std::string &error) {
  std::vector<Child> children(static_cast<size_t>(tenants));
  int go[2];
  if (pipe2(go, O_CLOEXEC) != 0)
    fail("pipe2 failed");
  const std::string sL = std::to_string(launches), sK = std::to_string(batch),
                    sI = std::to_string(iters), sG = std::to_string(kGrid),
                    sB = std::to_string(kBlock), sD = std::to_string(opts.device);
  for (auto &c : children) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
      fail("pipe2 failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, go[0], 0);
    const char *argv[] = {opts.exePath.c_str(), "--tenant-process", "--launches", sL.c_str(),
                          "--batch", sK.c_str(), "--iters", sI.c_str(), "--grid", sG.c_str(),
                          "--block", sB.c_str(), "--device", sD.c_str(), nullptr};
    int rc = posix_spawn(&c.pid, opts.exePath.c_str(), &fa, nullptr, const_cast<char **>(argv),
                         environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (rc != 0) {
      close(out[0]);
      c.pid = -1;
      c.result.error = std::string("posix_spawn failed: ") + std::strerror(rc);
      c.ready = c.finished = true;
      continue;
    }
    c.out = out[0];
  }
  close(go[0]);

  auto killAll = [&] {
    for (auto &c : children)
      if (c.pid > 0)
        kill(c.pid, SIGKILL);
  };
  // Ready: context, module, buffer, warm-up (16 contexts may take seconds).
  if (!pump(children, Clock::now() + std::chrono::seconds(90), [](const Child &c) {
        return c.ready;
      })) {
    error = "tenant processes did not get ready within 90 s";
    killAll();
  } else {
    // Go: one byte per child.
    std::string bytes(size_t(tenants), 'g');
    if (write(go[1], bytes.data(), bytes.size()) != ssize_t(bytes.size()))
      error = "could not start the tenant processes";
    if (!pump(children, Clock::now() + std::chrono::seconds(120),
              [](const Child &c) { return c.finished; })) {
      error = "tenant processes did not finish within 120 s";
      killAll();
    }
  }
  close(go[1]);
  for (auto &c : children) {
    if (c.out >= 0)
      close(c.out);
    if (c.pid > 0) {
      // Bounded wait: a child that does not exit within 30 s is killed.
      auto deadline = Clock::now() + std::chrono::seconds(30);
      int status = 0;
      while (waitpid(c.pid, &status, WNOHANG) == 0) {
        if (Clock::now() > deadline) {
          kill(c.pid, SIGKILL);
          waitpid(c.pid, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      if (c.result.error.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        c.result.error = "tenant process exited with status " + std::to_string(status);
    }
  }
  std::vector<TenantResult> rs;
  for (auto &c : children) {
    if (!c.finished && c.result.error.empty())
      c.result.error = "no result";
    rs.push_back(c.result);
  }
  return rs;
}

} // namespace

// --- the child process ----------------------------------------------------------------------

int runTenantProcess(const Options &opts) {
  auto say = [](const std::string &line) {
    std::string s = line + "\n";
    (void)!write(1, s.data(), s.size());
  };
  try {
    if (opts.tenantLaunches <= 0 || opts.tenantBatch <= 0 || opts.tenantIters <= 0 ||
        opts.tenantGrid <= 0 || opts.tenantBlock <= 0)
      fail("--tenant-process needs --launches, --batch, --iters, --grid and --block");
    auto driver = Atoll::cuda::loadDriver();
    if (!driver.ok())
      fail(driver.error().describe());
    Gpu gpu;
    gpu.api = *driver;
    CU(gpu, cuDeviceGet(&gpu.dev, opts.device));
    CUcontext ctx = nullptr;
    CU(gpu, cuCtxCreate(&ctx, nullptr, 0, gpu.dev)); // its own context, current now
    gpu.primary = ctx;
    const EmbeddedPtx *e = findEmbeddedPtx("tenant");
    if (!e)
      fail("no embedded PTX for tenant");
    TenantResult r;
    {
      PtxModule mod(gpu, e->ptx, "tenant (native)");
      CUfunction fn = mod.function("spin");
      CUstream s = nullptr;
      CU(gpu, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
      CUdeviceptr buf = 0;
      CU(gpu, cuMemAlloc(&buf, size_t(opts.tenantGrid) * opts.tenantBlock * 4));
      int iters = opts.tenantIters;
      void *params[] = {&buf, &iters};
      auto launch = [&] {
        CU(gpu, cuLaunchKernel(fn, unsigned(opts.tenantGrid), 1, 1, unsigned(opts.tenantBlock), 1,
                               1, 0, s, params, nullptr));
      };
      for (int i = 0; i < 5; ++i)
        launch();
      CU(gpu, cuStreamSynchronize(s));
      say("READY");
      char c;
      if (read(0, &c, 1) != 1)
        return 4; // the parent went away
      std::vector<double> lat;
      lat.reserve(size_t(opts.tenantLaunches));
      std::vector<int64_t> enq(static_cast<size_t>(opts.tenantBatch));
      r.startNs = nowNs();
      for (int done = 0; done < opts.tenantLaunches;) {
        int k = std::min(opts.tenantBatch, opts.tenantLaunches - done);
        for (int i = 0; i < k; ++i) {
          enq[size_t(i)] = nowNs();
          launch();
        }
        CU(gpu, cuStreamSynchronize(s));
        int64_t end = nowNs();
        for (int i = 0; i < k; ++i)
          lat.push_back(double(end - enq[size_t(i)]) / 1e3);
        done += k;
      }
      r.endNs = nowNs();
      r.launches = opts.tenantLaunches;
      latencyStats(lat, r);
      gpu.api->cuMemFree(buf);
      gpu.api->cuStreamDestroy(s);
    }
    char line[256];
    std::snprintf(line, sizeof line, "RESULT %lld %lld %d %.3f %.3f %.3f", (long long)r.startNs,
                  (long long)r.endNs, r.launches, r.p50Us, r.p99Us, r.maxUs);
    say(line);
    gpu.api->cuCtxDestroy(ctx);
    return 0;
  } catch (const std::exception &e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    say("ERROR " + msg);
    return 1;
  }
}

// --- the section ----------------------------------------------------------------------------

void runMultiTenant(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["multitenant"];
  Budget budget{Clock::now(), opts.quick ? 25.0 : 70.0};
  const int launches = opts.tiny ? 100 : opts.quick ? 500 : 2000;
  const int batch = 50;
  const int tenantCounts[] = {1, 2, 4, 8, 16};

  auto bytes = readBitcode(opts, "tenant");
  const EmbeddedPtx &native = nativePtxFor("tenant", bytes);
  auto app = take(rt.loadApplication(bytes.data(), bytes.size()), "loading tenant.bc");
  Atoll::Kernel kernel = take(app->kernel("spin"), "kernel spin");

  // Calibrate `iters` so that one native spin kernel takes ~10 us on an idle GPU.
  int iters = 2000;
  double kernelUs = NAN;
  {
    gpu.makeCurrent();
    PtxModule mod(gpu, native.ptx, "tenant (native)");
    CUfunction fn = mod.function("spin");
    CUstream s = nullptr;
    CU(gpu, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr buf = 0;
    CU(gpu, cuMemAlloc(&buf, kGrid * kBlock * 4));
    EventTimer timer(gpu);
    auto timeOne = [&](int it) {
      void *params[] = {&buf, &it};
      std::vector<double> v;
      for (int i = 0; i < 7; ++i) {
        timer.start(s);
        CU(gpu, cuLaunchKernel(fn, kGrid, 1, 1, kBlock, 1, 1, 0, s, params, nullptr));
        v.push_back(timer.stopMs(s) * 1000);
      }
      return median(v);
    };
    for (int round = 0; round < 3; ++round) {
      double us = timeOne(iters);
      if (us > 0)
        iters = std::clamp(int(double(iters) * 10.0 / us), 50, 1 << 22);
    }
    kernelUs = timeOne(iters);
    gpu.api->cuMemFree(buf);
    gpu.api->cuStreamDestroy(s);
  }
  out["kernel"] = "spin";
  out["grid"] = kGrid;
  out["block"] = kBlock;
  out["iters"] = iters;
  out["kernel_us_native_idle"] = kernelUs;
  out["launches_per_tenant"] = launches;
  out["batch"] = batch;
  log("spin kernel: %d iterations = %.1f us (native, idle GPU); %d launches per tenant, sync "
      "every %d",
      iters, kernelUs, launches, batch);

  log("%-8s | %14s %10s %10s | %14s %10s %10s | %8s", "tenants", "atoll k/s", "p50 us", "p99 us",
      "procs k/s", "p50 us", "p99 us", "speedup");
  double atoll16 = NAN, procs16 = NAN, p99a16 = NAN, p99p16 = NAN;
  for (int n : tenantCounts) {
    if (budget.spent()) {
      res.error("multitenant", "time budget spent: skipped N >= " + std::to_string(n));
      break;
    }
    Json row = Json::object();
    row["tenants"] = n;
    Aggregate a, p;
    try {
      auto rs = runAtoll(rt, kernel, n, launches, batch, iters);
      a = aggregate(rs);
      row["atoll"] = aggregateJson(a, rs);
      if (!a.error.empty())
        res.error("multitenant", "atoll N=" + std::to_string(n) + ": " + a.error);
    } catch (const std::exception &e) {
      row["atoll"]["error"] = e.what();
      res.error("multitenant", "atoll N=" + std::to_string(n) + ": " + e.what());
    }
    gpu.makeCurrent();
    try {
      std::string err;
      auto rs = runProcesses(opts, n, launches, batch, iters, err);
      p = aggregate(rs);
      row["processes"] = aggregateJson(p, rs);
      if (!err.empty() || !p.error.empty())
        res.error("multitenant", "processes N=" + std::to_string(n) + ": " + err +
                                     (err.empty() ? "" : "; ") + p.error);
    } catch (const std::exception &e) {
      row["processes"]["error"] = e.what();
      res.error("multitenant", "processes N=" + std::to_string(n) + ": " + e.what());
    }
    const double speedup = a.kernelsPerSec / p.kernelsPerSec;
    row["throughput_ratio_atoll_over_processes"] = speedup;
    log("%-8d | %14.0f %10.1f %10.1f | %14.0f %10.1f %10.1f | %7.2fx", n, a.kernelsPerSec,
        a.p50Median, a.p99Median, p.kernelsPerSec, p.p50Median, p.p99Median, speedup);
    const std::string item = "N=" + std::to_string(n);
    res.row("multitenant", item, "atoll", "kernels_per_s", a.kernelsPerSec, "1/s");
    res.row("multitenant", item, "atoll", "p99_us_median_of_tenants", a.p99Median, "us");
    res.row("multitenant", item, "atoll", "p99_us_max_of_tenants", a.p99Max, "us");
    res.row("multitenant", item, "processes", "kernels_per_s", p.kernelsPerSec, "1/s");
    res.row("multitenant", item, "processes", "p99_us_median_of_tenants", p.p99Median, "us");
    res.row("multitenant", item, "processes", "p99_us_max_of_tenants", p.p99Max, "us");
    out["results"].push_back(std::move(row));
    if (n == 16) {
      atoll16 = a.kernelsPerSec;
      procs16 = p.kernelsPerSec;
      p99a16 = a.p99Median;
      p99p16 = p.p99Median;
    }
    res.write(opts.outDir);
  }
  char line[300];
  std::snprintf(line, sizeof line,
                "multitenant (16 tenants): AToLL %.0f kernels/s (p99 %.0f us) vs a process+context "
                "per tenant %.0f kernels/s (p99 %.0f us): %.2fx",
                atoll16, p99a16, procs16, p99p16, atoll16 / procs16);
  res.headline(line);
}

} // namespace atoll_bench
