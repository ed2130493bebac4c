// One CPU reference per benchmark kernel (bench/kernels/*.cu), shared by the output
// checks of the overhead benchmark (Overhead.cpp, in double: a tolerance check) and
// the stand-in driver that models the kernels on the host (bench/mock, in float: the
// kernels' own arithmetic and order). T is the arithmetic type. Header-only: the
// mock is a separate shared library.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace atoll_bench::ref {

/// stencil2d.cu: 5-point Jacobi step; the border is copied.
template <typename T> T stencil2d(const float *in, int nx, int ny, size_t i) {
  const size_t x = i % size_t(nx), y = i / size_t(nx);
  if (x == 0 || y == 0 || x + 1 == size_t(nx) || y + 1 == size_t(ny))
    return T(in[i]);
  return T(0.2) * (T(in[i]) + T(in[i - 1]) + T(in[i + 1]) + T(in[i - nx]) + T(in[i + nx]));
}

/// stencil3d.cu: 7-point stencil; the border is copied.
template <typename T> T stencil3d(const float *in, int nx, int ny, int nz, size_t i) {
  const size_t plane = size_t(nx) * size_t(ny);
  const size_t x = i % size_t(nx), y = (i / size_t(nx)) % size_t(ny), z = i / plane;
  if (x == 0 || y == 0 || z == 0 || x + 1 == size_t(nx) || y + 1 == size_t(ny) ||
      z + 1 == size_t(nz))
    return T(in[i]);
  return (T(1) / T(7)) * (T(in[i]) + T(in[i - 1]) + T(in[i + 1]) + T(in[i - nx]) +
                          T(in[i + nx]) + T(in[i - plane]) + T(in[i + plane]));
}

/// gemm_tiled.cu / gemm_naive.cu: C[row][col], k ascending. `mag` (optional) gets the
/// sum of the terms' magnitudes, the scale of the rounding error.
template <typename T>
T gemm(const float *A, const float *B, int n, size_t row, size_t col, T *mag = nullptr) {
  T acc = 0, m = 0;
  for (int k = 0; k < n; ++k) {
    const T t = T(A[row * size_t(n) + size_t(k)]) * T(B[size_t(k) * size_t(n) + col]);
    acc += t;
    m += std::fabs(t);
  }
  if (mag)
    *mag = m;
  return acc;
}

/// local_array.cu: a per-thread float[32] with data-dependent indices.
inline float localArray(uint32_t key, float val) {
  float buf[32];
  for (int k = 0; k < 32; ++k)
    buf[k] = val * float(k + 1);
  uint32_t state = key;
  float acc = 0;
  for (uint32_t r = 0; r < 64; ++r) {
    state = state * 1664525u + 1013904223u;
    const uint32_t idx = (state >> 16) & 31u;
    acc += buf[idx];
    buf[(idx + r) & 31u] = acc * 0.5f;
  }
  return acc;
}

/// const_table.cu: a 32-tap FIR plus a data-dependent table entry. `mag` as for gemm.
template <typename T>
T constTable(const float *in, const uint32_t *keys, size_t i, T *mag = nullptr) {
  T acc = 0, m = 0;
  for (int k = 0; k < 32; ++k) {
    const T t = T(float(k % 7 + 1) * 0.03125f) * T(in[i + size_t(k)]);
    acc += t;
    m += std::fabs(t);
  }
  if (mag)
    *mag = m;
  return acc + T(float((keys[i] & 255u) % 17) * 0.25f - 2.0f);
}

/// libdevice_math.cu: 8 rounds of sin, exp and log.
template <typename T> T libdeviceMath(float x) {
  T v = x, acc = 0;
  for (int k = 0; k < 8; ++k) {
    acc += std::sin(v) * std::exp(T(-0.5) * v) + std::log(T(1) + v * v);
    v = v * T(1.1) + T(0.3);
  }
  return acc;
}

/// pointer_chase.cu: `hops` dependent loads from `start`; the payloads' sum xor the
/// last node.
inline int32_t pointerChase(const int32_t *nodes, int32_t start, int hops) {
  int32_t p = start, sum = 0;
  for (int h = 0; h < hops; ++h) {
    sum += nodes[2 * p + 1];
    p = nodes[2 * p];
  }
  return sum ^ p;
}

} // namespace atoll_bench::ref
