// GPU mode: one Runtime, one victim, attackers in their own arenas.
//
// Layout
//  - victim pipeline (16 MiB arena): EVERY byte of its arena is a buffer with known
//    contents: filler full of canary words (0xDEADBEEF), the secret buffer in the
//    middle (4 KiB canary, 64 KiB of secret words with a canary every 64th word,
//    4 KiB canary), and the three buffers of its health check (vadd), each between
//    two 4 KiB canary regions. The secret data's device address is what attacks get
//    as "victim" (a u64 scalar).
//  - attacker pipelines (4 MiB mask-capable arena for mask-based modules, 3 MiB +
//    768 bytes modulo-only arena for modulo-based ones): buffer A (1 MiB, filled
//    with 0, 1, 2, ...), buffer B (1 MiB, zeros: the attack's output) and filler
//    buffers up to the arena's end (the last one is the "tail").
//
// After EVERY attack (and for refused ones, after the refusal):
//  1. the runtime is not lost (a sticky error would be ContextLost everywhere);
//  2. the victim's whole arena equals its image (canaries and data): else BREACH;
//  3. no victim secret word (0x5ECxxxxx) and no canary word appears anywhere in the
//     attacker's arena: else LEAK;
//  4. the attack's own checks (e.g. residue probes read all zeros);
//  5. the victim's health check (vadd) runs and is exact: "silence is not health".
// Timeout attacks run on a pipeline of their own with a short timeout: synchronize
// must return Timeout, the victim must stay healthy meanwhile, the pipeline is then
// destroyed while its kernel still runs (the runtime quarantines the arena) and the
// quarantine must drain once the kernel ends.
// The concurrent phase repeats the contained attacks while another thread runs a
// benign workload (vadd + tiled matmul) on a second victim pipeline, checking every
// result exactly.
#include "Harness.h"

