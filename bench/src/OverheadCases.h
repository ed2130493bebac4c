// The overhead benchmark's kernels as a table (OverheadCases.cpp): each case names a
// kernel of bench/kernels, its buffers and inputs, arguments, shape and the CPU
// reference check of its output (bench/src/Reference.h). Overhead.cpp runs them.
#pragma once

#include "Bench.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace atoll_bench {

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

inline Case named(std::string name, std::string description) {
  Case c;
  c.name = std::move(name);
  c.description = std::move(description);
  return c;
}

/// The cases: full size, 4x smaller (quick) or 64x smaller (tiny: the mock driver's).
std::vector<Case> makeCases(bool quick, bool tiny);

} // namespace atoll_bench
