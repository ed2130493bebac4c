// A small multi-tenant host service on AToLL: one process, one CUDA context, one
// thread per tenant. Each tenant uploads its own LLVM bitcode, gets its own pipeline
// (stream + device arena) and runs its kernels concurrently with the others. One
// tenant, mallory, is malicious: the service hands its kernel the real device
// addresses of the other tenants' buffers (Pipeline::deviceAddress), so that the
// attack is as strong as it can be. The service then checks, per tenant:
//
//   result:    every output element is exactly right (during the attack and after it);
//   isolation: the victims' inputs and the canary words around every victim buffer are
//              unchanged, and the attacker's output holds none of the victims' data
//              (after every attack launch, every word of it is zero or was written by
//              the attacker itself).
//
//   quota:     mallory's pipeline runs with an SM quota (PipelineOptions::smCount) in a
//              runtime that sets those SMs aside (RuntimeOptions::quotaSms), so its
//              kernels run on its own SMs and the victims' on all the others; checked
//              through Pipeline::partitionSms and RuntimeStats. Where the device or
//              driver has no SM partitions (green contexts), the request is refused
//              with a typed Unsupported, which the service prints, and mallory runs on
//              the whole device (the other checks are unchanged).
//
//   multi_tenant_service --kernels DIR [--rounds R] [--elements N] [--quota-sms Q]
//   multi_tenant_service --probe
//
// R (default 20): attack rounds; each round attacks every victim buffer once, and the
// victims keep launching their kernels (at least R times) until the attack is over.
// N (default 1048576, at most 2097152): elements per buffer.
// Q (default 16, 0: none): mallory's SM quota, rounded up by the runtime to the
// device's partition granularity (8 SMs on an H200).
// DIR holds vector_add.bc, stencil.bc and malicious.bc (compiled from examples/kernels/
// at build time into build/examples/kernels) and optionally refused.bc, which the
// runtime must refuse at load time.
// Exit status: 0 all checks passed; 1 a check failed; 2 usage or setup error;
// 3 no usable CUDA device (the message says why).
#include <atoll/atoll.h>

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Atoll::Arg;
using Atoll::Buffer;
using Atoll::Error;
using Atoll::ErrorCode;

constexpr uint64_t kGuardBytes = 256;             // canary zone before and after each buffer
constexpr uint32_t kGuardWords = kGuardBytes / 4;
constexpr uint32_t kAttackTag = 0xA77A0000u;      // malicious.cu's writes (top 16 bits)
constexpr uint32_t kAttackSharedBytes = 32u << 10; // dynamic shared memory of the attack
constexpr uint32_t kBlock = 256;                   // stencil.cu's STENCIL_BLOCK
constexpr uint64_t kArenaBytes = 64ull << 20;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

/// The first line of an error's message, without the IR instruction that pass
/// refusals end with (Error::detail() keeps the full diagnostics).
std::string shortMessage(const Error &e) {
  std::string s = e.message();
  if (auto nl = s.find('\n'); nl != std::string::npos)
    s.resize(nl);
  if (auto ir = s.find(": %"); ir != std::string::npos)
    s.resize(ir);
  return s;
}

/// "code: message" on one line.
std::string oneLine(const Error &e) {
  return std::string(Atoll::to_string(e.code())) + ": " + shortMessage(e);
}

// --- tenants ------------------------------------------------------------------------

enum class Role { VectorAdd, Stencil, Attacker, Refused };

/// A victim buffer framed by canary zones: [guard | data | guard] in one allocation.
struct Framed {
  std::string label;          // "alice.a"
  Buffer buffer;
  uint32_t words = 0;         // data words
  std::vector<uint32_t> host; // the whole frame as uploaded (guards + data)
  uint64_t dataAddress = 0;   // device address of the first data word
  bool isInput = true;        // inputs must come back unchanged
};

struct LootTally {
  uint64_t words = 0, zero = 0, own = 0, foreign = 0, stolen = 0;
};

struct Tenant {
  std::string name;
  Role role = Role::VectorAdd;
  std::string bitcode; // file name in --kernels
  uint32_t id = 0;

