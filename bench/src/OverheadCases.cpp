// The overhead benchmark's kernels as a table (see OverheadCases.h): one block per
// kernel of bench/kernels, in the order of the report.
#include "OverheadCases.h"
#include "Reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace atoll_bench {
namespace {

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

} // namespace

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
        double want = ref::stencil2d<double>(in, nx, ny, s);
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
      for (size_t s : samples(size_t(nx) * ny * nz)) {
        double want = ref::stencil3d<double>(in, nx, ny, nz, s);
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
        double mag = 0;
        double want = ref::gemm<double>(A, B, n, s / n, s % n, &mag);
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
        float acc = ref::localArray(keys[i], vals[i]);
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
        double mag = 0;
        double want = ref::constTable<double>(in, keys, i, &mag);
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
        double acc = ref::libdeviceMath<double>(in[i]);
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
        int32_t want = ref::pointerChase(nd, start[i], hops);
        if (o[i] != want)
          return mismatch("out", i, o[i], want);
      }
      return "";
    };
    cases.push_back(std::move(c));
  }
  return cases;
}

} // namespace atoll_bench
