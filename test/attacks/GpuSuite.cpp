// GPU mode of atoll-attacks: running one control or attack and judging it (see
// GpuSuite.h for the layout and the checks after every attack).
#include "GpuSuite.h"

// GCC 12 reports std::optional<AttackerPipe> (runAttack's `prev`) as maybe used
// uninitialised: its known false positive for optionals (GCC PR 80635).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace AtollAttacks::gpu {

LoadedApp &Suite::load(const std::string &module, Clamping c, unsigned opt) {
  std::string key = module + "|" + clampingName(c) + "|O" + std::to_string(opt);
  auto it = apps_.find(key);
  if (it != apps_.end())
    return it->second;
  LoadedApp la;
  std::string err;
  auto bytes = readModule(o_, module, err);
  if (!err.empty()) {
    la.error = Error(ErrorCode::IoError, err);
  } else {
    AppOptions ao;
    ao.clamping = c;
    ao.optLevel = opt;
    ao.name = module + "-" + clampingName(c);
    auto app = rt_.loadApplication(std::span<const uint8_t>(bytes.data(), bytes.size()), ao);
    if (app)
      la.app = *app;
    else
      la.error = std::move(app).error();
  }
  return apps_.emplace(key, std::move(la)).first->second;
}

std::optional<AttackerPipe> &Suite::attacker(Clamping c) {
  auto &slot = c == Clamping::MaskBased ? atkMask_ : atkModulo_;
  if (!slot) {
    std::string err;
    slot = makeAttacker(rt_, attackerArena(c), "attacker-" + clampingName(c),
                        milliseconds(o_.timeoutMs), err);
    if (!slot)
      report_.note("cannot create the " + clampingName(c) + " attacker pipeline: " + err);
  }
  return slot;
}

bool Suite::resolve(const std::vector<ArgSpec> &specs, Role role, AttackerPipe *atk,
                    Pipeline &on, const std::vector<Buffer> *ctlBufs, std::vector<Arg> &out,
                    std::string &error) {
  using K = ArgSpec::Kind;
  out.clear();
  auto atkAddr = [&](uint32_t i) -> std::optional<uint64_t> {
    if (!atk || i >= atk->bufs.size())
      return std::nullopt;
    auto a = atk->p->deviceAddress(atk->bufs[i]);
    return a ? std::optional<uint64_t>(*a) : std::nullopt;
  };
  for (const ArgSpec &s : specs) {
    switch (s.kind) {
    case K::AtkBuf:
      if (!atk || role == Role::Victim || s.index >= atk->bufs.size()) {
        error = "argument " + s.describe() + " needs an attacker pipeline";
        return false;
      }
      out.push_back(Arg::buffer(atk->bufs[s.index], uint64_t(s.offset)));
      break;
    case K::AtkTail:
      if (!atk) {
        error = "argument tail needs an attacker pipeline";
        return false;
      }
      out.push_back(Arg::buffer(atk->tail));
      break;
    case K::AtkTailWords:
      if (!atk) {
        error = "argument tailWords needs an attacker pipeline";
        return false;
      }
      out.push_back(Arg::u32(uint32_t(atk->tail.size() / 4 + s.offset)));
      break;
    case K::ArenaWords: out.push_back(Arg::u64(on.arenaBytes() / 4)); break;
    case K::VictimAddr: out.push_back(Arg::u64(victim_->secretAddr + uint64_t(s.offset))); break;
    case K::VictimDelta:
    case K::VictimXor: {
      auto a = atkAddr(s.index);
      if (!a) {
        error = "argument " + s.describe() + " needs an attacker buffer address";
        return false;
      }
      out.push_back(s.kind == K::VictimDelta ? Arg::i64(int64_t(victim_->secretAddr - *a))
                                             : Arg::u64(victim_->secretAddr ^ *a));
      break;
    }
    case K::CtlBuf:
      if (!ctlBufs || s.index >= ctlBufs->size()) {
        error = "argument " + s.describe() + " names a missing control buffer";
        return false;
      }
      out.push_back(Arg::buffer((*ctlBufs)[s.index], uint64_t(s.offset)));
      break;
    case K::Int:
      switch (s.size) {
      case 1: out.push_back(Arg::u8(uint8_t(s.bits))); break;
      case 2: out.push_back(Arg::u16(uint16_t(s.bits))); break;
      case 4: out.push_back(Arg::u32(uint32_t(s.bits))); break;
      default: out.push_back(Arg::u64(s.bits)); break;
      }
      break;
    case K::Float: {
      if (s.size == 4) {
        float f;
        uint32_t b = uint32_t(s.bits);
        std::memcpy(&f, &b, 4);
        out.push_back(Arg::f32(f));
      } else {
        double d;
        std::memcpy(&d, &s.bits, 8);
        out.push_back(Arg::f64(d));
      }
      break;
    }
    case K::Bytes: out.push_back(Arg::bytes(s.bytes.data(), s.size)); break;
    case K::Null: out.push_back(Arg::null()); break;
    }
  }
  return true;
}