  // Filled by the tenant's own thread.
  std::shared_ptr<Atoll::Application> app;
  Atoll::Kernel kernel;
  std::unique_ptr<Atoll::Pipeline> pipeline;
  std::vector<Framed> buffers; // victims: inputs first, the output last
  Buffer loot;                 // attacker: its output (4 * n words)
  LootTally tally;             // attacker: its loot after every launch, summed
  uint64_t rounds = 0, roundsDuringAttack = 0, wrongElements = 0; // victims: all rounds
  std::vector<std::string> setupLines, runLines, checkLines;
  bool active = false; // set up and running kernels
  bool ok = true;
  bool contextLost = false;
  uint64_t launches = 0;

  /// "[alice]   " (names aligned).
  std::string tag() const { return format("%-10s", ("[" + name + "]").c_str()); }
  void fail(std::vector<std::string> &lines, const std::string &what, const Error &e) {
    ok = false;
    if (e.code() == ErrorCode::ContextLost)
      contextLost = true;
    lines.push_back(tag() + "FAIL: " + what + ": " + oneLine(e));
  }
};

struct Service {
  std::filesystem::path kernelsDir;
  uint32_t n = 1u << 20;
  int rounds = 20;
  uint32_t quotaSms = 16;       // mallory's SM quota (0: none)
  std::string quotaUnsupported; // the Unsupported error's text, when refused
  Atoll::Runtime *rt = nullptr;
  std::vector<std::unique_ptr<Tenant>> tenants;
  std::vector<const Framed *> targets; // the victims' buffers, for the attacker
  std::atomic<bool> attackOver{false};  // victims keep computing until it is set
};

uint32_t canary(uint32_t tenant, uint32_t buffer, uint32_t word) {
  return 0x5AFE0000u | (tenant << 12) | (buffer << 8) | (word & 0xFFu);
}

// --- phase 1 (each tenant's thread): upload, pipeline, buffers ----------------------------

bool load(Service &s, Tenant &t) {
  const auto path = (s.kernelsDir / t.bitcode).string();
  const auto t0 = Clock::now();
  auto app = s.rt->loadApplicationFile(path, {.name = t.bitcode});
  if (t.role == Role::Refused) {
    if (app) {
      t.ok = false;
      t.setupLines.push_back(t.tag() + "FAIL: " + t.bitcode + " was accepted, but must be refused");
    } else if (app.error().code() != ErrorCode::Refused) {
      t.fail(t.setupLines, "expected a refusal of " + t.bitcode, app.error());
    } else {
      t.setupLines.push_back(t.tag() + "upload " + t.bitcode + ": REFUSED at load, as it must be: " +
                             shortMessage(app.error()));
    }
    return false; // nothing more to do for this tenant
  }
  if (!app) {
    t.fail(t.setupLines, "loading " + path, app.error());
    return false;
  }
  t.app = *app;
  const char *kernelName = t.role == Role::VectorAdd ? "vector_add"
                           : t.role == Role::Stencil ? "stencil_1d"
                                                     : "attack";
  auto kernel = t.app->kernel(kernelName);
  if (!kernel) {
    t.fail(t.setupLines, "finding the kernel", kernel.error());
    return false;
  }
  t.kernel = *kernel;
  t.setupLines.push_back(t.tag() + format("upload %s: accepted; hardened, compiled and loaded "
                                          "in %.0f ms",
                                          t.bitcode.c_str(), msSince(t0)));
  return true;
}

