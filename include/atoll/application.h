// Application: a set of hardened kernels compiled from one LLVM bitcode module.
//
// Created by Runtime::loadApplication, which parses and verifies the bitcode, links
// libdevice, optimises, runs the AToLL hardening passes, generates PTX and loads it
// into the runtime's CUDA context. Compiled modules are cached by content hash, so
// loading the same bitcode with the same options again costs microseconds and every
// such Application shares one loaded module (modules keep no writable state).
//
// Thread-safety: an Application is immutable after loading; use it (and the Kernel
// handles it gives out) from any number of threads and pipelines at once.
#pragma once

#include "atoll/clamping.h"
#include "atoll/error.h"
#include "atoll/kernel_info.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace Atoll {

namespace detail {
struct LoadedModule;
struct RuntimeState;
} // namespace detail

class Application;

/// "mask-based" / "modulo-based" (the values of ATOLL_MODE_MASK / ATOLL_MODE_MODULO).
std::string_view to_string(Clamping mode) noexcept;

struct AppOptions {
  Clamping clamping = Clamping::MaskBased;
  /// Used in messages; default "app-" + the first 12 hex digits of the content hash.
  std::string name;
  /// Default synchronisation timeout for work of this application on pipelines that
  /// set no timeout of their own; 0 = the runtime's default.
  std::chrono::milliseconds timeout{0};
  /// LLVM optimisation level before hardening (0-3).
  unsigned optLevel = 2;
};

/// A launchable kernel of an Application. Cheap to copy; keeps its Application alive.
class Kernel {
public:
  Kernel() = default;
  bool valid() const noexcept { return app_ != nullptr; }
  const std::string &name() const;
  const KernelInfo &info() const;
  const Application &application() const { return *app_; }
  uint32_t index() const noexcept { return index_; }

private:
  friend class Application;
  Kernel(std::shared_ptr<const Application> app, uint32_t index)
      : app_(std::move(app)), index_(index) {}
  std::shared_ptr<const Application> app_;
  uint32_t index_ = 0;
};

class Application : public std::enable_shared_from_this<Application> {
public:
  enum class Origin : uint8_t {
    Compiled,    // LLVM ran for this load
    MemoryCache, // the module was already loaded in this runtime
    DiskCache,   // the PTX came from RuntimeOptions::ptxCacheDir (JIT only)
  };

  ~Application();
  Application(const Application &) = delete;
  Application &operator=(const Application &) = delete;

  const std::string &name() const noexcept;
  Clamping clamping() const noexcept;
  /// 0 = the runtime's default.
  std::chrono::milliseconds timeout() const noexcept;
  /// Every kernel of the module, with its tenant-visible signature.
  const std::vector<KernelInfo> &kernels() const noexcept;
  /// The kernel of that (exact, mangled) name; NotFound lists the available ones.
  Result<Kernel> kernel(std::string_view name) const;
  /// Index into kernels(), or -1.
  int findKernel(std::string_view name) const noexcept;
  /// The hardened PTX that the loaded cubin was assembled from: kept only with
  /// RuntimeOptions::keepPtx or in a compile-only runtime; empty otherwise.
  const std::string &ptx() const noexcept;
  /// Hex content hash of (bitcode, options, target, ABI version): the cache key.
  const std::string &cacheKey() const noexcept;
  Origin origin() const noexcept { return origin_; }
  /// False for a compile-only runtime (no device): the PTX exists, nothing is loaded.
  bool loaded() const noexcept;

  /// Internal (used by the runtime and its pipelines).
  const detail::LoadedModule &module() const noexcept { return *module_; }
  const std::shared_ptr<const detail::LoadedModule> &modulePtr() const noexcept {
    return module_;
  }
  const detail::RuntimeState *runtimeState() const noexcept { return state_.get(); }

private:
  friend struct detail::RuntimeState;
  struct Token {};

public:
  Application(Token, std::shared_ptr<detail::RuntimeState> state,
              std::shared_ptr<const detail::LoadedModule> module, std::string name,
              std::chrono::milliseconds timeout, Origin origin);

private:
  std::shared_ptr<detail::RuntimeState> state_;
  std::shared_ptr<const detail::LoadedModule> module_;
  std::string name_;
  std::chrono::milliseconds timeout_;
  Origin origin_;
};

} // namespace Atoll
