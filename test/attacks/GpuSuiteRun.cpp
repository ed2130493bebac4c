// GPU mode of atoll-attacks: the run's phases (controls, attacks, timeouts, the
// concurrent phase) and its entry point runGpu (see GpuSuite.h).
#include "GpuGate.h"
#include "GpuSuite.h"

namespace AtollAttacks {
namespace gpu {

int Suite::run() {
  const DeviceInfo &d = rt_.device();
  report_.set("mode", "gpu");
  report_.set("device", d.name + " (sm_" + std::to_string(d.computeMajor) +
                            std::to_string(d.computeMinor) + ", driver " +
                            std::to_string(d.driverVersion) + ", " +
                            std::to_string(d.totalMemory >> 30) + " GiB)");
  report_.set("target", d.targetArch + (d.ptxVersion.empty() ? "" : " " + d.ptxVersion));
  report_.set("bitcode", o_.bitcodeDir);

  // The benign module first: it provides the victim's health check.
  LoadedApp &controlsMask = load("controls", Clamping::MaskBased, 2);
  if (!controlsMask.app) {
    std::fprintf(stderr, "atoll-attacks: the controls module does not load: %s\n",
                 controlsMask.error->describe().c_str());
    return 1;
  }
  std::string err;
  victim_ = makeVictim(rt_, *controlsMask.app, "victim", milliseconds(o_.timeoutMs), err);
  if (!victim_) {
    std::fprintf(stderr, "atoll-attacks: cannot set up the victim pipeline: %s\n", err.c_str());
    return 1;
  }
  if (victimCoverage(*victim_) != victim_->p->arenaBytes())
    report_.note("the victim's buffers cover " + std::to_string(victimCoverage(*victim_)) +
                 " of its " + std::to_string(victim_->p->arenaBytes()) +
                 " arena bytes: a write into the gap would go unnoticed");
  report_.set("victim", "arena " + hex(victim_->p->arenaBase()) + " + " +
                            std::to_string(victim_->p->arenaBytes() >> 20) + " MiB, " +
                            std::to_string(victimCoverage(*victim_)) +
                            " bytes under canary/known data; secret at " +
                            hex(victim_->secretAddr));
  {
    std::vector<std::string> dd;
    if (!checkVictim(*victim_, dd) || !victimHealth(*victim_, dd)) {
      std::fprintf(stderr, "atoll-attacks: the victim is not healthy before any attack:\n");
      for (auto &l : dd)
        std::fprintf(stderr, "  %s\n", l.c_str());
      return 1;
    }
  }
  for (Clamping c : o_.clampings) {
    PipelineOptions po;
    po.arenaBytes = c == Clamping::MaskBased ? kControlMaskArena : kControlModuloArena;
    po.name = "control-" + clampingName(c);
    po.timeout = milliseconds(o_.timeoutMs);
    auto p = rt_.createPipeline(po);
    if (!p) {
      std::fprintf(stderr, "atoll-attacks: cannot create %s: %s\n", po.name.c_str(),
                   p.error().describe().c_str());
      return 1;
    }
    (c == Clamping::MaskBased ? ctlMask_ : ctlModulo_) = std::move(*p);
    auto &atk = attacker(c);
    if (atk && atk->tail.offset() + atk->tail.size() < atk->p->arenaBytes() - 255)
      report_.note("the " + clampingName(c) + " attacker's last buffer ends before its arena "
                   "does: the small out-of-bounds attacks do not cross the arena end");
    if (atk)
      report_.set("attacker " + clampingName(c),
                  "arena " + hex(atk->p->arenaBase()) + " + " +
                      std::to_string(atk->p->arenaBytes()) + " bytes, " +
                      std::to_string(atk->bufs.size()) + " buffers, tail ends at " +
                      hex(atk->tail.offset() + atk->tail.size()));
  }

  // Order: table order, timeout attacks (never-ending ones included: cancelled) last.
  std::vector<const Attack *> order, timeouts;
  for (const Attack &a : attacks()) {
    if (!selectedAttack(o_, a))
      continue;
    if (a.timeoutMs)
      timeouts.push_back(&a);
    else
      order.push_back(&a);
  }
  order.insert(order.end(), timeouts.begin(), timeouts.end());

  auto skipRest = [&](const std::string &name, const std::string &cat, Clamping c,
                      const std::string &phase) {
    Result r;
    r.name = name;
    r.category = cat;
    r.kind = cat == "control" ? "control" : "attack";
    r.clamping = clampingName(c);
    r.phase = phase;
    r.verdict = Verdict::Skip;
    r.observed = "not run: the context was lost after " + lostAfter_;
    report_.add(std::move(r));
  };

  for (Clamping c : o_.clampings) {
    for (const Control &ctl : controls()) {
      if (!selectedControl(o_, ctl))
        continue;
      if (lost_) {
        skipRest(ctl.name, "control", c, "sequential");
        continue;
      }
      report_.add(runControl(ctl, c));
    }
    for (const Attack *a : order) {
      if (lost_) {
        skipRest(a->name, a->category, c, "sequential");
        continue;
      }
      if (o_.verbose)
        std::fprintf(stderr, "atoll-attacks: %s [%s]\n", a->name.c_str(),
                     clampingName(c).c_str());
      report_.add(runAttack(*a, c, "sequential"));
    }
  }

  // Two tenants at once.
  if (o_.concurrent && !lost_ && !o_.clampings.empty()) {
    Clamping c = o_.clampings.front();
    Worker worker;
    Result wr;
    wr.name = "concurrent_victim_workload";
    wr.category = "control";
    wr.kind = "control";
    wr.clamping = clampingName(c);
    wr.phase = "concurrent";
    wr.expected = "exact results throughout";
    if (!worker.start(rt_, *controlsMask.app, milliseconds(o_.timeoutMs), err)) {
      wr.verdict = Verdict::Fail;
      wr.observed = "cannot start the victim workload: " + err;
      report_.add(std::move(wr));
    } else {
      // Let it warm up, then attack while it runs.
      auto tw = Clock::now();
      while (worker.iterations() < 3 && msSince(tw) < 5000 && !worker.failures())
        std::this_thread::sleep_for(milliseconds(1));
      worker.markPhase();
      size_t attacksRun = 0;
      for (const Attack *a : order) {
        if (lost_) {
          skipRest(a->name, a->category, c, "concurrent");
          continue;
        }
        if (a->expect != Expect::Contained)
          continue;
        report_.add(runAttack(*a, c, "concurrent"));
        ++attacksRun;
      }
      uint64_t during = worker.duringPhase();
      worker.stop();
      wr.details.push_back(std::to_string(worker.iterations()) + " iterations (vadd 64 Ki + "
                           "matmul 64x64, each checked exactly), " + std::to_string(during) +
                           " of them while " + std::to_string(attacksRun) + " attacks ran");
      if (worker.failures()) {
        wr.verdict = Verdict::Fail;
        wr.observed = "WRONG/FAILED: " + std::to_string(worker.failures()) + " failure(s); " +
                      worker.firstFailure();
      } else if (during == 0) {
        wr.verdict = Verdict::Fail;
        wr.observed = "the victim workload made no progress while the attacks ran";
      } else {
        wr.verdict = Verdict::Pass;
        wr.observed = "exact in all " + std::to_string(worker.iterations()) + " iterations";
      }
      contextCheck(wr);
      report_.add(std::move(wr));
    }
  }

  // A quarantined arena must come back once its kernel has ended.
  if (timeoutRan_ && !lost_) {
    Result r;
    r.name = "timeout_quarantine_drains";
    r.category = "timeout";
    r.kind = "attack";
    r.clamping = "-";
    r.phase = "sequential";
    r.expected = "quarantine empties";
    auto tq = Clock::now();
    size_t left = rt_.collect();
    while (left && msSince(tq) < 15000) {
      std::this_thread::sleep_for(milliseconds(50));
      left = rt_.collect();
    }
    r.ms = msSince(tq);
    r.verdict = left ? Verdict::Fail : Verdict::Pass;
    r.observed = left ? std::to_string(left) + " arena(s) still quarantined after 15 s"
                      : "all quarantined arenas returned to the pool";
    contextCheck(r);
    report_.add(std::move(r));
  }

  RuntimeStats st = rt_.stats();
  report_.set("runtime stats",
              "pipelines created " + std::to_string(st.pipelinesCreated) + ", compilations " +
                  std::to_string(st.compilations) + ", arenas from pool " +
                  std::to_string(st.arenasFromPool) + ", quarantined " +
                  std::to_string(st.quarantinedArenas) + ", lost " +
                  (rt_.lost() ? "YES" : "no"));
  if (lost_)
    report_.note("the shared context was LOST after " + lostAfter_ +
                 "; everything after it was skipped");
  return 0;
}

} // namespace gpu

using namespace gpu;

int runGpu(const Options &o, Report &report, bool &noDevice) {
  noDevice = false;
  // No driver library or no device may skip; a broken driver, or no GPU under
  // ATOLL_REQUIRE_GPU=1, fails (test/support/GpuGate.h).
  std::string why;
  switch (atoll_test::gpuVerdict(why)) {
  case atoll_test::GpuVerdict::Skip:
    noDevice = true;
    std::fprintf(stderr, "atoll-attacks: %s\n", why.c_str());
    return 77;
  case atoll_test::GpuVerdict::Fail:
    std::fprintf(stderr, "atoll-attacks: %s\n", why.c_str());
    return 1;
  case atoll_test::GpuVerdict::Run:
    break;
  }
  RuntimeOptions ro;
  ro.defaultTimeout = milliseconds(o.timeoutMs);
  ro.libdevicePath = o.libdevice;
  auto rt = Runtime::create(ro);
  if (!rt) {
    // The driver loaded and found a device: any error now is a failure.
    std::fprintf(stderr, "atoll-attacks: cannot create the runtime: %s\n",
                 rt.error().describe().c_str());
    return 1;
  }
  if (!(*rt)->hasDevice()) {
    std::fprintf(stderr, "atoll-attacks: the runtime has no device (compile-only)\n");
    return 1;
  }
  Suite suite(o, report, **rt);
  int rc = suite.run();
  if (rc)
    return rc;
  return report.count(Verdict::Fail) ? 1 : 0;
}

} // namespace AtollAttacks