#include "atoll/abi.h"
#include "atoll/runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace AtollAttacks {
namespace {

using namespace Atoll;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

std::string describe(const Error &e) { return firstLine(e.describe(), 300); }

constexpr uint64_t kKiB = 1024, kMiB = 1024 * 1024;
constexpr uint64_t kVictimArena = 16 * kMiB;
constexpr uint64_t kAttackerMaskArena = 4 * kMiB;
constexpr uint64_t kAttackerModuloArena = 3 * kMiB + 768;
constexpr uint64_t kControlMaskArena = 16 * kMiB;
constexpr uint64_t kControlModuloArena = 16 * kMiB + 1280;
constexpr uint64_t kCanaryBytes = 4 * kKiB;
constexpr uint32_t kSecretWords = 16384;  // 64 KiB
constexpr uint32_t kHealthWords = 4096;   // 16 KiB per health buffer

// --- attacker pipelines ---------------------------------------------------------------

struct AttackerPipe {
  std::unique_ptr<Pipeline> p;
  std::vector<Buffer> bufs; // [0] = A, [1] = B, then fillers
  Buffer tail;              // the buffer that ends at the arena's end
};

/// Allocates `first` sizes, then fills the rest of the arena with buffers (largest
/// first), so that every byte of the arena belongs to a buffer the harness can read.
std::vector<Buffer> fillArena(Pipeline &p, std::vector<uint64_t> first, std::string &error) {
  std::vector<Buffer> out;
  for (uint64_t bytes : first) {
    auto b = p.allocate(bytes);
    if (!b) {
      error = describe(b.error());
      return {};
    }
    out.push_back(*b);
  }
  auto freeBytes = [&]() {
    uint64_t used = p.stats().bytesAllocated;
    return p.arenaBytes() > used ? p.arenaBytes() - used : 0;
  };
  uint64_t want = freeBytes() / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
  for (int guard = 0; guard < 1024 && want >= ATOLL_BUFFER_ALIGNMENT; ++guard) {
    if (auto b = p.allocate(want)) {
      out.push_back(*b);
      want = freeBytes() / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
    } else {
      want = want / 2 / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
    }
  }
  return out;
}

std::optional<AttackerPipe> makeAttacker(Runtime &rt, uint64_t arenaBytes, const std::string &name,
                                         milliseconds timeout, std::string &error) {
  PipelineOptions po;
  po.arenaBytes = arenaBytes;
  po.name = name;
  po.timeout = timeout;
  auto p = rt.createPipeline(po);
  if (!p) {
    error = describe(p.error());
    return std::nullopt;
  }
  AttackerPipe a;
  a.p = std::move(*p);
  a.bufs = fillArena(*a.p, {kMiB, kMiB}, error);
  if (a.bufs.size() < 2)
    return std::nullopt;
  a.tail = a.bufs.back();
  for (const Buffer &b : a.bufs)
    if (b.offset() + b.size() > a.tail.offset() + a.tail.size())
      a.tail = b;
  return a;
}

Status initAttacker(AttackerPipe &a) {
  std::vector<uint32_t> iota(a.bufs[0].size() / 4);
  for (size_t i = 0; i < iota.size(); ++i)
    iota[i] = uint32_t(i);
  if (Status s = a.p->copyToDevice(a.bufs[0], iota); !s)
    return s;
  for (size_t i = 1; i < a.bufs.size(); ++i)
    if (Status s = a.p->fill(a.bufs[i], 0, a.bufs[i].size(), 0); !s)
      return s;
  return {};
}

/// Copies every attacker buffer to the host; reports victim words found in it.
bool scanAttacker(AttackerPipe &a, std::vector<std::vector<uint32_t>> &host,
                  std::vector<std::string> &details) {
  host.assign(a.bufs.size(), {});
  uint64_t hits = 0;
  std::string first;
  for (size_t i = 0; i < a.bufs.size(); ++i) {
    host[i].resize(a.bufs[i].size() / 4);
    if (Status s = a.p->copyToHost(host[i], a.bufs[i]); !s) {
      details.push_back("cannot read the attacker's buffer " + std::to_string(i) + ": " +
                        describe(s.error()));
      return false;
    }
    for (size_t w = 0; w < host[i].size(); ++w)
      if (looksSecret(host[i][w])) {
        if (hits < 3)
          first += std::string(hits ? ", " : "") + (i == 0 ? "A" : i == 1 ? "B" : "buf" + std::to_string(i)) +
                   "[" + std::to_string(w) + "] = " + hex(host[i][w]);
        ++hits;
      }
  }
  if (hits) {
    details.push_back("LEAK: " + std::to_string(hits) +
                      " victim word(s) (secret 0x5ECxxxxx or canary 0xdeadbeef) in the "
                      "attacker's arena: " + first);
    return false;
  }
  return true;
}

// --- victim -----------------------------------------------------------------------------

struct Region {
  std::string name;
  Buffer buf;
  std::vector<uint32_t> image;
};

struct Victim {
  std::unique_ptr<Pipeline> p;
  std::vector<Region> regions;
  size_t secret = 0, va = 0, vb = 0, vc = 0; // indices into regions
  uint64_t secretAddr = 0;
  Kernel vadd;
};

std::vector<uint32_t> canaryWords(uint64_t bytes) { return std::vector<uint32_t>(bytes / 4, kCanary); }

/// [4 KiB canary][data][4 KiB canary]
std::vector<uint32_t> framed(const std::vector<uint32_t> &data) {
  std::vector<uint32_t> v = canaryWords(kCanaryBytes);
  v.insert(v.end(), data.begin(), data.end());
  auto tail = canaryWords(kCanaryBytes);
  v.insert(v.end(), tail.begin(), tail.end());
  return v;
}

std::optional<Victim> makeVictim(Runtime &rt, const Application &controlsApp,
                                 const std::string &name, milliseconds timeout,
                                 std::string &error) {
  PipelineOptions po;
  po.arenaBytes = kVictimArena;
  po.name = name;
  po.timeout = timeout;
  auto p = rt.createPipeline(po);
  if (!p) {
    error = describe(p.error());
    return std::nullopt;
  }
  Victim v;
  v.p = std::move(*p);
  auto k = controlsApp.kernel("vadd_u32");
  if (!k) {
    error = describe(k.error());
    return std::nullopt;
  }
  v.vadd = *k;

  auto add = [&](const std::string &nm, std::vector<uint32_t> image) -> bool {
    auto b = v.p->allocate(image.size() * 4);
    if (!b) {
      error = describe(b.error());
      return false;
    }
    v.regions.push_back({nm, *b, std::move(image)});
    return true;
  };
  // Filler first so that the secret sits in the middle of the arena (+-2 MiB sprays
  // stay inside the canaried arena).
  if (!add("filler-low", canaryWords(6 * kMiB)))
    return std::nullopt;
  std::vector<uint32_t> secret(kSecretWords);
  for (uint32_t i = 0; i < kSecretWords; ++i)
    secret[i] = (i % 64 == 63) ? kCanary : secretWord(i);
  v.secret = v.regions.size();
  if (!add("secret", framed(secret)))
    return std::nullopt;
  std::vector<uint32_t> a(kHealthWords), bb(kHealthWords), c(kHealthWords);
  for (uint32_t i = 0; i < kHealthWords; ++i) {
    a[i] = 0x5EC00000u | (i & 0xFFFFu);
    bb[i] = (i * 7u) & 0xFFFu;
    c[i] = a[i] + bb[i];
  }
  v.va = v.regions.size();
  if (!add("health-a", framed(a)))
    return std::nullopt;
  v.vb = v.regions.size();
  if (!add("health-b", framed(bb)))
    return std::nullopt;
  v.vc = v.regions.size();
  if (!add("health-c", framed(c)))
    return std::nullopt;
  // The rest of the arena: canaries.
  std::string fillError;
  std::vector<Buffer> rest = fillArena(*v.p, {}, fillError);
  for (size_t i = 0; i < rest.size(); ++i)
    v.regions.push_back({"filler-" + std::to_string(i), rest[i], canaryWords(rest[i].size())});
  for (Region &r : v.regions)
    if (Status s = v.p->copyToDevice(r.buf, r.image); !s) {
      error = describe(s.error());
      return std::nullopt;
    }
  if (Status s = v.p->synchronize(); !s) {
    error = describe(s.error());
    return std::nullopt;
  }
  auto addr = v.p->deviceAddress(v.regions[v.secret].buf, kCanaryBytes);
  if (!addr) {
    error = describe(addr.error());
    return std::nullopt;
  }
  v.secretAddr = *addr;
  return v;
}

uint64_t victimCoverage(const Victim &v) {
  uint64_t n = 0;
  for (const Region &r : v.regions)
    n += r.buf.size();
  return n;
}

/// Compares the victim's whole arena with its image. Changed regions are restored
/// from the image afterwards, so that the next attack is judged on its own.
bool checkVictim(Victim &v, std::vector<std::string> &details) {
  uint64_t changed = 0;
  std::string first;
  std::vector<Region *> dirty;
  for (Region &r : v.regions) {
    std::vector<uint32_t> now(r.image.size());
    if (Status s = v.p->copyToHost(now, r.buf); !s) {
      details.push_back("cannot read the victim's " + r.name + ": " + describe(s.error()));
      return false;
    }
    bool regionChanged = false;
    for (size_t i = 0; i < now.size(); ++i)
      if (now[i] != r.image[i]) {
        if (changed < 4)
          first += std::string(changed ? "; " : "") + r.name + "+" + hex(4 * i) + ": " +
                   hex(r.image[i]) + " -> " + hex(now[i]) +
                   (r.image[i] == kCanary ? " (canary)" : " (data)");
        ++changed;
        regionChanged = true;
      }
    if (regionChanged)
      dirty.push_back(&r);
  }
  if (changed) {
    details.push_back("BREACH: " + std::to_string(changed) +
                      " word(s) of the victim's arena changed: " + first);
    bool restored = true;
    for (Region *r : dirty)
      restored = restored && v.p->copyToDevice(r->buf, r->image).ok();
    details.push_back(restored ? "(the victim's arena was restored from its image)"
                               : "the victim's arena could NOT be restored: later results "
                                 "may repeat this breach");
    return false;
  }
  return true;
}

/// The victim's benign kernel: recompute c = a + b and compare (with c's canaries).
bool victimHealth(Victim &v, std::vector<std::string> &details) {
  Region &rc = v.regions[v.vc];
  if (Status s = v.p->fill(rc.buf, kCanaryBytes, kHealthWords * 4, 0); !s) {
    details.push_back("UNHEALTHY: victim fill failed: " + describe(s.error()));
    return false;
  }
  Status s = v.p->launch(v.vadd, LaunchConfig{Dim3(kHealthWords / 256), Dim3(256)},
                         Arg::buffer(v.regions[v.va].buf, kCanaryBytes),
                         Arg::buffer(v.regions[v.vb].buf, kCanaryBytes),
                         Arg::buffer(rc.buf, kCanaryBytes), Arg::u32(kHealthWords));
  if (s)
    s = v.p->synchronize();
  if (!s) {
    details.push_back("UNHEALTHY: the victim's vadd failed: " + describe(s.error()));
    return false;
  }
  std::vector<uint32_t> now(rc.image.size());
  if (Status c = v.p->copyToHost(now, rc.buf); !c) {
    details.push_back("UNHEALTHY: cannot read the victim's result: " + describe(c.error()));
    return false;
  }
  for (size_t i = 0; i < now.size(); ++i)
    if (now[i] != rc.image[i]) {
      details.push_back("UNHEALTHY: the victim's vadd result differs at health-c+" + hex(4 * i) +
                        ": " + hex(now[i]) + ", expected " + hex(rc.image[i]));
      return false;
    }
  return true;
}

// --- the concurrent victim workload --------------------------------------------------------

class Worker {
public:
  bool start(Runtime &rt, const Application &controlsApp, milliseconds timeout,
             std::string &error) {
    PipelineOptions po;
    po.arenaBytes = 4 * kMiB;
    po.name = "victim-concurrent";
    po.timeout = timeout;
    auto p = rt.createPipeline(po);
    if (!p) {
      error = describe(p.error());
      return false;
    }
    p_ = std::move(*p);
    auto k1 = controlsApp.kernel("vadd_u32");
    auto k2 = controlsApp.kernel("matmul_tiled_i32");
    if (!k1 || !k2) {
      error = "controls module lacks vadd_u32/matmul_tiled_i32";
      return false;
    }
    vadd_ = *k1;
    matmul_ = *k2;
    for (uint64_t bytes : {4ull * kN, 4ull * kN, 4ull * kN, 4ull * kM * kM, 4ull * kM * kM,
                           4ull * kM * kM}) {
      auto b = p_->allocate(bytes);
      if (!b) {
        error = describe(b.error());
        return false;
      }
      bufs_.push_back(*b);
    }
    thread_ = std::thread([this] { loop(); });
    return true;
  }
  void markPhase() { atPhaseStart_ = iterations_.load(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
  }
  uint64_t iterations() const { return iterations_.load(); }
  uint64_t duringPhase() const { return iterations_.load() - atPhaseStart_; }
  uint64_t failures() const { return failures_.load(); }
  std::string firstFailure() {
    std::lock_guard g(mutex_);
    return firstFailure_;
  }
  ~Worker() { stop(); }

private:
  static constexpr uint32_t kN = 65536, kM = 64;
  void fail(const std::string &why) {
    failures_++;
    std::lock_guard g(mutex_);
    if (firstFailure_.empty())
      firstFailure_ = "iteration " + std::to_string(iterations_.load()) + ": " + why;
  }
  void loop() {
    std::vector<uint32_t> a(kN), b(kN), c(kN);
    std::vector<int32_t> A(kM * kM), B(kM * kM), C(kM * kM), ref(kM * kM);
    uint32_t seed = 12345;
    auto next = [&]() {
      seed ^= seed << 13;
      seed ^= seed >> 17;
      seed ^= seed << 5;
      return seed;
    };
    while (!stop_) {
      for (uint32_t i = 0; i < kN; ++i) {
        a[i] = next();
        b[i] = next();
      }
      for (uint32_t i = 0; i < kM * kM; ++i) {
        A[i] = int32_t(next() & 0xFF);
        B[i] = int32_t(next() & 0xFF);
      }
      Status s = p_->copyToDevice(bufs_[0], a);
      if (s) s = p_->copyToDevice(bufs_[1], b);
      if (s) s = p_->copyToDevice(bufs_[3], A);
      if (s) s = p_->copyToDevice(bufs_[4], B);
      if (s)
        s = p_->launch(vadd_, LaunchConfig{Dim3(kN / 256), Dim3(256)}, bufs_[0], bufs_[1],
                       bufs_[2], kN);
      if (s)
        s = p_->launch(matmul_, LaunchConfig{Dim3(kM / 16, kM / 16), Dim3(16, 16)}, bufs_[3],
                       bufs_[4], bufs_[5], kM);
      if (s) s = p_->synchronize();
      if (s) s = p_->copyToHost(c, bufs_[2]);
      if (s) s = p_->copyToHost(C, bufs_[5]);
      if (!s) {
        fail(describe(s.error()));
        if (s.error().code() == ErrorCode::ContextLost || s.error().code() == ErrorCode::Timeout)
          return;
        continue;
      }
      for (uint32_t i = 0; i < kN; ++i)
        if (c[i] != a[i] + b[i]) {
          fail("vadd c[" + std::to_string(i) + "] = " + hex(c[i]) + ", expected " +
               hex(a[i] + b[i]));
          break;
        }
      for (uint32_t r = 0; r < kM; ++r)
        for (uint32_t col = 0; col < kM; ++col) {
          int32_t acc = 0;
          for (uint32_t k = 0; k < kM; ++k)
            acc += A[r * kM + k] * B[k * kM + col];
          ref[r * kM + col] = acc;
        }
      if (C != ref)
        fail("matmul result differs from the host reference");
      iterations_++;
    }
  }

  std::unique_ptr<Pipeline> p_;
  Kernel vadd_, matmul_;
  std::vector<Buffer> bufs_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> iterations_{0}, failures_{0};
  uint64_t atPhaseStart_ = 0;
  std::mutex mutex_;
  std::string firstFailure_;
};

// --- the suite ------------------------------------------------------------------------------

struct LoadedApp {
  std::shared_ptr<Application> app;
  std::optional<Error> error;
};

class Suite {
public:
  Suite(const Options &o, Report &r, Runtime &rt) : o_(o), report_(r), rt_(rt) {}

