// GPU mode of atoll-attacks (internal): one Runtime, one victim, attackers in their
// own arenas. GpuTenants.cpp: the attacker and victim pipelines and the concurrent
// workload; GpuSuite.cpp: running one attack or control; GpuSuiteRun.cpp: the
// phases of the run.
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
#pragma once

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

namespace AtollAttacks::gpu {

using namespace Atoll;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

inline std::string describe(const Error &e) { return firstLine(e.describe(), 300); }

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
std::vector<Buffer> fillArena(Pipeline &p, std::vector<uint64_t> first, std::string &error);
std::optional<AttackerPipe> makeAttacker(Runtime &rt, uint64_t arenaBytes, const std::string &name,
                                         milliseconds timeout, std::string &error);
Status initAttacker(AttackerPipe &a);
/// Copies every attacker buffer to the host; reports victim words found in it.
bool scanAttacker(AttackerPipe &a, std::vector<std::vector<uint32_t>> &host,
                  std::vector<std::string> &details);

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

std::optional<Victim> makeVictim(Runtime &rt, const Application &controlsApp,
                                 const std::string &name, milliseconds timeout,
                                 std::string &error);
uint64_t victimCoverage(const Victim &v);
/// Compares the victim's whole arena with its image. Changed regions are restored
/// from the image afterwards, so that the next attack is judged on its own.
bool checkVictim(Victim &v, std::vector<std::string> &details);
/// The victim's benign kernel: recompute c = a + b and compare (with c's canaries).
bool victimHealth(Victim &v, std::vector<std::string> &details);

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

} // namespace AtollAttacks::gpu
