// A compiled, hardened and (with a device) loaded module, shared by every
// Application with the same cache key. Immutable after loading except for the
// per-kernel dynamic shared memory limit, which only grows (atomic + mutex).
// CUDA handles are stored as void* so that this header needs no cuda.h.
#pragma once

#include "Validation.h"

#include "atoll/application.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Atoll::detail {

struct LoadedModule {
  std::string key;           // hex content hash
  /// The hardened PTX, kept only with RuntimeOptions::keepPtx (or in a compile-only
  /// runtime, where it is the product); empty otherwise (review R7-F10).
  std::string ptx;
  /// Bytes charged to the module cache's byte budget (moduleFootprint, ModuleCache.h).
  uint64_t footprint = 0;
  Clamping clamping = Clamping::MaskBased;
  std::vector<KernelInfo> kernels;
  // With a device (else empty / null):
  void *module = nullptr;             // CUmodule
  std::vector<void *> functions;      // CUfunction per kernel
  std::vector<KernelLimits> limits;   // per kernel, at load
  std::unique_ptr<std::atomic<uint32_t>[]> dynamicSharedLimit; // per kernel, current
  mutable std::mutex attributeMutex;  // serialises raising dynamicSharedLimit
  /// Called by the destructor to unload `module` (set by the runtime).
  void (*unload)(void *owner, void *module) noexcept = nullptr;
  void *owner = nullptr;

  LoadedModule() = default;
  LoadedModule(const LoadedModule &) = delete;
  LoadedModule &operator=(const LoadedModule &) = delete;
  ~LoadedModule() {
    if (module && unload)
      unload(owner, module);
  }
};

} // namespace Atoll::detail