  int run();

private:
  LoadedApp &load(const std::string &module, Clamping c, unsigned opt);
  std::optional<AttackerPipe> &attacker(Clamping c);
  uint64_t attackerArena(Clamping c) const {
    return c == Clamping::MaskBased ? kAttackerMaskArena : kAttackerModuloArena;
  }
  bool resolve(const std::vector<ArgSpec> &specs, Role role, AttackerPipe *atk,
               Pipeline &on, const std::vector<Buffer> *ctlBufs, std::vector<Arg> &out,
               std::string &error);
  Result runControl(const Control &ctl, Clamping c);
  Result runAttack(const Attack &a, Clamping c, const std::string &phase);
  void contextCheck(Result &res);
  void finishVerdict(Result &res, const Attack &a, bool met);

  const Options &o_;
  Report &report_;
  Runtime &rt_;
  std::map<std::string, LoadedApp> apps_;
  std::optional<Victim> victim_;
  std::optional<AttackerPipe> atkMask_, atkModulo_;
  std::unique_ptr<Pipeline> ctlMask_, ctlModulo_;
  bool lost_ = false;
  std::string lostAfter_;
  bool timeoutRan_ = false;
};

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
  } else if (a.timeoutMs) {
    own = makeAttacker(rt_, attackerArena(c), "attacker-timeout", milliseconds(a.timeoutMs), err);
    if (!own) {
      res.observed = "cannot create the timeout pipeline: " + err;
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
    Status s = on.launch(*k, LaunchConfig{l.grid, l.block, l.dynamicSharedBytes},
                         std::span<const Arg>(args));
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
  met = !lost_ && victimOk && noLeak && checksOk && healthy;
  if (met) {
    res.observed = "contained: victim intact, no leak, victim healthy";
    if (!a.checks.empty())
      res.observed += ", checks ok";
  } else {
    std::string what;
    if (lost_) what += "CONTEXT LOST ";
    if (!victimOk) what += "BREACH ";
    if (!noLeak) what += "LEAK ";
    if (!checksOk) what += "CHECK FAILED ";
    if (!healthy && !lost_) what += "VICTIM UNHEALTHY ";
    res.observed = what;
  }
  finishVerdict(res, a, met);
  return res;
}

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

} // namespace

int runGpu(const Options &o, Report &report, bool &noDevice) {
  noDevice = false;
  RuntimeOptions ro;
  ro.defaultTimeout = milliseconds(o.timeoutMs);
  ro.libdevicePath = o.libdevice;
  auto rt = Runtime::create(ro);
  if (!rt) {
    ErrorCode code = rt.error().code();
    if (code == ErrorCode::NoDriver || code == ErrorCode::NoDevice) {
      noDevice = true;
      std::fprintf(stderr, "atoll-attacks: no usable GPU: %s\n",
                   firstLine(rt.error().describe(), 300).c_str());
      return 77;
    }
    std::fprintf(stderr, "atoll-attacks: cannot create the runtime: %s\n",
                 rt.error().describe().c_str());
    return 1;
  }
  if (!(*rt)->hasDevice()) {
    noDevice = true;
    std::fprintf(stderr, "atoll-attacks: the runtime has no device (compile-only)\n");
    return 77;
  }
  Suite suite(o, report, **rt);
  int rc = suite.run();
  if (rc)
    return rc;
  return report.count(Verdict::Fail) ? 1 : 0;
}

} // namespace AtollAttacks