void Suite::contextCheck(Result &res) {
  if (rt_.lost() && !lost_) {
    lost_ = true;
    lostAfter_ = res.name + " [" + res.clamping + "/" + res.phase + "]";
    res.details.push_back("CONTEXT LOST: the shared context is poisoned after this attack");
    res.verdict = Verdict::Fail;
  }
}

void Suite::finishVerdict(Result &res, const Attack &a, bool met) {
  if (!a.xfail.empty()) {
    res.verdict = met ? Verdict::XPass : Verdict::XFail;
    res.details.push_back("known issue: " + a.xfail);
  } else {
    res.verdict = met ? Verdict::Pass : Verdict::Fail;
  }
}

Result Suite::runControl(const Control &ctl, Clamping c) {
  Result res;
  res.name = ctl.name;
  res.category = "control";
  res.kind = "control";
  res.clamping = clampingName(c);
  res.phase = "sequential";
  res.expected = "exact result";
  res.verdict = Verdict::Fail;
  Pipeline *p = (c == Clamping::MaskBased ? ctlMask_ : ctlModulo_).get();
  LoadedApp &la = load(ctl.module, c, 2);
  if (!la.app) {
    res.observed = "load failed: " + describe(*la.error);
    return res;
  }
  if (!p) {
    res.observed = "no control pipeline";
    return res;
  }
  auto kernel = la.app->kernel(ctl.kernel);
  if (!kernel) {
    res.observed = describe(kernel.error());
    return res;
  }
  std::vector<Buffer> bufs;
  std::vector<Bytes> before, after;
  auto cleanup = [&]() {
    for (const Buffer &b : bufs)
      (void)p->free(b);
  };
  for (const CtlBuffer &cb : ctl.buffers) {
    auto b = p->allocate(cb.bytes);
    if (!b) {
      res.observed = describe(b.error());
      cleanup();
      return res;
    }
    bufs.push_back(*b);
    before.push_back(initialContents(cb));
    if (Status s = p->copyToDevice(*b, 0, before.back().data(), cb.bytes); !s) {
      res.observed = describe(s.error());
      cleanup();
      return res;
    }
  }
  std::vector<Arg> args;
  std::string err;
  if (!resolve(ctl.args, Role::Attacker, nullptr, *p, &bufs, args, err)) {
    res.observed = err;
    cleanup();
    return res;
  }
  auto t0 = Clock::now();
  Status s = p->launch(*kernel, LaunchConfig{ctl.grid, ctl.block, ctl.dynamicSharedBytes},
                       std::span<const Arg>(args));
  if (s)
    s = p->synchronize();
  res.ms = msSince(t0);
  if (!s) {
    res.observed = "run failed: " + describe(s.error());
    cleanup();
    contextCheck(res);
    return res;
  }
  for (size_t i = 0; i < bufs.size(); ++i) {
    after.emplace_back(ctl.buffers[i].bytes);
    if (Status cs = p->copyToHost(after.back().data(), bufs[i], 0, ctl.buffers[i].bytes); !cs) {
      res.observed = describe(cs.error());
      cleanup();
      return res;
    }
  }
  cleanup();
  std::string diff = ctl.verify(before, after);
  if (diff.empty()) {
    res.verdict = Verdict::Pass;
    res.observed = "exact (matches the host reference)";
  } else {
    res.observed = "WRONG RESULT: " + diff;
  }
  contextCheck(res);
  return res;
}

