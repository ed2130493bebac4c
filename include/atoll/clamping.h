// The clamping mode: one enum for the public API, the passes and the toolchain.
#pragma once

#include <cstdint>

namespace Atoll {

/// How hardened kernels confine global addresses to the arena (abi.h).
enum class Clamping : uint8_t {
  /// (addr & (size - 1)) | base: needs a power-of-two arena aligned to its size.
  MaskBased,
  /// base + (addr - base) % size: any arena size.
  ModuloBased,
};

} // namespace Atoll