bool allocateFramed(Tenant &t, const std::string &label, uint32_t index,
                    const std::vector<uint32_t> &data, bool isInput) {
  Framed f;
  f.label = t.name + "." + label;
  f.words = static_cast<uint32_t>(data.size());
  f.isInput = isInput;
  f.host.resize(kGuardWords + data.size() + kGuardWords);
  for (uint32_t w = 0; w < kGuardWords; ++w) {
    f.host[w] = canary(t.id, index, w);
    f.host[kGuardWords + data.size() + w] = canary(t.id, index, kGuardWords + w);
  }
  std::memcpy(f.host.data() + kGuardWords, data.data(), data.size() * 4);
  auto b = t.pipeline->allocate(f.host.size() * 4);
  if (!b) {
    t.fail(t.setupLines, "allocating " + f.label, b.error());
    return false;
  }
  f.buffer = *b;
  if (auto st = t.pipeline->copyToDevice(f.buffer, f.host); !st) {
    t.fail(t.setupLines, "uploading " + f.label, st.error());
    return false;
  }
  auto addr = t.pipeline->deviceAddress(f.buffer, kGuardBytes);
  if (!addr) {
    t.fail(t.setupLines, "deviceAddress of " + f.label, addr.error());
    return false;
  }
  f.dataAddress = *addr;
  t.buffers.push_back(std::move(f));
  return true;
}

/// 1, 2, 3, ... times scale, as float bit patterns. Never 0: zero is what scrubbed
/// memory holds, so a zero in the attacker's loot proves nothing either way.
std::vector<uint32_t> floats(uint32_t n, float scale) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    float x = scale * static_cast<float>(i + 1);
    std::memcpy(&v[i], &x, 4);
  }
  return v;
}

bool setup(Service &s, Tenant &t) {
  if (!load(s, t))
    return false;
  // The attacker gets an SM quota (docs/runtime-api.md, "SM partitions"): its
  // kernels then run on SMs of their own and cannot crowd out the victims, whatever
  // they launch. Where SM partitions are unsupported the request is refused with a
  // typed Unsupported: the service says so and runs it without a quota.
  const uint32_t quota = t.role == Role::Attacker ? s.quotaSms : 0;
  auto p = s.rt->createPipeline({.arenaBytes = kArenaBytes, .name = t.name, .smCount = quota});
  if (!p && quota && p.error().code() == ErrorCode::Unsupported) {
    s.quotaUnsupported = oneLine(p.error());
    t.setupLines.push_back(t.tag() + format("SM quota of %u SMs refused: %s", quota,
                                            s.quotaUnsupported.c_str()));
    t.setupLines.push_back(t.tag() + "  runs WITHOUT a quota, on the whole device");
    p = s.rt->createPipeline({.arenaBytes = kArenaBytes, .name = t.name});
  }
  if (!p) {
    t.fail(t.setupLines, "creating the pipeline", p.error());
    return false;
  }
  t.pipeline = std::move(*p);
  if (quota && s.quotaUnsupported.empty())
    t.setupLines.push_back(t.tag() + format("SM quota of %u SMs: its kernels run on a partition "
                                            "of %u SMs of its own",
                                            quota, t.pipeline->partitionSms()));
  switch (t.role) {
  case Role::VectorAdd:
    return allocateFramed(t, "a", 0, floats(s.n, 1.0f), true) &&
           allocateFramed(t, "b", 1, floats(s.n, 2.0f), true) &&
           allocateFramed(t, "c", 2, std::vector<uint32_t>(s.n, 0), false);
  case Role::Stencil: {
    std::vector<uint32_t> in(s.n);
    for (uint32_t i = 0; i < s.n; ++i)
      in[i] = 3 * i + 1;
    return allocateFramed(t, "in", 0, in, true) &&
           allocateFramed(t, "out", 1, std::vector<uint32_t>(s.n, 0), false);
  }
  case Role::Attacker: {
    auto b = t.pipeline->allocate(uint64_t{4} * s.n * 4);
    if (!b) {
      t.fail(t.setupLines, "allocating the loot buffer", b.error());
      return false;
    }
    t.loot = *b;
    return true;
  }
  case Role::Refused:
    break;
  }
  return false;
}

// --- phase 2 (concurrently): the victims compute, the attacker attacks --------------------