Result Suite::runAttack(const Attack &a, Clamping c, const std::string &phase) {
  Result res;
  res.name = a.name;
  res.category = a.category;
  res.kind = "attack";
  res.clamping = clampingName(c);
  res.phase = phase;
  res.expected = expectedText(a);
  res.verdict = Verdict::Fail;
  auto t0 = Clock::now();
  LoadedApp &la = load(a.module, c, a.optLevel);

  if (a.expect == Expect::Refused) {
    bool met = false;
    if (la.app) {
      res.observed = "LOADED (expected a refusal)";
      res.details.push_back("the module was accepted; nothing was launched");
    } else {
      const Error &e = *la.error;
      std::string all = e.message() + "\n" + e.detail();
      res.observed = contains(e.message(), "refused")
                         ? firstLine(e.message(), 200)
                         : std::string(to_string(e.code())) + ": " + firstLine(e.message(), 160);
      if (e.code() != ErrorCode::Refused)
        res.details.push_back("expected Refused, got " + std::string(to_string(e.code())));
      else if (!contains(all, a.reason))
        res.details.push_back("the refusal lacks \"" + a.reason + "\": " +
                              firstLine(e.detail(), 300));
      else
        met = true;
    }
    res.ms = msSince(t0);
    std::vector<std::string> d;
    if (!checkVictim(*victim_, d) || !victimHealth(*victim_, d)) {
      met = false;
      res.details.insert(res.details.end(), d.begin(), d.end());
    }
    finishVerdict(res, a, met);
    contextCheck(res);
    return res;
  }

  // Contained.
  if (!la.app) {
    res.observed = "load failed: " + describe(*la.error);
    if (!la.error->detail().empty())
      res.details.push_back(firstLine(la.error->detail(), 300));
    finishVerdict(res, a, false);
    return res;
  }

  std::optional<AttackerPipe> own; // timeout and fresh-pipeline attacks
  AttackerPipe *atk = nullptr;
  std::string err;
  bool met = true;
  if (a.freshPipeline) {
    // Role::Previous launches on a temporary pipeline that is destroyed first.
    uint64_t prevBase = 0;
    bool hadPrevious = false;
    for (const Launch &l : a.launches)
      if (l.role == Role::Previous)
        hadPrevious = true;
    if (hadPrevious) {
      auto prev = makeAttacker(rt_, attackerArena(c), "previous-tenant", milliseconds(o_.timeoutMs),
                               err);
      if (!prev) {
        res.observed = "cannot create the previous tenant's pipeline: " + err;
        return res;
      }
      prevBase = prev->p->arenaBase();
      for (const Launch &l : a.launches) {
        if (l.role != Role::Previous)
          continue;
        std::vector<Arg> args;
        auto k = la.app->kernel(l.kernel);
        if (!k || !resolve(l.args, l.role, &*prev, *prev->p, nullptr, args, err)) {
          res.observed = k ? err : describe(k.error());
          return res;
        }
        Status s = prev->p->launch(*k, LaunchConfig{l.grid, l.block, l.dynamicSharedBytes},
                                   std::span<const Arg>(args));
        if (s)
          s = prev->p->synchronize();
        if (!s) {
          res.observed = "previous tenant's kernel failed: " + describe(s.error());
          contextCheck(res);
          return res;
        }
      }
      prev.reset(); // scrub + back to the pool
    }
    own = makeAttacker(rt_, attackerArena(c), "fresh-tenant", milliseconds(o_.timeoutMs), err);
    if (!own) {
      res.observed = "cannot create the fresh pipeline: " + err;
      return res;
    }
    PipelineStats st = own->p->stats();
    res.details.push_back(std::string("fresh pipeline: arena ") +
                          (st.arenaFromPool ? "recycled from the pool" : "newly allocated") +
                          (hadPrevious ? (own->p->arenaBase() == prevBase
                                              ? " (the previous tenant's arena)"
                                              : " (not the previous tenant's arena: weaker test)")
                                       : ""));
    atk = &*own;
  } else if (a.timeoutMs || a.runLimitMs) {
    const uint32_t limit = a.timeoutMs ? a.timeoutMs : a.runLimitMs;
    own = makeAttacker(rt_, attackerArena(c), a.timeoutMs ? "attacker-timeout" : "attacker-long",
                       milliseconds(limit), err);
    if (!own) {
      res.observed = "cannot create the attacker's own pipeline: " + err;
      return res;
    }
    atk = &*own;
  } else {
    auto &slot = attacker(c);
    if (!slot) {
      res.observed = "no attacker pipeline";
      return res;
    }
    atk = &*slot;
  }
  if (!a.noInit)
    if (Status s = initAttacker(*atk); !s) {
      res.observed = "cannot initialise the attacker's buffers: " + describe(s.error());
      contextCheck(res);
      return res;
    }

  // Launch, in order.
  auto tRun = Clock::now();
  std::string observed;
  for (const Launch &l : a.launches) {
    if (l.role == Role::Previous)
      continue;
    Pipeline &on = l.role == Role::Victim ? *victim_->p : *atk->p;
    std::vector<Arg> args;
    auto k = la.app->kernel(l.kernel);
    if (!k) {
      res.observed = describe(k.error());
      return res;
    }
    if (!resolve(l.args, l.role, l.role == Role::Victim ? nullptr : atk, on, nullptr, args, err)) {
      res.observed = "bad arguments: " + err;
      return res;
    }
    LaunchConfig cfg{l.grid, l.block, l.dynamicSharedBytes};
    cfg.fuel = a.fuel;
    Status s = on.launch(*k, cfg, std::span<const Arg>(args));
    if (!s && !a.launchRefusal.empty()) {
      res.observed = "launch refused: " + firstLine(s.error().message(), 200);
      bool ok = s.error().code() == ErrorCode::InvalidLaunch &&
                contains(s.error().message(), a.launchRefusal);
      if (!ok)
        res.details.push_back("expected InvalidLaunch with \"" + a.launchRefusal + "\"");
      std::vector<std::string> d;
      ok &= checkVictim(*victim_, d) && victimHealth(*victim_, d);
      res.details.insert(res.details.end(), d.begin(), d.end());
      finishVerdict(res, a, ok);
      contextCheck(res);
      return res;
    }
    if (!s) {
      res.observed = "LAUNCH REJECTED: " + describe(s.error());
      res.details.push_back("the runtime refused the catalog's launch of " + l.kernel +
                            " (" + std::string(toString(l.role)) + "); check the table");
      contextCheck(res);
      return res;
    }
    if (l.role == Role::Victim) {
      if (Status vs = victim_->p->synchronize(); !vs) {
        res.observed = "the victim's writer kernel failed: " + describe(vs.error());
        contextCheck(res);
        return res;
      }
    }
  }
  if (!a.launchRefusal.empty()) {
    met = false;
    res.details.push_back("the launch was accepted (expected InvalidLaunch with \"" +
                          a.launchRefusal + "\")");
  }
  Status s = atk->p->synchronize();
  res.ms = msSince(tRun);

  // R10-F4: a kernel that never ends by itself, launched with fuel: its counted checks
  // must charge the fuel and end it (FuelExhausted) well before its run limit.
  if (a.fuel) {
    if (!s && s.error().code() == ErrorCode::FuelExhausted) {
      res.observed = "FuelExhausted after " + std::to_string(int(res.ms)) + " ms (expected)";
      Status again = atk->p->synchronize();
      res.details.push_back(std::string("synchronize after: ") +
                            (again ? "ok" : describe(again.error())));
      met &= again.ok();
    } else {
      met = false;
      res.observed = s ? std::string("expected FuelExhausted, but the kernel finished")
                       : "expected FuelExhausted, got " + describe(s.error());
    }
    std::vector<std::string> d;
    if (!checkVictim(*victim_, d) || !victimHealth(*victim_, d)) {
      met = false;
      res.details.insert(res.details.end(), d.begin(), d.end());
    }
    finishVerdict(res, a, met);
    contextCheck(res);
    return res;
  }

  if (a.timeoutMs) {
    timeoutRan_ = true;
    if (!s && s.error().code() == ErrorCode::Timeout) {
      observed = "Timeout after " + std::to_string(int(res.ms)) + " ms (expected)";
      // The timeout cancels (PipelineOptions::cancelOnTimeout): the kernel has ended.
      bool wedged = atk->p->wedged();
      res.details.push_back(std::string("pipeline wedged: ") +
                            (wedged ? "YES (the cancelled kernel did not end)" : "no (cancelled)"));
      met &= !wedged;
      if (!wedged) {
        Status again = atk->p->synchronize();
        res.details.push_back(std::string("synchronize after the cancel: ") +
                              (again ? "ok" : describe(again.error())));
        met &= again.ok();
      }
      // Other pipelines are unaffected while the kernel still holds its SM.
      std::vector<std::string> d;
      bool ok = checkVictim(*victim_, d) && victimHealth(*victim_, d);
      res.details.push_back(std::string("victim while the attacker spins: ") +
                            (ok ? "intact and healthy" : "FAILED"));
      res.details.insert(res.details.end(), d.begin(), d.end());
      met &= ok;
      auto td = Clock::now();
      own.reset(); // never blocks (a still-running kernel is cancelled, its arena quarantined)
      double destroyMs = msSince(td);
      RuntimeStats st = rt_.stats();
      res.details.push_back("destroying the wedged pipeline took " + std::to_string(destroyMs) +
                            " ms; quarantined arenas now: " +
                            std::to_string(st.quarantinedArenas));
      if (destroyMs > 1000) {
        met = false;
        res.details.push_back("destroying a pipeline must not wait for its kernel");
      }
    } else if (!s) {
      met = false;
      observed = "expected Timeout, got " + describe(s.error());
    } else {
      met = false;
      observed = "expected Timeout, but the kernel finished within " +
                 std::to_string(a.timeoutMs) + " ms";
    }
    res.observed = observed;
    std::vector<std::string> d;
    if (!checkVictim(*victim_, d) || !victimHealth(*victim_, d)) {
      met = false;
      res.details.insert(res.details.end(), d.begin(), d.end());
    }
    finishVerdict(res, a, met);
    contextCheck(res);
    return res;
  }

  if (!s) {
    met = false;
    observed = "RUN FAILED: " + describe(s.error());
    if (s.error().code() == ErrorCode::Timeout) {
      res.details.push_back("the attack did not finish within " + std::to_string(o_.timeoutMs) +
                            " ms; replacing the wedged attacker pipeline (its arena is "
                            "quarantined)");
      if (!own)
        (c == Clamping::MaskBased ? atkMask_ : atkModulo_).reset();
    }
    res.observed = observed;
    contextCheck(res);
    if (!lost_) {
      std::vector<std::string> d;
      if (!checkVictim(*victim_, d) || !victimHealth(*victim_, d))
        res.details.insert(res.details.end(), d.begin(), d.end());
    }
    finishVerdict(res, a, false);
    return res;
  }

  // The four checks.
  std::vector<std::vector<uint32_t>> host;
  contextCheck(res);
  bool victimOk = checkVictim(*victim_, res.details);
  bool noLeak = scanAttacker(*atk, host, res.details);
  bool checksOk = true;
  for (const Check &ck : a.checks) {
    if (ck.buffer >= host.size()) {
      checksOk = false;
      res.details.push_back("check names a missing attacker buffer");
      continue;
    }
    const std::vector<uint32_t> &b = host[ck.buffer];
    std::string problem;
    if (ck.kind == Check::Kind::AllZero) {
      uint64_t words = std::min<uint64_t>(ck.bytes / 4, b.size()), nonzero = 0;
      size_t firstAt = 0;
      for (size_t i = 0; i < words; ++i)
        if (b[i] != 0) {
          if (!nonzero)
            firstAt = i;
          ++nonzero;
        }
      if (nonzero)
        problem = "RESIDUE: " + std::to_string(nonzero) + " of " + std::to_string(words) +
                  " output words are not zero (first: word " + std::to_string(firstAt) + " = " +
                  hex(b[firstAt]) + ")";
    } else if (ck.word >= b.size() || b[ck.word] != ck.value) {
      problem = "word " + std::to_string(ck.word) + " of the output is " +
                (ck.word < b.size() ? hex(b[ck.word]) : std::string("missing")) +
                ", expected " + hex(ck.value);
    }
    if (!problem.empty()) {
      if (ck.informational) {
        res.details.push_back("note (informational): " + problem);
      } else {
        checksOk = false;
        res.details.push_back(problem);
      }
    }
  }
  bool healthy = !lost_ && victimHealth(*victim_, res.details);
  const bool longEnough = !a.minRunMs || res.ms >= a.minRunMs;
  if (!longEnough)
    res.details.push_back("ran " + std::to_string(int(res.ms)) + " ms, less than the " +
                          std::to_string(a.minRunMs) + " ms this measurement needs");
  met = !lost_ && victimOk && noLeak && checksOk && healthy && longEnough;
  if (met) {
    res.observed = "contained: victim intact, no leak, victim healthy";
    if (!a.checks.empty())
      res.observed += ", checks ok";
    if (a.showTime)
      res.observed += " (ran " + std::to_string(int(res.ms)) + " ms)";
  } else {
    std::string what;
    if (lost_) what += "CONTEXT LOST ";
    if (!victimOk) what += "BREACH ";
    if (!noLeak) what += "LEAK ";
    if (!checksOk) what += "CHECK FAILED ";
    if (!longEnough) what += "TOO SHORT ";
    if (!healthy && !lost_) what += "VICTIM UNHEALTHY ";
    res.observed = what;
  }
  finishVerdict(res, a, met);
  return res;
}

} // namespace AtollAttacks::gpu
