// The benign controls of the attack suite (see Catalog.h): real kernels whose
// results are checked exactly against a host reference, in both clamping modes.
#include "Catalog.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace AtollAttacks {
namespace {

struct Affine { // controls.cu
  uint32_t scale;
  uint32_t n;
  uint32_t bias[4];
  uint64_t tag;
};
static_assert(sizeof(Affine) == 32, "layout of the kernel's struct");

// --- controls ---------------------------------------------------------------------------------

template <typename T> std::vector<T> as(const Bytes &b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

std::string mismatch(const char *what, size_t i, double got, double want) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s[%zu] = %.9g, expected %.9g", what, i, got, want);
  return buf;
}
std::string mismatchU(const char *what, size_t i, uint64_t got, uint64_t want) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s[%zu] = 0x%llx, expected 0x%llx", what, i,
                (unsigned long long)got, (unsigned long long)want);
  return buf;
}

constexpr uint32_t kMix[16] = {0x243F6A88u, 0x85A308D3u, 0x13198A2Eu, 0x03707344u,
                               0xA4093822u, 0x299F31D0u, 0x082EFA98u, 0xEC4E6C89u,
                               0x452821E6u, 0x38D01377u, 0xBE5466CFu, 0x34E90C6Cu,
                               0xC0AC29B7u, 0xC97C50DDu, 0x3F84D5B5u, 0xB5470917u};
constexpr uint32_t kRot[8] = {1, 5, 7, 11, 13, 17, 19, 23};

CtlBuffer buf(uint64_t bytes, CtlBuffer::Init init = CtlBuffer::Init::Zero, uint32_t seed = 1,
              uint32_t mask = 0xFFFFFFFFu) {
  CtlBuffer b;
  b.bytes = bytes;
  b.init = init;
  b.seed = seed;
  b.mask = mask;
  return b;
}
CtlBuffer fbuf(uint64_t bytes, uint32_t seed, float lo, float hi) {
  CtlBuffer b = buf(bytes, CtlBuffer::Init::RandomF32, seed);
  b.lo = lo;
  b.hi = hi;
  return b;
}

/// A control's identity and launch shape; the caller adds buffers, arguments and
/// its check.
Control control(std::string name, std::string description, std::string kernel, Atoll::Dim3 grid,
                Atoll::Dim3 block, std::string module = "controls") {
  Control c;
  c.name = std::move(name);
  c.description = std::move(description);
  c.module = std::move(module);
  c.kernel = std::move(kernel);
  c.grid = grid;
  c.block = block;
  return c;
}