std::vector<uint32_t> expectedOutput(const Service &s, const Tenant &t) {
  std::vector<uint32_t> out(s.n);
  if (t.role == Role::VectorAdd) {
    for (uint32_t i = 0; i < s.n; ++i) {
      float a, b;
      std::memcpy(&a, &t.buffers[0].host[kGuardWords + i], 4);
      std::memcpy(&b, &t.buffers[1].host[kGuardWords + i], 4);
      const float c = a + b;
      std::memcpy(&out[i], &c, 4);
    }
  } else {
    const uint32_t *in = t.buffers[0].host.data() + kGuardWords;
    for (int64_t i = 0; i < s.n; ++i) {
      int32_t sum = 0;
      for (int64_t k = -3; k <= 3; ++k)
        if (i + k >= 0 && i + k < s.n)
          sum += static_cast<int32_t>(in[i + k]);
      out[i] = static_cast<uint32_t>(sum);
    }
  }
  return out;
}

Atoll::Status launchVictim(const Service &s, Tenant &t) {
  const Atoll::LaunchConfig shape{.grid = {(s.n + kBlock - 1) / kBlock}, .block = {kBlock}};
  const int n = static_cast<int>(s.n);
  // Arg::buffer(buffer, offset): the data starts after the leading canary zone.
  Atoll::Status st =
      t.role == Role::VectorAdd
          ? t.pipeline->launch(t.kernel, shape, Arg::buffer(t.buffers[0].buffer, kGuardBytes),
                               Arg::buffer(t.buffers[1].buffer, kGuardBytes),
                               Arg::buffer(t.buffers[2].buffer, kGuardBytes), n)
          : t.pipeline->launch(t.kernel, shape, Arg::buffer(t.buffers[0].buffer, kGuardBytes),
                               Arg::buffer(t.buffers[1].buffer, kGuardBytes), n);
  if (st)
    ++t.launches;
  return st;
}

void runVictim(const Service &s, Tenant &t) {
  // At least `rounds` rounds, and on until the attack is over. Every round's output
  // is read back and checked in full.
  constexpr int kMaxRounds = 1000000;
  const auto expected = expectedOutput(s, t);
  const Framed &out = t.buffers.back();
  std::vector<uint32_t> result(s.n);
  for (int r = 0; (r < s.rounds || !s.attackOver.load()) && r < kMaxRounds && t.ok; ++r) {
    const bool duringAttack = !s.attackOver.load();
    if (auto st = launchVictim(s, t); !st)
      return t.fail(t.runLines, format("launch %d", r), st.error());
    // A synchronous copy on the pipeline's stream: it waits for the kernel.
    if (auto st = t.pipeline->copyToHost(result, out.buffer, kGuardBytes); !st)
      return t.fail(t.runLines, format("reading the output of launch %d", r), st.error());
    for (uint32_t i = 0; i < s.n; ++i)
      t.wrongElements += result[i] != expected[i];
    ++t.rounds;
    t.roundsDuringAttack += duringAttack;
  }
  const char *what = t.role == Role::VectorAdd ? "vector_add (c = a + b)"
                                               : "stencil_1d (7-point sum)";
  t.runLines.push_back(t.tag() + format("ran %s on %u elements: %" PRIu64 " launches, "
                                        "arena %" PRIu64 " MiB @ 0x%" PRIx64,
                                        what, s.n, t.launches, t.pipeline->arenaBytes() >> 20,
                                        t.pipeline->arenaBase()));
}

/// Sorts the loot's words: zero (scrubbed or zero-initialised), the attacker's own
/// writes, or foreign (it came from somewhere else: a leak). Foreign words that are
/// some victim's data are counted as stolen.
void inspectLoot(const Service &s, Tenant &t, const std::vector<uint32_t> &loot,
                 std::optional<std::unordered_set<uint32_t>> &victimWords) {
  LootTally &tally = t.tally;
  tally.words += loot.size();
  for (uint32_t w : loot) {
    if (w == 0) {
      ++tally.zero;
    } else if ((w & 0xFFFF0000u) == kAttackTag) {
      ++tally.own;
    } else {
      ++tally.foreign;
      if (!victimWords) { // built on the first foreign word only
        victimWords.emplace();
        for (const auto &v : s.tenants) {
          if (v.get() == &t || v->buffers.empty())
            continue;
          for (const Framed &f : v->buffers)
            victimWords->insert(f.host.begin(), f.host.end());
          const auto out = expectedOutput(s, *v);
          victimWords->insert(out.begin(), out.end());
        }
        victimWords->erase(0);
      }
      tally.stolen += victimWords->count(w);
    }
  }
}

