// The module cache's key: BLAKE3 (cryptographic) over the bitcode and everything
// else that decides the PTX, so that a tenant cannot craft bitcode whose key
// collides with another tenant's module.
#pragma once

#include "atoll/clamping.h"

#include <cstdint>
#include <span>
#include <string>

namespace Atoll::detail {

/// Everything besides the bitcode that decides the PTX.
struct CacheKeyInput {
  Clamping clamping = Clamping::MaskBased;
  unsigned optLevel = 2;
  std::string targetArch;
  std::string ptxVersion;
  std::string libdevicePath;
  std::string toolchainId; // identity of the compiler build (see toolchainIdentity)
};

/// 64 hex digits: BLAKE3 over (format version, ABI version, LLVM version, options,
/// target, toolchain identity, BLAKE3 of the bitcode).
std::string computeCacheKey(std::span<const uint8_t> bitcode, const CacheKeyInput &input);

/// Identifies the code that compiles (path, size and mtime of the library holding the
/// passes), so that an on-disk cache is not reused across builds.
std::string toolchainIdentity();

} // namespace Atoll::detail