std::vector<Control> buildControls() {
  using I = CtlBuffer::Init;
  std::vector<Control> v;
  auto add = [&](Control c) { v.push_back(std::move(c)); };

  {
    const uint32_t n = 65536;
    Control c = control("ctl_vadd_u32", "c = a + b (u32), also the victim's health check",
                        "vadd_u32", {n / 256}, {256});
    c.buffers = {buf(4 * n, I::RandomU32, 11), buf(4 * n, I::RandomU32, 12), buf(4 * n)};
    c.args = {ctl(0), ctl(1), ctl(2), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto a = as<uint32_t>(in[0]), b = as<uint32_t>(in[1]), r = as<uint32_t>(out[2]);
      for (uint32_t i = 0; i < n; ++i)
        if (r[i] != a[i] + b[i])
          return mismatchU("c", i, r[i], a[i] + b[i]);
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 65536;
    Control c = control("ctl_vadd_f32", "c = a + b (float, grid-stride), bit-exact",
                        "vadd_f32", {64}, {256});
    c.buffers = {fbuf(4 * n, 21, -1.0f, 1.0f), fbuf(4 * n, 22, -1.0f, 1.0f), buf(4 * n)};
    c.args = {ctl(0), ctl(1), ctl(2), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto a = as<float>(in[0]), b = as<float>(in[1]), r = as<float>(out[2]);
      for (uint32_t i = 0; i < n; ++i) {
        volatile float want = a[i] + b[i];
        if (std::memcmp(&r[i], (const void *)&want, 4) != 0)
          return mismatch("c", i, r[i], want);
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 128;
    Control c = control("ctl_matmul_tiled",
                        "128x128 int32 matrix multiply, 16x16 shared tiles and barriers",
                        "matmul_tiled_i32", {n / 16, n / 16}, {16, 16});
    c.buffers = {buf(4 * n * n, I::RandomU32, 31, 0xFF), buf(4 * n * n, I::RandomU32, 32, 0xFF),
                 buf(4 * n * n)};
    c.args = {ctl(0), ctl(1), ctl(2), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto A = as<int32_t>(in[0]), B = as<int32_t>(in[1]), C = as<int32_t>(out[2]);
      for (uint32_t r = 0; r < n; ++r)
        for (uint32_t col = 0; col < n; ++col) {
          int32_t acc = 0;
          for (uint32_t k = 0; k < n; ++k)
            acc += A[r * n + k] * B[k * n + col];
          if (C[r * n + col] != acc)
            return mismatchU("C", r * n + col, uint32_t(C[r * n + col]), uint32_t(acc));
        }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 1u << 20;
    Control c = control("ctl_block_reduce",
                        "sum of 2^20 u32 (dynamic shared tree reduction + one atomicAdd per block)",
                        "block_reduce_u32", {128}, {256});
    c.dynamicSharedBytes = 256 * 4;
    c.buffers = {buf(4ull * n, I::RandomU32, 41, 0xFFFF), buf(8)};
    c.args = {ctl(0), u32(n), ctl(1)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<uint32_t>(in[0]);
      uint64_t want = 0;
      for (uint32_t i = 0; i < n; ++i)
        want += x[i];
      uint64_t got = as<uint64_t>(out[1])[0];
      return got == want ? std::string() : mismatchU("sum", 0, got, want);
    };
    add(std::move(c));
  }
  {
    const uint32_t threads = 4096;
    Control c = control("ctl_local_sort",
                        "per-thread insertion sort of 16 values in an in-bounds stack array",
                        "local_sort16", {threads / 256}, {256});
    c.buffers = {buf(64ull * threads, I::RandomU32, 51), buf(64ull * threads)};
    c.args = {ctl(0), ctl(1), u32(threads)};
    c.verify = [threads](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<uint32_t>(in[0]), r = as<uint32_t>(out[1]);
      for (uint32_t t = 0; t < threads; ++t) {
        std::sort(x.begin() + 16 * t, x.begin() + 16 * t + 16);
        for (uint32_t i = 0; i < 16; ++i)
          if (r[16 * t + i] != x[16 * t + i])
            return mismatchU("out", 16 * t + i, r[16 * t + i], x[16 * t + i]);
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 65536;
    Control c = control("ctl_constant_table",
                        "__constant__ table lookups and a promoted read-only __device__ table",
                        "constant_table", {n / 256}, {256});
    c.buffers = {buf(4 * n, I::RandomU32, 61), buf(4 * n)};
    c.args = {ctl(0), ctl(1), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<uint32_t>(in[0]), r = as<uint32_t>(out[1]);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t v = x[i], k = kRot[v & 7];
        uint32_t want = kMix[v & 15] ^ ((v << k) | (v >> (32 - k)));
        if (r[i] != want)
          return mismatchU("out", i, r[i], want);
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 16384;
    Control c = control("ctl_float4", "float4 loads and stores: ((x+y)+z)+w and 2v, bit-exact",
                        "float4_sum", {n / 256}, {256});
    c.buffers = {fbuf(16ull * n, 71, -100.0f, 100.0f), buf(4ull * n), buf(16ull * n)};
    c.args = {ctl(0), ctl(1), ctl(2), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<float>(in[0]), s = as<float>(out[1]), t = as<float>(out[2]);
      for (uint32_t i = 0; i < n; ++i) {
        volatile float a = x[4 * i] + x[4 * i + 1];
        volatile float b = a + x[4 * i + 2];
        volatile float want = b + x[4 * i + 3];
        if (std::memcmp(&s[i], (const void *)&want, 4) != 0)
          return mismatch("sum", i, s[i], want);
        for (int k = 0; k < 4; ++k) {
          volatile float w2 = x[4 * i + k] + x[4 * i + k];
          if (std::memcmp(&t[4 * i + k], (const void *)&w2, 4) != 0)
            return mismatch("twice", 4 * i + k, t[4 * i + k], w2);
        }
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 65536;
    Affine p{3, n, {1, 2, 3, 4}, 0x100000007ull};
    Control c = control("ctl_byval_struct",
                        "a 32-byte byval struct parameter (scale, n, bias[4], u64 tag)",
                        "byval_affine", {n / 256}, {256});
    c.buffers = {buf(4 * n, I::RandomU32, 81), buf(4 * n)};
    c.args = {byval(p), ctl(0), ctl(1)};
    c.verify = [n, p](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<uint32_t>(in[0]), r = as<uint32_t>(out[1]);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t want = x[i] * p.scale + p.bias[i & 3] + uint32_t(p.tag);
        if (r[i] != want)
          return mismatchU("out", i, r[i], want);
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t n = 16384;
    Control c = control("ctl_libdevice_math",
                        "sinf, cosf, expf, logf, sqrtf, tanhf from libdevice (tolerance 1e-5)",
                        "libdevice_math", {n / 256}, {256}, "controls_math");
    c.buffers = {fbuf(4ull * n, 91, -10.0f, 10.0f), buf(20ull * n)};
    c.args = {ctl(0), ctl(1), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<float>(in[0]), r = as<float>(out[1]);
      const char *names[5] = {"sinf", "cosf", "expf", "logf", "sqrtf+tanhf"};
      for (uint32_t i = 0; i < n; ++i) {
        double v = x[i];
        double ref[5] = {std::sin(v), std::cos(v), std::exp(double(float(v * 0.5f))),
                         std::log(double(float(std::fabs(float(v)) + 1.0f))),
                         std::sqrt(std::fabs(v)) + std::tanh(v)};
        for (int k = 0; k < 5; ++k) {
          double got = r[5 * i + k];
          if (!(std::fabs(got - ref[k]) <= 1e-5 + 1e-5 * std::fabs(ref[k])))
            return mismatch(names[k], i, got, ref[k]);
        }
      }
      return std::string();
    };
    add(std::move(c));
  }
  {
    const uint32_t blocks = 4;
    Control c = control("ctl_shared_generic",
                        "shared memory reached through a generic pointer in a device function, "
                        "warp shuffles",
                        "shared_generic_helper", {blocks}, {32});
    c.buffers = {buf(4096ull * blocks, I::RandomU32, 101, 0xFFFF), buf(4096ull * blocks)};
    c.args = {ctl(0), ctl(1)};
    c.verify = [blocks](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto x = as<uint32_t>(in[0]), r = as<uint32_t>(out[1]);
      for (uint32_t b = 0; b < blocks; ++b)
        for (uint32_t row = 0; row < 32; ++row)
          for (uint32_t col = 0; col < 32; ++col) {
            auto val = [&](uint32_t cc) { return x[b * 1024 + row * 32 + cc] * (row + 1); };
            uint32_t want = val(col) + val(col ^ 1);
            size_t i = b * 1024 + row * 32 + col;
            if (r[i] != want)
              return mismatchU("out", i, r[i], want);
          }
      return std::string();
    };
    add(std::move(c));
  }
  {
    // R8-F7: a dense switch (8 cases) in a loop; NVPTX's jump table (brx.idx) would
    // be refused by the PTX validator, so this checks that the toolchain compiles
    // without one and that the switch still computes the right thing.
    const uint32_t n = 16384;
    Control c = control("ctl_switch_interp",
                        "a dense 8-case switch (bytecode interpreter, 16 instructions per "
                        "thread): compiled without a jump table",
                        "switch_interp", {n / 256}, {256});
    c.buffers = {buf(64ull * n, I::RandomU32, 111), buf(4ull * n, I::RandomU32, 112),
                 buf(4ull * n)};
    c.args = {ctl(0), ctl(1), ctl(2), u32(n)};
    c.verify = [n](const std::vector<Bytes> &in, const std::vector<Bytes> &out) {
      auto prog = as<uint32_t>(in[0]), x = as<uint32_t>(in[1]), r = as<uint32_t>(out[2]);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t acc = x[i];
        for (uint32_t pc = 0; pc < 16; ++pc) {
          uint32_t ins = prog[i * 16 + pc], arg = ins >> 3;
          switch (ins & 7) {
          case 0: acc += arg; break;
          case 1: acc ^= arg; break;
          case 2: acc *= arg | 1; break;
          case 3: acc = (acc << (arg & 31)) | (acc >> ((32 - (arg & 31)) & 31)); break;
          case 4: acc -= arg; break;
          case 5: acc += acc / ((arg & 0xFF) + 1); break;
          case 6: acc = ~acc; break;
          default: acc += uint32_t(__builtin_popcount(arg)); break;
          }
        }
        if (r[i] != acc)
          return mismatchU("out", i, r[i], acc);
      }
      return std::string();
    };
    add(std::move(c));
  }
  return v;
}

} // namespace

Bytes initialContents(const CtlBuffer &b) {
  Bytes out(b.bytes, 0);
  uint32_t s = b.seed * 2654435761u + 0x9E3779B9u;
  auto next = [&]() { // xorshift32
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  };
  size_t words = b.bytes / 4;
  for (size_t i = 0; i < words; ++i) {
    uint32_t w = 0;
    switch (b.init) {
    case CtlBuffer::Init::Zero: w = 0; break;
    case CtlBuffer::Init::Iota: w = uint32_t(i); break;
    case CtlBuffer::Init::RandomU32: w = next() & b.mask; break;
    case CtlBuffer::Init::RandomF32: {
      float f = b.lo + (b.hi - b.lo) * float(next() >> 8) * (1.0f / 16777216.0f);
      std::memcpy(&w, &f, 4);
      break;
    }
    }
    std::memcpy(out.data() + 4 * i, &w, 4);
  }
  return out;
}

const std::vector<Control> &controls() {
  static const std::vector<Control> table = buildControls();
  return table;
}

} // namespace AtollAttacks