void runAttacker(const Service &s, Tenant &t) {
  const Atoll::LaunchConfig shape{.grid = {(s.n + kBlock - 1) / kBlock},
                                  .block = {kBlock},
                                  .dynamicSharedBytes = kAttackSharedBytes};
  // First a forged launch: another tenant's Buffer handle as the output pointer. The
  // runtime must refuse it before anything reaches the driver.
  if (!s.targets.empty()) {
    const Framed &v = *s.targets.front();
    auto st = t.pipeline->launch(t.kernel, shape, Arg::u64(v.dataAddress), v.buffer, s.n);
    if (st) {
      ++t.launches;
      t.ok = false;
      t.runLines.push_back(t.tag() + "FAIL: a launch with " + v.label +
                           "'s Buffer handle was accepted");
    } else {
      t.runLines.push_back(t.tag() + "launch with " + v.label + "'s Buffer handle: refused (" +
                           std::string(Atoll::to_string(st.error().code())) + "), OK");
    }
  }
  std::vector<uint32_t> loot(uint64_t{4} * s.n);
  std::optional<std::unordered_set<uint32_t>> victimWords;
  for (int r = 0; r < s.rounds && t.ok; ++r) {
    for (const Framed *v : s.targets) {
      // The victim's real device address, as a plain integer argument.
      auto st = t.pipeline->launch(t.kernel, shape, Arg::u64(v->dataAddress),
                                   Arg::buffer(t.loot), s.n);
      if (!st) {
        t.fail(t.runLines, "launching the attack on " + v->label, st.error());
        break;
      }
      ++t.launches;
      if (auto st2 = t.pipeline->copyToHost(loot, t.loot); !st2) { // waits for the kernel
        t.fail(t.runLines, "reading the loot of the attack on " + v->label, st2.error());
        break;
      }
      inspectLoot(s, t, loot, victimWords);
    }
  }
  t.runLines.push_back(t.tag() + format("ran attack: %" PRIu64 " launches, arena %" PRIu64
                                        " MiB @ 0x%" PRIx64,
                                        t.launches, t.pipeline->arenaBytes() >> 20,
                                        t.pipeline->arenaBase()));
  std::string list;
  for (const Framed *v : s.targets)
    list += format("%s%s 0x%" PRIx64, list.empty() ? "" : ", ", v->label.c_str(), v->dataAddress);
  t.runLines.push_back(t.tag() + "  victims' real addresses passed in: " + list);
  t.runLines.push_back(t.tag() + "  each launch reads and overwrites one of them, strides "
                                 "+-512 MiB, writes misaligned,");
  t.runLines.push_back(t.tag() + "  reads uninitialised shared and stack memory");
}

// --- phase 3 (each tenant's thread, after the attack): checks --------------------------------

/// Reads a framed buffer back; counts changed data words (inputs only) and canary
/// zones with any changed word.
bool readFramed(Tenant &t, const Framed &f, std::vector<uint32_t> &frame, uint64_t &badData,
                uint64_t &brokenZones) {
  frame.assign(f.host.size(), 0);
  if (auto st = t.pipeline->copyToHost(frame, f.buffer); !st) {
    t.fail(t.checkLines, "reading back " + f.label, st.error());
    return false;
  }
  bool before = false, after = false;
  for (uint32_t w = 0; w < kGuardWords; ++w) {
    before = before || frame[w] != f.host[w];
    after = after || frame[kGuardWords + f.words + w] != f.host[kGuardWords + f.words + w];
  }
  brokenZones += uint64_t{before} + uint64_t{after};
  if (f.isInput)
    for (uint32_t w = kGuardWords; w < kGuardWords + f.words; ++w)
      badData += frame[w] != f.host[w];
  return true;
}

uint64_t countWrong(const std::vector<uint32_t> &frame, const std::vector<uint32_t> &expected) {
  uint64_t wrong = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    wrong += frame[kGuardWords + i] != expected[i];
  return wrong;
}

