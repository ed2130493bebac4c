// Section "overhead": kernel time of hardened vs native code.
//
// Every kernel of bench/kernels runs, with the same inputs and sizes, as
//   native      the unhardened PTX of the same bitcode (embedded at build time, same
//               toolchain without the AToLL passes), cuModuleLoadData + raw
//               cuLaunchKernel on plain cuMemAlloc'd buffers, timed with CUDA events
//               on the launching stream;
//   mask        hardened, mask-based: Runtime::loadApplication + Pipeline::launch
//               (what users get), timed by the pipeline's own events (PipelineStats::
//               gpuTime of a batch that holds only the timed launches);
//   modulo      hardened, modulo-based, the same way;
//   mask-raw,   the hardened PTX of those applications (Application::ptx()) loaded
//   modulo-raw  by the benchmark and launched with raw cuLaunchKernel on the native
//               stream, buffers in the pipeline's arena, the three hidden parameters
//               appended by hand: the same timing method as native, so the runtime
//               and raw numbers cross-check each other.
//   mask-nocheck-raw  the same bitcode hardened without the preemption checks
//               (embedded at build time by atoll-bench-ptxgen, Preempt = false):
//               mask-raw / mask-nocheck-raw is the checks' cost;
//   mask-fuel-raw  the mask-raw PTX with a fuel budget (2^62) in its control block:
//               the cost of fuel accounting (the same code; only the budget differs).
// One timed "run" is R back-to-back launches, R calibrated so that a native run takes
// at least ~1-2 ms; variants are interleaved run by run (cancels clock drift); the
// median of >= 20 runs per variant is reported, and the ratio variant/native.
// Outputs are checked bitwise against native (every kernel is deterministic: the
// atomics kernels accumulate integers), and native against a CPU reference.
#include "Bench.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

