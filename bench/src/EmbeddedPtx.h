// Native (unhardened) PTX of every benchmark kernel, generated at build time by
// atoll-bench-ptxgen from the same bitcode the runtime hardens, with the same
// toolchain and options (CompileOptions{Harden = false}). It is embedded so that
// atoll-bench itself needs no LLVM (libatoll_runtime keeps its LLVM private in the
// deployable build) and runs from a relocated bundle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace atoll_bench {

struct EmbeddedPtx {
  const char *name;         // bitcode file stem (bench/kernels/<name>.cu)
  uint64_t bitcodeHash;     // FNV-1a 64 of the bitcode it was compiled from
  uint64_t bitcodeSize;
  const char *gpuArch;      // e.g. "sm_90"
  const char *ptx;
  /// The same bitcode hardened mask-based without the preemption checks
  /// (CompileOptions{Preempt = false}): the baseline of the checks' cost.
  const char *nocheckPtx;
};

extern const EmbeddedPtx kEmbeddedPtx[];
extern const size_t kEmbeddedPtxCount;

/// FNV-1a 64-bit hash (identifies the bitcode the native PTX came from).
inline uint64_t fnv1a64(const void *data, size_t size) {
  const auto *p = static_cast<const unsigned char *>(data);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

inline const EmbeddedPtx *findEmbeddedPtx(std::string_view name) {
  for (size_t i = 0; i < kEmbeddedPtxCount; ++i)
    if (name == kEmbeddedPtx[i].name)
      return &kEmbeddedPtx[i];
  return nullptr;
}

} // namespace atoll_bench