void checkVictim(const Service &s, Tenant &t) {
  const auto expected = expectedOutput(s, t);
  const Framed &out = t.buffers.back();
  uint64_t badData = 0, brokenZones = 0, zones = 0;
  std::vector<uint32_t> frame;
  // 1. Inputs and canaries, after the attack.
  for (const Framed &f : t.buffers) {
    if (!readFramed(t, f, frame, badData, brokenZones))
      return;
    zones += 2;
  }
  // 2. Silence is not health: clear the output, run once more, check again.
  if (auto st = t.pipeline->fill(out.buffer, kGuardBytes, uint64_t{out.words} * 4, 0xEE); !st)
    return t.fail(t.checkLines, "clearing the output", st.error());
  if (auto st = launchVictim(s, t); !st)
    return t.fail(t.checkLines, "launching after the attack", st.error());
  if (auto st = t.pipeline->synchronize(); !st)
    return t.fail(t.checkLines, "synchronize after the attack", st.error());
  uint64_t ignored = 0;
  if (!readFramed(t, out, frame, ignored, brokenZones))
    return;
  const uint64_t wrongAfter = countWrong(frame, expected);

  const bool resultOk = t.wrongElements == 0 && wrongAfter == 0 && t.rounds > 0;
  const bool isolationOk = badData == 0 && brokenZones == 0;
  t.ok = resultOk && isolationOk;
  if (resultOk)
    t.checkLines.push_back(t.tag() + format("result:    OK, all %u elements exact in each of %" PRIu64
                                            " rounds (%" PRIu64 " during the attack) and after it",
                                            s.n, t.rounds, t.roundsDuringAttack));
  else
    t.checkLines.push_back(t.tag() + format("result:    FAIL, %" PRIu64 " wrong elements in %" PRIu64
                                            " rounds, %" PRIu64 " of %u wrong after the attack",
                                            t.wrongElements, t.rounds, wrongAfter, s.n));
  t.checkLines.push_back(t.tag() + format("isolation: %s, %" PRIu64 " input words changed, "
                                          "%" PRIu64 " of %" PRIu64 " canary zones touched",
                                          isolationOk ? "OK" : "FAIL", badData, brokenZones,
                                          zones));
}

void checkAttacker(const Service &s, Tenant &t) {
  const LootTally &l = t.tally;
  const bool ok = l.foreign == 0 && l.words > 0;
  t.ok = t.ok && ok;
  t.checkLines.push_back(t.tag() + format("isolation: %s, its loot after each of %" PRIu64
                                          " launches: %" PRIu64 " victim words, %" PRIu64
                                          " foreign%s",
                                          ok ? "OK" : "FAIL", t.launches, l.stolen, l.foreign,
                                          ok ? " (all zero or its own writes)" : ""));
  if (!ok && l.words == 0)
    t.checkLines.push_back(t.tag() + "FAIL: no attack ran");
}