namespace atoll_bench {
namespace {

using Atoll::Clamping;
using Atoll::Dim3;

enum class Elem { F32, U32, I32, U64, Node };

struct BufSpec {
  std::string name;
  size_t bytes = 0;
  bool output = false;
  Elem elem = Elem::F32;
  std::function<void(uint8_t *, size_t)> init; // inputs
};

struct ArgSpec {
  enum Kind { Buf, I32, I64, F32 } kind = I32;
  int buf = -1;
  int64_t i = 0;
  float f = 0;
  static ArgSpec b(int index) { return {Buf, index, 0, 0}; }
  static ArgSpec i32(int32_t v) { return {I32, -1, v, 0}; }
  static ArgSpec i64(int64_t v) { return {I64, -1, v, 0}; }
  static ArgSpec f32(float v) { return {F32, -1, 0, v}; }
};

using HostBuffers = std::vector<std::vector<uint8_t>>;

struct Case {
  std::string name;
  std::string description;
  std::vector<BufSpec> bufs;
  std::vector<ArgSpec> args;
  Dim3 grid, block;
  std::string check = "bitwise";
  /// Checks the native outputs (host[i] of output buffers) against a CPU
  /// reference on the inputs; "" when they agree.
  std::function<std::string(const HostBuffers &)> reference;
};

Case named(std::string name, std::string description) {
  Case c;
  c.name = std::move(name);
  c.description = std::move(description);
  return c;
}

// --- inputs --------------------------------------------------------------------------

std::function<void(uint8_t *, size_t)> floats(uint64_t seed, float lo, float hi) {
  return [=](uint8_t *p, size_t bytes) {
    Rng r(seed);
    float *f = reinterpret_cast<float *>(p);
    for (size_t i = 0; i < bytes / 4; ++i)
      f[i] = r.uniform(lo, hi);
  };
}
std::function<void(uint8_t *, size_t)> words(uint64_t seed, uint32_t mask) {
  return [=](uint8_t *p, size_t bytes) {
    Rng r(seed);
    uint32_t *w = reinterpret_cast<uint32_t *>(p);
    for (size_t i = 0; i < bytes / 4; ++i)
      w[i] = r.u32() & mask;
  };
}
std::function<void(uint8_t *, size_t)> indicesBelow(uint64_t seed, uint32_t n) {
  return [=](uint8_t *p, size_t bytes) {
    Rng r(seed);
    int32_t *w = reinterpret_cast<int32_t *>(p);
    for (size_t i = 0; i < bytes / 4; ++i)
      w[i] = int32_t(r.below(n));
  };
}
std::function<void(uint8_t *, size_t)> permutation(uint64_t seed) {
  return [=](uint8_t *p, size_t bytes) {
    Rng r(seed);
    int32_t *w = reinterpret_cast<int32_t *>(p);
    size_t n = bytes / 4;
    std::iota(w, w + n, 0);
    for (size_t i = n - 1; i > 0; --i)
      std::swap(w[i], w[r.below(i + 1)]);
  };
}

template <typename T> const T *as(const std::vector<uint8_t> &v) {
  return reinterpret_cast<const T *>(v.data());
}

/// Sample positions for reference checks.
std::vector<size_t> samples(size_t n, size_t count = 256, uint64_t seed = 99) {
  std::vector<size_t> s;
  Rng r(seed);
  s.push_back(0);
  s.push_back(n - 1);
  for (size_t i = 0; i < count; ++i)
    s.push_back(r.below(n));
  return s;
}

std::string mismatch(const std::string &what, size_t index, double got, double want) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s[%zu] = %.9g, reference %.9g", what.c_str(), index, got, want);
  return buf;
}

bool close(double got, double want, double tol) {
  return std::fabs(got - want) <= tol * (1.0 + std::fabs(want));
}

// --- the kernels ------------------------------------------------------------------------

std::vector<Case> makeCases(bool quick, bool tiny) {
  std::vector<Case> cases;
  // Element counts shrink 4x in quick mode (64x in the test-only tiny mode). The
  // full sizes make every native launch take about 1 ms on an H200 where the
  // arena allows (every case fits in 3 GiB, so the shared arena stays a 4 GiB
  // mask-capable one); up(m) scales a case up by m except in the tiny mode, whose
  // sizes the mock driver computes on the host.
  const int q = tiny ? 64 : quick ? 4 : 1;
  const int gemmN = tiny ? 256 : quick ? 1024 : 2048;
  auto up = [tiny](int m) { return tiny ? 1 : m; };

  { // vadd
    int n = (32 << 20) / q * up(8);
    Case c = named("vadd", "c = a + b (streaming)");
    c.bufs = {{"a", size_t(n) * 4, false, Elem::F32, floats(1, -1, 1)},
              {"b", size_t(n) * 4, false, Elem::F32, floats(2, -1, 1)},
              {"c", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const float *a = as<float>(h[0]), *b = as<float>(h[1]), *o = as<float>(h[2]);
      for (int i = 0; i < n; ++i)
        if (o[i] != a[i] + b[i])
          return mismatch("c", size_t(i), o[i], double(a[i] + b[i]));
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // saxpy
    int n = (32 << 20) / q * up(8);
    Case c = named("saxpy", "out = a*x + y (grid-stride loop, __restrict__)");
    c.bufs = {{"x", size_t(n) * 4, false, Elem::F32, floats(3, -1, 1)},
              {"y", size_t(n) * 4, false, Elem::F32, floats(4, -1, 1)},
              {"out", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::f32(2.5f), ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(2048);
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const float *x = as<float>(h[0]), *y = as<float>(h[1]), *o = as<float>(h[2]);
      for (size_t i : samples(size_t(n))) {
        double want = 2.5 * double(x[i]) + double(y[i]);
        if (!close(o[i], want, 1e-5))
          return mismatch("out", i, o[i], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // copy
    long long n = (64ll << 20) / q * up(5);
    Case c = named("copy", "dst = src (64-bit index)");
    c.bufs = {{"src", size_t(n) * 4, false, Elem::F32, floats(5, -1, 1)},
              {"dst", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i64(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [](const HostBuffers &h) -> std::string {
      if (std::memcmp(h[0].data(), h[1].data(), h[0].size()) != 0)
        return "dst differs from src";
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // stencil2d
    int nx = 8192, ny = 4096 / q * up(8);
    Case c = named("stencil2d", "5-point Jacobi step, 8192 x " + std::to_string(ny));
    size_t bytes = size_t(nx) * ny * 4;
    c.bufs = {{"in", bytes, false, Elem::F32, floats(6, -1, 1)},
              {"out", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(nx), ArgSpec::i32(ny)};
    c.grid = Dim3(uint32_t(nx / 32), uint32_t(ny / 8));
    c.block = Dim3(32, 8);
    c.reference = [nx, ny](const HostBuffers &h) -> std::string {
      const float *in = as<float>(h[0]), *o = as<float>(h[1]);
      for (size_t s : samples(size_t(nx) * ny)) {
        size_t x = s % nx, y = s / nx;
        double want = in[s];
        if (x > 0 && y > 0 && x + 1 < size_t(nx) && y + 1 < size_t(ny))
          want = 0.2 * (double(in[s]) + in[s - 1] + in[s + 1] + in[s - nx] + in[s + nx]);
        if (!close(o[s], want, 1e-5))
          return mismatch("out", s, o[s], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // stencil3d
    int nx = 512, ny = 512, nz = 128 / q * up(10);
    Case c = named("stencil3d", "7-point stencil, 512 x 512 x " + std::to_string(nz));
    size_t bytes = size_t(nx) * ny * nz * 4;
    c.bufs = {{"in", bytes, false, Elem::F32, floats(7, -1, 1)},
              {"out", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(nx), ArgSpec::i32(ny), ArgSpec::i32(nz)};
    c.grid = Dim3(uint32_t(nx / 32), uint32_t(ny / 8));
    c.block = Dim3(32, 8);
    c.reference = [nx, ny, nz](const HostBuffers &h) -> std::string {
      const float *in = as<float>(h[0]), *o = as<float>(h[1]);
      const size_t plane = size_t(nx) * ny;
      for (size_t s : samples(plane * nz)) {
        size_t x = s % nx, y = (s / nx) % ny, z = s / plane;
        double want = in[s];
        if (x > 0 && y > 0 && z > 0 && x + 1 < size_t(nx) && y + 1 < size_t(ny) &&
            z + 1 < size_t(nz))
          want = (1.0 / 7.0) * (double(in[s]) + in[s - 1] + in[s + 1] + in[s - nx] + in[s + nx] +
                                in[s - plane] + in[s + plane]);
        if (!close(o[s], want, 1e-5))
          return mismatch("out", s, o[s], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  auto gemmReference = [](int n) {
    return [n](const HostBuffers &h) -> std::string {
      const float *A = as<float>(h[0]), *B = as<float>(h[1]), *C = as<float>(h[2]);
      for (size_t s : samples(size_t(n) * n, 48)) {
        size_t row = s / n, col = s % n;
        double want = 0, mag = 0;
        for (int k = 0; k < n; ++k) {
          double t = double(A[row * n + k]) * B[size_t(k) * n + col];
          want += t;
          mag += std::fabs(t);
        }
        if (std::fabs(C[s] - want) > 1e-4 * mag + 1e-5)
          return mismatch("C", s, C[s], want);
      }
      return "";
    };
  };
  { // gemm_tiled
    int n = gemmN;
    Case c = named("gemm_tiled", "SGEMM " + std::to_string(n) + "^3, 16x16 shared-memory tiles");
    size_t bytes = size_t(n) * n * 4;
    c.bufs = {{"A", bytes, false, Elem::F32, floats(8, -1, 1)},
              {"B", bytes, false, Elem::F32, floats(9, -1, 1)},
              {"C", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 16), uint32_t(n / 16));
    c.block = Dim3(16, 16);
    c.reference = gemmReference(n);
    cases.push_back(std::move(c));
  }
  { // gemm_naive
    int n = gemmN;
    Case c = named("gemm_naive", "SGEMM " + std::to_string(n) + "^3, one thread per output");
    size_t bytes = size_t(n) * n * 4;
    c.bufs = {{"A", bytes, false, Elem::F32, floats(10, -1, 1)},
              {"B", bytes, false, Elem::F32, floats(11, -1, 1)},
              {"C", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 16), uint32_t(n / 16));
    c.block = Dim3(16, 16);
    c.reference = gemmReference(n);
    cases.push_back(std::move(c));
  }
  { // reduce_atomic
    int n = (64 << 20) / q * up(8);
    Case c = named("reduce_atomic", "sum of u32: shared-memory tree + one 64-bit atomicAdd per block");
    c.bufs = {{"in", size_t(n) * 4, false, Elem::U32, words(12, 0xffff)},
              {"sum", 8, true, Elem::U64, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(n)};
    c.grid = Dim3(2048);
    c.block = Dim3(256);
    c.check = "bitwise (integer atomics: order-independent)";
    c.reference = [n](const HostBuffers &h) -> std::string {
      const uint32_t *in = as<uint32_t>(h[0]);
      uint64_t want = 0;
      for (int i = 0; i < n; ++i)
        want += in[i];
      uint64_t got = *as<uint64_t>(h[1]);
      if (got != want)
        return mismatch("sum", 0, double(got), double(want));
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // histogram
    int n = (64 << 20) / q * up(8);
    Case c = named("histogram", "256-bin histogram: shared atomics, merged with global atomics");
    c.bufs = {{"in", size_t(n) * 4, false, Elem::U32, words(13, 0xffffffffu)},
              {"bins", 256 * 4, true, Elem::U32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(n)};
    c.grid = Dim3(2048);
    c.block = Dim3(256);
    c.check = "bitwise (integer atomics: order-independent)";
    c.reference = [n](const HostBuffers &h) -> std::string {
      const uint32_t *in = as<uint32_t>(h[0]), *bins = as<uint32_t>(h[1]);
      std::vector<uint32_t> want(256, 0);
      for (int i = 0; i < n; ++i)
        want[in[i] & 255u]++;
      for (int b = 0; b < 256; ++b)
        if (bins[b] != want[b])
          return mismatch("bins", size_t(b), bins[b], want[b]);
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // gather_scatter
    int n = (16 << 20) / q;
    Case c = named("gather_scatter", "dst[sidx[i]] = 2*src[gidx[i]] + 1 (random indices)");
    c.bufs = {{"src", size_t(n) * 4, false, Elem::F32, floats(14, -1, 1)},
              {"gidx", size_t(n) * 4, false, Elem::I32, indicesBelow(15, uint32_t(n))},
              {"sidx", size_t(n) * 4, false, Elem::I32, permutation(16)},
              {"dst", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::b(3), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const float *src = as<float>(h[0]), *dst = as<float>(h[3]);
      const int32_t *g = as<int32_t>(h[1]), *s = as<int32_t>(h[2]);
      for (int i = 0; i < n; ++i) {
        float want = 2.0f * src[g[i]] + 1.0f;
        if (dst[s[i]] != want)
          return mismatch("dst", size_t(s[i]), dst[s[i]], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // transpose
    int w = 8192, hgt = 4096 / q * up(12);
    Case c = named("transpose", "8192 x " + std::to_string(hgt) + ", 32x32 shared-memory tiles");
    size_t bytes = size_t(w) * hgt * 4;
    c.bufs = {{"in", bytes, false, Elem::F32, floats(17, -1, 1)},
              {"out", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(w), ArgSpec::i32(hgt)};
    c.grid = Dim3(uint32_t(w / 32), uint32_t(hgt / 32));
    c.block = Dim3(32, 8);
    c.reference = [w, hgt](const HostBuffers &h) -> std::string {
      const float *in = as<float>(h[0]), *o = as<float>(h[1]);
      for (size_t s : samples(size_t(w) * hgt, 4096)) {
        size_t row = s / w, col = s % w; // in[row][col] -> out[col][row]
        float got = o[col * hgt + row];
        if (got != in[s])
          return mismatch("out", col * hgt + row, got, in[s]);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // local_array
    int n = (4 << 20) / q;
    Case c = named("local_array", "per-thread float[32] with data-dependent indices (local memory)");
    c.bufs = {{"keys", size_t(n) * 4, false, Elem::U32, words(18, 0xffffffffu)},
              {"vals", size_t(n) * 4, false, Elem::F32, floats(19, -1, 1)},
              {"out", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const uint32_t *keys = as<uint32_t>(h[0]);
      const float *vals = as<float>(h[1]), *o = as<float>(h[2]);
      for (size_t i : samples(size_t(n))) {
        float buf[32];
        for (int k = 0; k < 32; ++k)
          buf[k] = vals[i] * float(k + 1);
        uint32_t state = keys[i];
        float acc = 0;
        for (uint32_t r = 0; r < 64; ++r) {
          state = state * 1664525u + 1013904223u;
          uint32_t idx = (state >> 16) & 31u;
          acc += buf[idx];
          buf[(idx + r) & 31u] = acc * 0.5f;
        }
        if (!close(o[i], acc, 1e-5))
          return mismatch("out", i, o[i], acc);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // const_table
    int n = (32 << 20) / q * up(3);
    Case c = named("const_table", "32-tap FIR from __constant__ taps + data-dependent __constant__ lookup");
    c.bufs = {{"in", size_t(n + 32) * 4, false, Elem::F32, floats(20, -1, 1)},
              {"keys", size_t(n) * 4, false, Elem::U32, words(21, 0xffffffffu)},
              {"out", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const float *in = as<float>(h[0]), *o = as<float>(h[2]);
      const uint32_t *keys = as<uint32_t>(h[1]);
      for (size_t i : samples(size_t(n))) {
        double want = 0, mag = 0;
        for (int k = 0; k < 32; ++k) {
          double t = double(float(k % 7 + 1) * 0.03125f) * in[i + k];
          want += t;
          mag += std::fabs(t);
        }
        want += double(float((keys[i] & 255u) % 17) * 0.25f - 2.0f);
        if (std::fabs(o[i] - want) > 1e-5 * (mag + 2.0) + 1e-6)
          return mismatch("out", i, o[i], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // vec4
    int n4 = (8 << 20) / q * up(8);
    Case c = named("vec4", "out = s*a + b on float4 (16-byte loads and stores)");
    size_t bytes = size_t(n4) * 16;
    c.bufs = {{"a", bytes, false, Elem::F32, floats(22, -1, 1)},
              {"b", bytes, false, Elem::F32, floats(23, -1, 1)},
              {"out", bytes, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::f32(1.5f), ArgSpec::i32(n4)};
    c.grid = Dim3(uint32_t(n4 / 256));
    c.block = Dim3(256);
    c.reference = [n4](const HostBuffers &h) -> std::string {
      const float *a = as<float>(h[0]), *b = as<float>(h[1]), *o = as<float>(h[2]);
      for (size_t i : samples(size_t(n4) * 4)) {
        double want = 1.5 * double(a[i]) + double(b[i]);
        if (!close(o[i], want, 1e-5))
          return mismatch("out", i, o[i], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // libdevice_math
    int n = (8 << 20) / q * up(6);
    Case c = named("libdevice_math", "8 rounds of sinf, expf, logf (libdevice) per element");
    c.bufs = {{"in", size_t(n) * 4, false, Elem::F32, floats(24, -4, 4)},
              {"out", size_t(n) * 4, true, Elem::F32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::i32(n)};
    c.grid = Dim3(uint32_t(n / 256));
    c.block = Dim3(256);
    c.reference = [n](const HostBuffers &h) -> std::string {
      const float *in = as<float>(h[0]), *o = as<float>(h[1]);
      for (size_t i : samples(size_t(n))) {
        double v = in[i], acc = 0;
        for (int k = 0; k < 8; ++k) {
          acc += std::sin(v) * std::exp(-0.5 * v) + std::log(1.0 + v * v);
          v = v * 1.1 + 0.3;
        }
        if (!close(o[i], acc, 1e-3))
          return mismatch("out", i, o[i], acc);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  { // pointer_chase
    int nodes = (16 << 20) / q, threads = (256 << 10) / q * up(3), hops = 64;
    Case c = named("pointer_chase", std::to_string(threads) + " threads x 64 dependent hops through a " +
                                std::to_string(nodes) + "-node linked list");
    c.bufs = {{"nodes", size_t(nodes) * 8, false, Elem::Node,
               [](uint8_t *p, size_t bytes) {
                 // One random cycle through every node (Sattolo), random payloads.
                 size_t n = bytes / 8;
                 int32_t *w = reinterpret_cast<int32_t *>(p);
                 std::vector<int32_t> perm(n);
                 std::iota(perm.begin(), perm.end(), 0);
                 Rng r(25);
                 for (size_t i = n - 1; i > 0; --i)
                   std::swap(perm[i], perm[r.below(i)]);
                 for (size_t i = 0; i < n; ++i) {
                   w[2 * i] = perm[i];
                   w[2 * i + 1] = int32_t(r.u32() & 0xffff);
                 }
               }},
              {"start", size_t(threads) * 4, false, Elem::I32, indicesBelow(26, uint32_t(nodes))},
              {"out", size_t(threads) * 4, true, Elem::I32, {}}};
    c.args = {ArgSpec::b(0), ArgSpec::b(1), ArgSpec::b(2), ArgSpec::i32(hops),
              ArgSpec::i32(threads)};
    c.grid = Dim3(uint32_t(threads / 256));
    c.block = Dim3(256);
    c.reference = [threads, hops](const HostBuffers &h) -> std::string {
      const int32_t *nd = as<int32_t>(h[0]), *start = as<int32_t>(h[1]), *o = as<int32_t>(h[2]);
      for (size_t i : samples(size_t(threads))) {
        int32_t p = start[i], sum = 0;
        for (int k = 0; k < hops; ++k) {
          sum += nd[2 * p + 1];
          p = nd[2 * p];
        }
        if (o[i] != (sum ^ p))
          return mismatch("out", i, o[i], sum ^ p);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  return cases;
}

// --- variants -------------------------------------------------------------------------

// NativeArena: the native PTX on the pipeline's buffers (a diagnostic: separates the
// cost of the hardened code from any effect of where the memory is).
enum class Path { Native, NativeArena, Runtime, Raw };

struct Variant {
  Variant(std::string id, Path path, Clamping mode, std::string timing)
      : id(std::move(id)), path(path), mode(mode), timing(std::move(timing)) {}
  std::string id;
  Path path;
  Clamping mode = Clamping::MaskBased;
  std::string timing;
  // Per case:
  std::shared_ptr<Atoll::Application> app;
  Atoll::Kernel kernel;
  std::unique_ptr<PtxModule> module;
  CUfunction fn = nullptr;
  std::string ptx;  // raw variants compiled by the benchmark (no application)
  bool fuel = false; // launched with the fuel control block
  std::vector<double> runs; // ms per run (R launches)
  bool available = true;
  std::string unavailable;
};

size_t countOf(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1))
    ++n;
  return n;
}

/// Static counts of the instructions the confinement uses (in the kernel PTX).
Json ptxStats(const std::string &ptx) {
  Json j = Json::object();
  size_t lines = 0;
  for (char c : ptx)
    lines += c == '\n';
  j["lines"] = lines;
  j["and_b64"] = countOf(ptx, "and.b64");
  j["and_b32"] = countOf(ptx, "and.b32"); // mask mode and object clamps: 32-bit offsets
  j["or_b64"] = countOf(ptx, "or.b64");
  j["min_u64"] = countOf(ptx, "min.u64");
  j["min_u32"] = countOf(ptx, "min.u32");
  j["rem_u64"] = countOf(ptx, "rem.u64");
  j["rem_u32"] = countOf(ptx, "rem.u32");
  j["isspacep"] = countOf(ptx, "isspacep");
  j["ld_global_nc"] = countOf(ptx, "ld.global.nc");
  j["local_accesses"] = countOf(ptx, "ld.local") + countOf(ptx, "st.local");
  return j;
}

Json functionAttributes(const Gpu &gpu, CUfunction fn) {
  Json j = Json::object();
  int regs = 0, local = 0, shared = 0;
  gpu.api->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  gpu.api->cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
  gpu.api->cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
  j["registers"] = regs;
  j["local_bytes"] = local;
  j["static_shared_bytes"] = shared;
  return j;
}

uint64_t nextPow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

/// Compares an output buffer of a variant with native's; "" when bitwise equal.
std::string compareOutput(const BufSpec &b, const std::vector<uint8_t> &want,
                          const std::vector<uint8_t> &got) {
  if (want.size() == got.size() && std::memcmp(want.data(), got.data(), want.size()) == 0)
    return "";
  size_t words = want.size() / 4, differing = 0, first = SIZE_MAX;
  double maxAbs = 0;
  for (size_t i = 0; i < words; ++i) {
    uint32_t a, c;
    std::memcpy(&a, want.data() + 4 * i, 4);
    std::memcpy(&c, got.data() + 4 * i, 4);
    if (a == c)
      continue;
    ++differing;
    if (first == SIZE_MAX)
      first = i;
    if (b.elem == Elem::F32) {
      float fa, fc;
      std::memcpy(&fa, &a, 4);
      std::memcpy(&fc, &c, 4);
      maxAbs = std::max(maxAbs, double(std::fabs(fa - fc)));
    }
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %zu of %zu words differ (first at word %zu)%s", b.name.c_str(),
                differing, words, first,
                b.elem == Elem::F32 ? (", max abs diff " + std::to_string(maxAbs)).c_str() : "");
  return buf;
}

std::string fmtRatio(double r) {
  if (!std::isfinite(r))
    return "   -  ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%6.3f", r);
  return buf;
}

} // namespace

void runOverhead(Context &ctx) {
  Results &res = *ctx.results;
  const Options &opts = ctx.opts;
  const Gpu &gpu = *ctx.gpu;
  Atoll::Runtime &rt = *ctx.runtime;
  Json &out = res.root["sections"]["overhead"];
  Budget budget{Clock::now(), opts.quick ? 70.0 : 200.0};
  const int minReps = 20;
  const int reps = opts.quick ? 20 : 30;
  const double targetRunMs = opts.quick ? 1.0 : 2.0;
  const std::filesystem::path ptxDir = std::filesystem::path(opts.outDir) / "ptx";
  std::error_code ec;
  std::filesystem::create_directories(ptxDir, ec);

  std::vector<Case> cases = makeCases(opts.quick, opts.tiny);
  uint64_t maxBytes = 0;
  for (const Case &c : cases) {
    uint64_t sum = 0;
    for (const BufSpec &b : c.bufs)
      sum += (b.bytes + 4095) / 4096 * 4096;
    maxBytes = std::max(maxBytes, sum);
  }
  const uint64_t arenaBytes = std::max<uint64_t>(64ull << 20, nextPow2(maxBytes + (4ull << 20)));
  out["arena_bytes"] = arenaBytes;
  out["repetitions"] = reps;
  out["target_run_ms"] = targetRunMs;
  out["method"] =
      "median over interleaved runs of R back-to-back launches; native and *-raw timed with CUDA "
      "events on the benchmark's stream, mask/modulo with the pipeline's events "
      "(PipelineStats::gpuTime); ratio = median(variant) / median(native)";

  gpu.makeCurrent();
  CUstream stream = nullptr;
  CU(gpu, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  struct StreamGuard {
    const Gpu &g;
    CUstream s;
    ~StreamGuard() {
      g.api->cuCtxSetCurrent(g.primary);
      g.api->cuStreamSynchronize(s);
      g.api->cuStreamDestroy(s);
    }
  } streamGuard{gpu, stream};
  EventTimer timer(gpu);

  Atoll::PipelineOptions po;
  po.arenaBytes = arenaBytes;
  po.name = "bench-overhead";
  auto pipeline = take(rt.createPipeline(po), "creating the overhead pipeline");
  const bool maskArena = pipeline->arenaMode() == Clamping::MaskBased;
  out["pipeline_arena_mode"] = std::string(Atoll::to_string(pipeline->arenaMode()));
  check(pipeline->synchronize(), "waiting for the arena scrub");
  // Control blocks of the raw hardened launches (abi.h): one without fuel (cancel 0,
  // fuel 0 = unlimited), one with a budget that never runs out (2^62 edges).
  CUdeviceptr controls = 0;
  gpu.makeCurrent();
  CU(gpu, cuMemAlloc(&controls, 2 * ATOLL_CONTROL_BLOCK_BYTES));
  CU(gpu, cuMemsetD8(controls, 0, 2 * ATOLL_CONTROL_BLOCK_BYTES));
  {
    const uint64_t budget = 1ull << 62;
    CU(gpu, cuMemcpyHtoD(controls + ATOLL_CONTROL_BLOCK_BYTES + ATOLL_CONTROL_FUEL_OFFSET,
                         &budget, sizeof budget));
  }
  struct ControlGuard {
    const Gpu &g;
    CUdeviceptr p;
    ~ControlGuard() {
      g.makeCurrent();
      g.api->cuMemFree(p);
    }
  } controlGuard{gpu, controls};

  std::map<std::string, std::vector<std::pair<std::string, double>>> ratiosByVariant;
  int mismatches = 0;
  log("%-15s %4s %10s | %8s %8s | %8s %8s | %9s | %s", "kernel", "R", "native ms", "mask",
      "modulo", "mask-raw", "mod-raw", "nat-arena", "check");
  bool first = true;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const Case &c = cases[ci];
    Json k = Json::object();
    k["name"] = c.name;
    k["description"] = c.description;
    k["grid"] = Json::array();
    k["grid"].push(c.grid.x);
    k["grid"].push(c.grid.y);
    k["grid"].push(c.grid.z);
    k["block"] = Json::array();
    k["block"].push(c.block.x);
    k["block"].push(c.block.y);
    k["block"].push(c.block.z);
    k["check_mode"] = c.check;
    if (budget.spent()) {
      res.error("overhead", "time budget spent: skipped " + c.name);
      k["skipped"] = "time budget spent";
      out["kernels"].push(std::move(k));
      continue;
    }
    std::vector<CUdeviceptr> nat(c.bufs.size(), 0);
    std::vector<Atoll::Buffer> hard(c.bufs.size());
    auto freeAll = [&] {
      gpu.api->cuCtxSetCurrent(gpu.primary);
      gpu.api->cuStreamSynchronize(stream);
      for (CUdeviceptr p : nat)
        if (p)
          gpu.api->cuMemFree(p);
      (void)pipeline->synchronize();
      for (const auto &b : hard)
        if (b.valid())
          (void)pipeline->free(b);
    };
    std::vector<Variant> variants;
    const auto caseStart = Clock::now();
    try {
      auto bytes = readBitcode(opts, c.name);
      const EmbeddedPtx &native = nativePtxFor(c.name, bytes);

      // Inputs.
      HostBuffers host(c.bufs.size());
      uint64_t total = 0;
      for (size_t b = 0; b < c.bufs.size(); ++b) {
        total += c.bufs[b].bytes;
        if (!c.bufs[b].output) {
          host[b].resize(c.bufs[b].bytes);
          c.bufs[b].init(host[b].data(), host[b].size());
        }
      }
      k["bytes"] = total;
      k["setup_seconds"] = secondsSince(caseStart);

      // Native buffers (cuMemAlloc) and hardened buffers (the pipeline's arena).
      gpu.makeCurrent();
      for (size_t b = 0; b < c.bufs.size(); ++b) {
        CU(gpu, cuMemAlloc(&nat[b], c.bufs[b].bytes));
        hard[b] = take(pipeline->allocate(c.bufs[b].bytes), "allocating " + c.bufs[b].name);
        if (!c.bufs[b].output) {
          CU(gpu, cuMemcpyHtoD(nat[b], host[b].data(), host[b].size()));
          check(pipeline->copyToDevice(hard[b], 0, host[b].data(), host[b].size()),
                "copying " + c.bufs[b].name);
        }
      }
      std::vector<uint64_t> hardAddr(c.bufs.size());
      for (size_t b = 0; b < c.bufs.size(); ++b)
        hardAddr[b] = take(pipeline->deviceAddress(hard[b]), "deviceAddress");

      // Modules.
      gpu.makeCurrent();
      PtxModule nativeModule(gpu, native.ptx, c.name + " (native)");
      variants.emplace_back("native", Path::Native, Clamping::MaskBased, "cuda-events");
      variants.back().fn = nativeModule.function(c.name);
      variants.emplace_back("native-arena", Path::NativeArena, Clamping::MaskBased, "cuda-events");
      variants.back().fn = variants.front().fn;
      for (Clamping mode : {Clamping::MaskBased, Clamping::ModuloBased}) {
        Atoll::AppOptions ao;
        ao.clamping = mode;
        ao.name = "bench-" + c.name + "-" + std::string(Atoll::to_string(mode));
        auto app = take(rt.loadApplication(bytes.data(), bytes.size(), ao),
                        "loading " + c.name + " (" + std::string(Atoll::to_string(mode)) + ")");
        std::string tag = mode == Clamping::MaskBased ? "mask" : "modulo";
        Variant v{tag, Path::Runtime, mode, "pipeline-gpuTime"};
        v.app = app;
        v.kernel = take(app->kernel(c.name), "kernel " + c.name);
        Variant raw{tag + "-raw", Path::Raw, mode, "cuda-events"};
        raw.app = app;
        gpu.makeCurrent();
        raw.module = std::make_unique<PtxModule>(gpu, app->ptx(), c.name + " (" + tag + ")");
        raw.fn = raw.module->function(c.name);
        if (mode == Clamping::MaskBased && !maskArena) {
          v.available = raw.available = false;
          v.unavailable = raw.unavailable = "the pipeline's arena is not mask-capable";
        }
        std::ofstream(ptxDir / (c.name + "." + tag + ".ptx")) << app->ptx();
        if (mode == Clamping::MaskBased) {
          Variant nocheck{"mask-nocheck-raw", Path::Raw, mode, "cuda-events"};
          Variant fuel{"mask-fuel-raw", Path::Raw, mode, "cuda-events"};
          // Built with the native PTX (atoll-bench-ptxgen, Preempt = false).
          nocheck.ptx = native.nocheckPtx;
          nocheck.module = std::make_unique<PtxModule>(gpu, nocheck.ptx, c.name + " (nocheck)");
          nocheck.fn = nocheck.module->function(c.name);
          fuel.app = app;
          fuel.fuel = true;
          fuel.module = std::make_unique<PtxModule>(gpu, app->ptx(), c.name + " (fuel)");
          fuel.fn = fuel.module->function(c.name);
          nocheck.available = fuel.available = raw.available;
          nocheck.unavailable = fuel.unavailable = raw.unavailable;
          std::ofstream(ptxDir / (c.name + ".mask-nocheck.ptx")) << nocheck.ptx;
          variants.push_back(std::move(v));
          variants.push_back(std::move(raw));
          variants.push_back(std::move(nocheck));
          variants.push_back(std::move(fuel));
          continue;
        }
        variants.push_back(std::move(v));
        variants.push_back(std::move(raw));
      }
      // Order: native, native-arena, mask, mask-raw, modulo, modulo-raw.
      std::ofstream(ptxDir / (c.name + ".native.ptx")) << native.ptx;

      // Launch arguments.
      std::vector<uint64_t> nativeStore(c.args.size()),
          hardStore(c.args.size() + ATOLL_HIDDEN_PARAM_COUNT);
      std::vector<void *> nativeParams, hardParams, nativeArenaParams, fuelParams;
      std::vector<Atoll::Arg> rtArgs;
      for (size_t a = 0; a < c.args.size(); ++a) {
        const ArgSpec &s = c.args[a];
        uint64_t nv = 0, hv = 0;
        switch (s.kind) {
        case ArgSpec::Buf:
          nv = nat[size_t(s.buf)];
          hv = hardAddr[size_t(s.buf)];
          rtArgs.push_back(Atoll::Arg::buffer(hard[size_t(s.buf)]));
          break;
        case ArgSpec::I32: {
          int32_t v = int32_t(s.i);
          std::memcpy(&nv, &v, 4);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::i32(v));
          break;
        }
        case ArgSpec::I64:
          std::memcpy(&nv, &s.i, 8);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::i64(s.i));
          break;
        case ArgSpec::F32:
          std::memcpy(&nv, &s.f, 4);
          hv = nv;
          rtArgs.push_back(Atoll::Arg::f32(s.f));
          break;
        }
        nativeStore[a] = nv;
        hardStore[a] = hv;
      }
      hardStore[c.args.size() + ATOLL_HIDDEN_ARENA_BASE_INDEX] = pipeline->arenaBase();
      hardStore[c.args.size() + ATOLL_HIDDEN_ARENA_SIZE_INDEX] = pipeline->arenaBytes();
      hardStore[c.args.size() + ATOLL_HIDDEN_CONTROL_INDEX] = controls;
      std::vector<uint64_t> fuelStore = hardStore;
      fuelStore[c.args.size() + ATOLL_HIDDEN_CONTROL_INDEX] = controls + ATOLL_CONTROL_BLOCK_BYTES;
      for (auto &v : nativeStore)
        nativeParams.push_back(&v);
      for (auto &v : hardStore)
        hardParams.push_back(&v);
      for (auto &v : fuelStore)
        fuelParams.push_back(&v);
      // The native kernel on the arena's buffers: the tenant arguments only.
      nativeArenaParams.assign(hardParams.begin(), hardParams.begin() + long(c.args.size()));
      const Atoll::LaunchConfig cfg{c.grid, c.block, 0};

      auto launch = [&](Variant &v) {
        if (v.path == Path::Runtime) {
          check(pipeline->launch(v.kernel, cfg, std::span<const Atoll::Arg>(rtArgs)),
                "Pipeline::launch(" + c.name + ")");
          return;
        }
        void **params = v.path == Path::Native        ? nativeParams.data()
                        : v.path == Path::NativeArena ? nativeArenaParams.data()
                        : v.fuel                      ? fuelParams.data()
                                                      : hardParams.data();
        CU(gpu, cuLaunchKernel(v.fn, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
                               c.block.z, 0, stream, params, nullptr));
      };
      // One timed run of R launches; milliseconds of GPU time.
      auto run = [&](Variant &v, int R) -> double {
        if (v.path == Path::Runtime) {
          check(pipeline->synchronize(), "synchronize");
          auto before = pipeline->stats().gpuTime;
          for (int r = 0; r < R; ++r)
            launch(v);
          check(pipeline->synchronize(), "synchronize after " + c.name);
          auto after = pipeline->stats().gpuTime;
          return std::chrono::duration<double, std::milli>(after - before).count();
        }
        gpu.makeCurrent();
        timer.start(stream);
        for (int r = 0; r < R; ++r)
          launch(v);
        return timer.stopMs(stream);
      };

      // Correctness: every variant from zeroed outputs, one launch, outputs compared
      // with native's bitwise; native's compared with a CPU reference.
      HostBuffers nativeOut(c.bufs.size());
      std::vector<std::string> checks(variants.size());
      for (size_t vi = 0; vi < variants.size(); ++vi) {
        Variant &v = variants[vi];
        if (!v.available)
          continue;
        for (size_t b = 0; b < c.bufs.size(); ++b)
          if (c.bufs[b].output) {
            if (v.path == Path::Native) {
              gpu.makeCurrent();
              CU(gpu, cuMemsetD8Async(nat[b], 0, c.bufs[b].bytes, stream));
              CU(gpu, cuStreamSynchronize(stream));
            } else {
              check(pipeline->fill(hard[b], 0, c.bufs[b].bytes, 0), "fill");
            }
          }
        (void)run(v, 1);
        gpu.makeCurrent();
        CU(gpu, cuStreamSynchronize(stream));
        std::string verdict;
        for (size_t b = 0; b < c.bufs.size(); ++b) {
          if (!c.bufs[b].output)
            continue;
          std::vector<uint8_t> got(c.bufs[b].bytes);
          if (v.path == Path::Native) {
            CU(gpu, cuMemcpyDtoH(got.data(), nat[b], got.size()));
            nativeOut[b] = std::move(got);
          } else {
            check(pipeline->copyToHost(got.data(), hard[b], 0, got.size()), "copyToHost");
            std::string d = compareOutput(c.bufs[b], nativeOut[b], got);
            if (!d.empty())
              verdict += (verdict.empty() ? "" : "; ") + d;
          }
        }
        checks[vi] = verdict.empty() ? "identical" : "MISMATCH: " + verdict;
        if (!verdict.empty())
          ++mismatches;
        if (!verdict.empty())
          res.checkFailed("overhead", c.name + " " + v.id + " differs from native: " + verdict);
      }
      {
        HostBuffers all = std::move(host); // the inputs are not needed any more
        for (size_t b = 0; b < c.bufs.size(); ++b)
          if (c.bufs[b].output)
            all[b] = std::move(nativeOut[b]);
        std::string ref = c.reference ? c.reference(all) : "";
        k["reference"] = ref.empty() ? std::string("ok") : "MISMATCH: " + ref;
        if (!ref.empty())
          ++mismatches;
        if (!ref.empty())
          res.checkFailed("overhead", c.name + " native output disagrees with the CPU reference: " +
                                          ref);
      }

      k["checked_seconds"] = secondsSince(caseStart);
      // Calibration: R launches per run so that a native run takes >= targetRunMs.
      Variant &nativeV = variants[0];
      if (first) {
        // Bring the clocks up before the first measurement (~200 ms of work).
        auto t = Clock::now();
        while (secondsSince(t) < 0.2)
          (void)run(nativeV, 4);
        first = false;
      }
      (void)run(nativeV, 1);
      std::vector<double> single;
      for (int i = 0; i < 3; ++i)
        single.push_back(run(nativeV, 1));
      const double oneMs = std::max(median(single), 1e-4);
      const int R = std::clamp(int(std::ceil(targetRunMs / oneMs)), 1, 4000);
      k["launches_per_run"] = R;

      // Repetitions within this kernel's share of the remaining budget.
      size_t active = 0;
      for (const auto &v : variants)
        active += v.available;
      const double remainingShare =
          std::max(1.0, (budget.seconds - budget.elapsed()) / double(cases.size() - ci));
      const double perRun = oneMs * R / 1000.0;
      int myReps = reps;
      while (myReps > minReps && perRun * double(active) * (myReps + 2) > remainingShare)
        --myReps;
      k["runs"] = myReps;

      for (auto &v : variants)
        if (v.available)
          for (int w = 0; w < 2; ++w)
            (void)run(v, R);
      for (int rep = 0; rep < myReps; ++rep)
        for (size_t j = 0; j < variants.size(); ++j) {
          Variant &v = variants[(j + size_t(rep)) % variants.size()];
          if (v.available)
            v.runs.push_back(run(v, R));
        }

      // Results.
      const double nativeMedian = median(nativeV.runs);
      Json &nj = k["native"];
      nj["ms_per_launch"] = nativeMedian / R;
      nj["run_ms"] = summary(nativeV.runs);
      nj["function"] = functionAttributes(gpu, nativeV.fn);
      nj["ptx"] = ptxStats(native.ptx);
      res.row("overhead", c.name, "native", "ms_per_launch", nativeMedian / R, "ms");
      std::vector<std::pair<std::string, double>> kernelRatios;
      for (size_t vi = 1; vi < variants.size(); ++vi) {
        Variant &v = variants[vi];
        Json vj = Json::object();
        vj["path"] = v.path == Path::Runtime       ? "runtime (Pipeline::launch)"
                     : v.path == Path::NativeArena ? "raw cuLaunchKernel, native PTX, arena buffers"
                                                   : "raw cuLaunchKernel";
        vj["mode"] = std::string(Atoll::to_string(v.mode));
        vj["timing"] = v.timing;
        if (!v.available) {
          vj["unavailable"] = v.unavailable;
          k["variants"][v.id] = std::move(vj);
          continue;
        }
        double m = median(v.runs);
        if (v.path == Path::Runtime && !(m > 0)) {
          // The pipeline reported no GPU time: fall back to the raw path's numbers.
          Variant &raw = variants[vi + 1];
          vj["timing"] = "raw-fallback (the pipeline reported no GPU time)";
          v.runs = raw.runs;
          m = median(v.runs);
          res.error("overhead", c.name + " " + v.id +
                                    ": PipelineStats::gpuTime stayed 0; using the raw timing");
        }
        std::vector<double> paired;
        for (size_t i = 0; i < v.runs.size() && i < nativeV.runs.size(); ++i)
          paired.push_back(v.runs[i] / nativeV.runs[i]);
        double ratio = m / nativeMedian;
        vj["ms_per_launch"] = m / R;
        vj["ratio"] = ratio;
        vj["ratio_paired_median"] = median(paired);
        vj["run_ms"] = summary(v.runs);
        vj["check"] = checks[vi];
        if (v.path == Path::NativeArena) {
          // Same function as native.
        } else if (v.path == Path::Raw) {
          vj["function"] = functionAttributes(gpu, v.fn);
          vj["ptx"] = ptxStats(v.app ? v.app->ptx() : v.ptx);
        } else {
          const auto &info = v.kernel.info();
          Json fj = Json::object();
          fj["registers"] = info.registers;
          fj["local_bytes"] = info.localBytesPerThread;
          fj["static_shared_bytes"] = info.staticSharedBytes;
          vj["function"] = std::move(fj);
        }
        kernelRatios.emplace_back(v.id, ratio);
        res.row("overhead", c.name, v.id, "ms_per_launch", m / R, "ms");
        res.row("overhead", c.name, v.id, "ratio", ratio, "x");
        res.rowText("overhead", c.name, v.id, "check", checks[vi]);
        k["variants"][v.id] = std::move(vj);
      }
      auto ratioOf = [&](const std::string &id) {
        for (const auto &[vid, r] : kernelRatios)
          if (vid == id)
            return fmtRatio(r);
        return std::string("   -  ");
      };
      bool allOk = true;
      for (size_t vi = 1; vi < variants.size(); ++vi)
        allOk &= !variants[vi].available || checks[vi] == "identical";
      const Json *refj = k.find("reference");
      bool refOk = refj && refj->string() == "ok";
      log("%-15s %4d %10.4f | %8s %8s | %8s %8s | %9s | %s%s", c.name.c_str(), R,
          nativeMedian / R, ratioOf("mask").c_str(), ratioOf("modulo").c_str(),
          ratioOf("mask-raw").c_str(), ratioOf("modulo-raw").c_str(),
          ratioOf("native-arena").c_str(), allOk ? "identical" : "MISMATCH",
          refOk ? "" : " (native != CPU reference)");
      for (const auto &[vid, r] : kernelRatios)
        ratiosByVariant[vid].emplace_back(c.name, r);
    } catch (const std::exception &e) {
      k["error"] = e.what();
      res.error("overhead", c.name + ": " + e.what());
    }
    variants.clear(); // unload the raw modules before the buffers go
    freeAll();
    k["seconds"] = secondsSince(caseStart);
    out["kernels"].push(std::move(k));
    res.write(opts.outDir);
  }

  // Summary per variant: geometric mean and maximum of the ratios.
  Json &sum = out["summary"];
  for (const char *id : {"mask", "modulo", "mask-raw", "modulo-raw", "native-arena",
                         "mask-nocheck-raw", "mask-fuel-raw"}) {
    const auto &list = ratiosByVariant[id];
    if (list.empty())
      continue;
    std::vector<double> r;
    std::string worst;
    double worstRatio = 0;
    for (const auto &[name, ratio] : list) {
      r.push_back(ratio);
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worst = name;
      }
    }
    Json &s = sum[id];
    s["kernels"] = r.size();
    s["geomean"] = geomean(r);
    s["max"] = worstRatio;
    s["max_kernel"] = worst;
    s["min"] = *std::min_element(r.begin(), r.end());
    s["above_1_20"] = size_t(std::count_if(r.begin(), r.end(), [](double x) { return x > 1.20; }));
    res.row("overhead", "geomean", id, "ratio", geomean(r), "x");
    res.row("overhead", "max", id, "ratio", worstRatio, "x");
  }
  // Targets (docs/benchmarks.md): the default mode is mask-based, through the runtime.
  Json &t = out["targets"];
  t["geomean_max"] = 1.05;
  t["kernel_max"] = 1.20;
  t["kernels_min"] = 15;
  const auto &mask = ratiosByVariant["mask"];
  if (!mask.empty()) {
    std::vector<double> r;
    double worst = 0;
    std::string worstName;
    for (const auto &[name, ratio] : mask) {
      r.push_back(ratio);
      if (ratio > worst) {
        worst = ratio;
        worstName = name;
      }
    }
    const double g = geomean(r);
    const bool pass = g <= 1.05 && worst <= 1.20 && r.size() >= 15 && mismatches == 0;
    t["geomean"] = g;
    t["max"] = worst;
    t["output_mismatches"] = mismatches;
    t["pass"] = pass;
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "overhead (mask, default): geomean %.3fx over %zu kernels, max %.3fx (%s), "
                  "%d output mismatches [target <= 1.05x, none > 1.20x, outputs identical: %s]",
                  g, r.size(), worst, worstName.c_str(), mismatches, pass ? "PASS" : "FAIL");
    res.headline(buf);
  }
  const auto &modulo = ratiosByVariant["modulo"];
  if (!modulo.empty()) {
    std::vector<double> r;
    double worst = 0;
    for (const auto &[name, ratio] : modulo) {
      r.push_back(ratio);
      worst = std::max(worst, ratio);
    }
    char buf[200];
    std::snprintf(buf, sizeof buf, "overhead (modulo): geomean %.3fx, max %.3fx", geomean(r),
                  worst);
    res.headline(buf);
  }
  // The preemption checks' cost: mask-raw over mask-nocheck-raw, and fuel's over that,
  // per kernel (same timing method, same run).
  {
    std::map<std::string, double> nocheck, fuel;
    for (const auto &[name, r] : ratiosByVariant["mask-nocheck-raw"])
      nocheck[name] = r;
    for (const auto &[name, r] : ratiosByVariant["mask-fuel-raw"])
      fuel[name] = r;
    std::vector<double> cost, fuelCost;
    double worst = 0, worstFuel = 0;
    std::string worstName;
    Json &pj = out["preemption_cost"];
    for (const auto &[name, r] : ratiosByVariant["mask-raw"]) {
      auto n = nocheck.find(name);
      if (n == nocheck.end() || !(n->second > 0))
        continue;
      const double c = r / n->second;
      cost.push_back(c);
      pj["kernels"][name]["checks"] = c;
      if (c > worst) {
        worst = c;
        worstName = name;
      }
      double withFuel = NAN;
      if (auto f = fuel.find(name); f != fuel.end()) {
        withFuel = f->second / n->second;
        fuelCost.push_back(withFuel);
        pj["kernels"][name]["checks_with_fuel"] = withFuel;
        worstFuel = std::max(worstFuel, withFuel);
      }
      // Per kernel, against the same run's unchecked PTX (and so against native).
      log("preemption %-16s checks %.4fx, checks with fuel %.4fx (vs native: nocheck %.3f, "
          "checks %.3f)",
          name.c_str(), c, withFuel, n->second, r);
      res.row("overhead", name, "preempt-checks", "ratio", c, "x");
      res.row("overhead", name, "preempt-checks-fuel", "ratio", withFuel, "x");
    }
    if (!cost.empty()) {
      pj["geomean"] = geomean(cost);
      pj["max"] = worst;
      pj["max_kernel"] = worstName;
      const bool pass = geomean(cost) <= 1.01 && worst <= 1.03;
      pj["pass"] = pass;
      char buf[300];
      std::snprintf(buf, sizeof buf,
                    "preemption checks (mask-raw / mask-nocheck-raw): geomean %.4fx over %zu "
                    "kernels, max %.4fx (%s) [target <= 1.01x, none > 1.03x: %s]",
                    geomean(cost), cost.size(), worst, worstName.c_str(),
                    pass ? "PASS" : "FAIL");
      res.headline(buf);
      res.row("overhead", "geomean", "preempt-checks", "ratio", geomean(cost), "x");
      res.row("overhead", "max", "preempt-checks", "ratio", worst, "x");
    }
    if (!fuelCost.empty()) {
      pj["fuel_geomean"] = geomean(fuelCost);
      pj["fuel_max"] = worstFuel;
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "preemption checks with fuel (mask-fuel-raw / mask-nocheck-raw): geomean "
                    "%.4fx, max %.4fx",
                    geomean(fuelCost), worstFuel);
      res.headline(buf);
    }
  }
  log("geomean: mask %s, modulo %s, mask-raw %s, modulo-raw %s",
      fmtRatio(sum.find("mask") ? sum["mask"]["geomean"].number() : NAN).c_str(),
      fmtRatio(sum.find("modulo") ? sum["modulo"]["geomean"].number() : NAN).c_str(),
      fmtRatio(sum.find("mask-raw") ? sum["mask-raw"]["geomean"].number() : NAN).c_str(),
      fmtRatio(sum.find("modulo-raw") ? sum["modulo-raw"]["geomean"].number() : NAN).c_str());
}

} // namespace atoll_bench