/// The SM quota, seen from the runtime while every pipeline is alive: mallory's
/// partition is the only one, of at least the quota; the victims run on the rest of
/// the device, disjoint from it. Returns the lines to print; `ok` false on a failure.
std::vector<std::string> checkQuota(const Service &s, bool &ok) {
  std::vector<std::string> lines;
  const std::string tag = format("%-10s", "[service]");
  if (s.quotaSms == 0) {
    lines.push_back(tag + "SM quota: none requested (--quota-sms 0)");
    return lines;
  }
  if (!s.quotaUnsupported.empty()) {
    lines.push_back(tag + "SM quota: NOT APPLIED, SM partitions are unsupported here "
                          "(typed Unsupported, see mallory's lines); every tenant ran on the "
                          "whole device");
    return lines;
  }
  const Atoll::RuntimeStats st = s.rt->stats();
  const Tenant *attacker = nullptr;
  std::vector<const Tenant *> victims;
  for (const auto &t : s.tenants) {
    if (!t->pipeline)
      continue;
    if (t->role == Role::Attacker)
      attacker = t.get();
    else
      victims.push_back(t.get());
  }
  if (!attacker) {
    ok = false;
    lines.push_back(tag + "SM quota: FAIL, mallory has no pipeline");
    return lines;
  }
  const uint32_t mine = attacker->pipeline->partitionSms();
  bool quotaOk = mine >= s.quotaSms && st.partitionsLive == 1 && st.partitionSmsCommitted == mine &&
                 st.partitionRemainderSms > 0;
  std::string rest;
  for (const Tenant *v : victims) {
    quotaOk = quotaOk && v->pipeline->partitionSms() == st.partitionRemainderSms;
    rest += format("%s%s %u", rest.empty() ? "" : ", ", v->name.c_str(),
                   v->pipeline->partitionSms());
  }
  ok = ok && quotaOk;
  lines.push_back(tag + format("SM quota: %s, mallory on %u SMs of its own (quota %u, %" PRIu64
                               " partition live, %u SMs committed), the others on the rest "
                               "of the device (%u SMs: %s)",
                               quotaOk ? "OK" : "FAIL", mine, s.quotaSms, st.partitionsLive,
                               st.partitionSmsCommitted, st.partitionRemainderSms,
                               rest.c_str()));
  return lines;
}

// --- main ---------------------------------------------------------------------------------

std::string deviceLine(const Atoll::DeviceInfo &d) {
  return format("%s (%s, %.0f GiB, driver %d.%d)", d.name.c_str(), d.targetArch.c_str(),
                static_cast<double>(d.totalMemory) / (1ull << 30), d.driverVersion / 1000,
                (d.driverVersion % 1000) / 10);
}

} // namespace

int main(int argc, char **argv) {
  Service s;
  bool probe = false;
  std::string kernelsDir;
  CLI::App app("Several tenants, one of them malicious, in one CUDA context. DIR holds "
               "vector_add.bc, stencil.bc, malicious.bc (and optionally refused.bc), e.g. "
               "build/examples/kernels.",
               "multi_tenant_service");
  app.footer("--probe: exit 0 when a CUDA device is usable, 3 (with the reason) when there "
             "is no driver or device, 1 when the driver is broken.");
  app.add_flag("--probe", probe, "only check that a CUDA device is usable");
  app.add_option("--kernels", kernelsDir, "the tenants' bitcode directory (DIR)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--rounds", s.rounds, "rounds of work per tenant")->check(CLI::Range(1, 10000));
  app.add_option("--elements", s.n, "elements per tenant's buffer")
      ->check(CLI::Range(1u, 1u << 21));
  app.add_option("--quota-sms", s.quotaSms,
                 "mallory's SM quota (0: none; default 16); the runtime sets that many SMs "
                 "aside and runs the other tenants on the rest")
      ->check(CLI::Range(0u, 1024u));
  try {
    app.parse(argc, argv);
    if (!probe && kernelsDir.empty())
      throw CLI::RequiredError("--kernels (or --probe)");
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  s.kernelsDir = kernelsDir;

  // SMs set aside for mallory's quota: the victims run on the rest of the device
  // (ignored where SM partitions are unsupported).
  Atoll::RuntimeOptions options;
  options.quotaSms = s.quotaSms;
  auto runtime = Atoll::Runtime::create(options);
  if (!runtime) {
    // 3 only for an absent driver or device; a broken one is an error (exit 1).
    const auto code = runtime.error().code();
    if (code == Atoll::ErrorCode::NoDriver || code == Atoll::ErrorCode::NoDevice) {
      std::printf("no usable CUDA device: %s\n", oneLine(runtime.error()).c_str());
      return 3;
    }
    std::printf("the CUDA runtime cannot start: %s\n", oneLine(runtime.error()).c_str());
    return 1;
  }
  s.rt = runtime->get();
  if (probe) {
    std::printf("CUDA device usable: %s\n", deviceLine(s.rt->device()).c_str());
    return 0;
  }

  struct Spec {
    const char *name;
    Role role;
    const char *bitcode;
  };
  std::vector<Spec> specs = {{"alice", Role::VectorAdd, "vector_add.bc"},
                             {"bob", Role::Stencil, "stencil.bc"},
                             {"mallory", Role::Attacker, "malicious.bc"}};
  if (std::filesystem::exists(s.kernelsDir / "refused.bc"))
    specs.push_back({"eve", Role::Refused, "refused.bc"});
  for (const Spec &sp : specs) {
    if (!std::filesystem::exists(s.kernelsDir / sp.bitcode)) {
      std::fprintf(stderr, "missing %s (build the examples: it is compiled from "
                           "examples/kernels/)\n",
                   (s.kernelsDir / sp.bitcode).c_str());
      return 2;
    }
    auto t = std::make_unique<Tenant>();
    t->name = sp.name;
    t->role = sp.role;
    t->bitcode = sp.bitcode;
    t->id = static_cast<uint32_t>(s.tenants.size() + 1);
    s.tenants.push_back(std::move(t));
  }

  std::printf("AToLL multi-tenant service on %s\n", deviceLine(s.rt->device()).c_str());
  std::printf("one CUDA context, %zu tenant threads, %d+ rounds of %u elements; mallory is "
              "malicious%s\n",
              s.tenants.size(), s.rounds, s.n,
              s.quotaSms ? format(" and asks for an SM quota of %u", s.quotaSms).c_str() : "");

  // One thread per tenant. Setup (each tenant: upload, pipeline, buffers) | the service
  // hands the victims' addresses to the attacker | everyone runs concurrently | once
  // the attack is over, each tenant checks its own results.
  const auto count = static_cast<std::ptrdiff_t>(s.tenants.size());
  std::latch setUp(count), go(1), attacked(count);
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (auto &tenant : s.tenants) {
    threads.emplace_back([&s, &setUp, &go, &attacked, &t = *tenant] {
      t.active = setup(s, t);
      setUp.count_down();
      go.wait();
      if (t.active && t.ok)
        t.role == Role::Attacker ? runAttacker(s, t) : runVictim(s, t);
      if (t.role == Role::Attacker)
        s.attackOver.store(true);
      attacked.arrive_and_wait();
      if (t.active && t.ok)
        t.role == Role::Attacker ? checkAttacker(s, t) : checkVictim(s, t);
    });
  }
  setUp.wait();
  // Every pipeline exists now: the quota is checked while they all hold their SMs.
  bool quotaOk = true;
  const std::vector<std::string> quotaLines = checkQuota(s, quotaOk);
  for (auto &t : s.tenants)
    if (t->active && t->role != Role::Attacker)
      for (const Framed &f : t->buffers)
        s.targets.push_back(&f);
  go.count_down();
  for (auto &th : threads)
    th.join();
  const double seconds = msSince(t0) / 1000.0;

  bool allOk = true, lost = false;
  uint64_t launches = 0;
  size_t refused = 0;
  for (auto lines : {&Tenant::setupLines, &Tenant::runLines, &Tenant::checkLines}) {
    for (auto &t : s.tenants)
      for (const std::string &line : (*t).*lines)
        std::printf("%s\n", line.c_str());
    if (lines == &Tenant::setupLines)
      for (const std::string &line : quotaLines)
        std::printf("%s\n", line.c_str());
  }
  allOk = allOk && quotaOk;
  for (auto &t : s.tenants) {
    allOk = allOk && t->ok;
    lost = lost || t->contextLost;
    launches += t->launches;
    refused += t->role == Role::Refused;
  }
  if (lost || s.rt->lost()) {
    std::printf("FAILED: the shared CUDA context was lost (a kernel faulted it)\n");
    return 1;
  }
  if (!allOk) {
    std::printf("FAILED: see the FAIL lines above\n");
    return 1;
  }
  std::printf("ALL CHECKS PASSED: %zu tenants (%zu refused at load), %" PRIu64 " launches in "
              "%.2f s, one context, no fault%s\n",
              s.tenants.size(), refused, launches, seconds,
              s.quotaSms == 0                 ? ""
              : s.quotaUnsupported.empty() ? "; mallory held to its SM quota"
                                             : "; no SM quota (unsupported here)");
  return 0;
}
