// The state behind a Runtime, shared (shared_ptr) by the Runtime object, its
// Applications, Pipelines and HostMemory, so that it lives until the last of them.
#pragma once

#include "ArenaPool.h"
#include "CompiledEntry.h"
#include "Deadline.h"
#include "ControlBlocks.h"
#include "CudaArenaBackend.h"
#include "DeviceActivity.h"
#include "DeviceRegistry.h"
#include "DiskCache.h"
#include "HostBlocks.h"
#include "Lanes.h"
#include "LoadedModule.h"
#include "ModuleCache.h"
#include "Worker.h"
#include "compile/CompilePool.h"
#include "cuda/DriverApi.h"
#include "partition/PartitionManager.h"

#include "atoll/runtime.h"

#include <map>
#include <mutex>

#include <array>
#include <atomic>
#include <condition_variable>
#include <optional>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace Atoll::detail {

struct RuntimeState : std::enable_shared_from_this<RuntimeState> {
  RuntimeOptions options;
  /// The page-locked blocks allocateHost handed out, and those released for reuse
  /// once their transfers have ended (HostBlocks.h). Null for a compile-only runtime.
  std::unique_ptr<HostBlocks> hostBlocks;
  DeviceInfo info;
  const cuda::DriverApi *api = nullptr; // null for a compile-only runtime
  CUdevice device = 0;
  CUcontext ctx = nullptr;
  bool vmm = false; // the device supports the virtual memory management API
  uint64_t generation = 0;
  std::atomic<bool> lostFlag{false};
  /// Set when teardown had to leave work running: nothing is freed or released.
  std::atomic<bool> abandoned{false};
  /// Shared with queued reclaim tasks (which outlive nothing else of the state): set
  /// when lost or abandoned, after which they drop their work.
  std::shared_ptr<std::atomic<bool>> inert = std::make_shared<std::atomic<bool>>(false);
  std::string toolchainId;

  /// Module loads run here, holding no lock (in a quiet section, waitQuiet), bounded
  /// for the caller by options.loadTimeout. Unloads and frees go to the process-wide
  /// Reclaimer (DeviceActivity.h), which outlives the runtime. Declared before what
  /// queues work on it.
  Worker loader{"atoll-loader"};
  std::unique_ptr<DiskCache> disk; // null without ptxCacheDir
  /// The compile workers; null with RuntimeOptions::compileInProcess.
  std::unique_ptr<compile::CompilePool> compilePool;

  std::unique_ptr<CudaArenaBackend> backend;
  std::unique_ptr<ArenaPool> pool;
  ModuleCache modules;
  ControlBlocks controls{*this}; // per-pipeline control blocks + the control stream
  /// Streams, cancel events and slots of ended pipelines, for the next (Lanes.h).
  LanePool lanes{*this};
  /// SM partitions (green contexts); null for a compile-only runtime.
  std::unique_ptr<PartitionManager> partitions;

  std::atomic<uint64_t> compilations{0}, memoryHits{0}, diskHits{0};
  std::atomic<uint64_t> pipelinesCreated{0}, livePipelines{0};
  std::atomic<uint64_t> watchdogCancels{0}; // Watchdog.h

  explicit RuntimeState(const RuntimeOptions &opts)
      : options(opts), modules(opts.moduleCacheCapacity, opts.moduleMemoryBudget) {}
  ~RuntimeState();

  bool hasDevice() const noexcept { return api != nullptr; }
  /// Lost: a sticky error was seen here or by another runtime on the device, or the
  /// device's context was reset since this state retained it.
  bool lost() const noexcept {
    if (!api)
      return false;
    int d = info.ordinal;
    return lostFlag.load(std::memory_order_relaxed) ||
           DeviceRegistry::lost[d].load(std::memory_order_relaxed) ||
           DeviceRegistry::generation[d].load(std::memory_order_relaxed) != generation;
  }
  void markLost() noexcept;
  /// Teardown leaves work running: nothing more is freed or released.
  void abandon() noexcept;
  /// Queues `fn` (a driver call that waits for running kernels) on the process-wide
  /// reclaimer, to run with the context current in a quiet section (no kernel runs)
  /// unless the runtime is lost or abandoned by then (the resource then leaks, which
  /// is safe: a reset context frees it, an abandoned one may still use it).
  void reclaim(std::function<void()> fn) noexcept;
  /// Waits, without a bound and holding no lock, for a quiet section of the device
  /// (loader thread only: its caller's wait is bounded by loadTimeout). Fails when
  /// the runtime is lost.
  Result<DeviceActivity::QuietSection> waitQuiet(std::string_view what);
  /// Makes the context current on the calling thread. False when lost.
  bool makeCurrent() noexcept;
  /// The Error for a failed driver call; marks the runtime lost for sticky errors.
  Error fail(CUresult r, std::string_view what);
  /// NoDevice for a compile-only runtime, ContextLost when lost; else makes the
  /// context current.
  Status requireDevice(std::string_view what);
  Error lostError(std::string_view what) const;
  /// At start: makes the context's per-thread stack limit at least
  /// cuda::kReservedLocalBytes (cuCtxSetLimit in a quiet section; never lowers it)
  /// and records it in info.limits (LocalMemory.cpp, R5-F4). A failure is a typed
  /// error (CapacityExceeded when the device lacks the memory).
  Status reserveLocalMemory();

  Result<std::shared_ptr<Application>> loadApplication(std::span<const uint8_t> bitcode,
                                                       const AppOptions &opts);
  /// Compiles (or finds) on the calling thread, then queues the driver load on the
  /// loader thread.
  PendingApplication loadApplicationAsync(std::span<const uint8_t> bitcode,
                                          const AppOptions &opts);
  Result<std::unique_ptr<Pipeline>> createPipeline(const PipelineOptions &opts);
  /// Validates the PTX, loads the module's cubin into the context
  /// (cuModuleLoadDataEx; never PTX, so no driver JIT runs here) and checks it from
  /// the driver's side (cuda/ModuleCheck.h): the one place tenant code enters the
  /// driver. Runs on the loader thread only: the load waits for every running
  /// kernel of the context.
  /// `room` receives the module's charge to the module memory budget
  /// (ModuleCache::reserve; CapacityExceeded when it does not fit), taken before the
  /// driver load and handed to ModuleCache::insert by the caller.
  Result<std::shared_ptr<const LoadedModule>> loadModule(const std::string &key,
                                                         CompiledEntry entry,
                                                         Clamping clamping,
                                                         ModuleCache::Reservation &room);
  /// Whether loaded modules keep their PTX (RuntimeOptions::keepPtx, or compile-only).
  bool keepsPtx() const noexcept { return options.keepPtx || !hasDevice(); }
  Result<std::shared_ptr<Application>> makeApplication(std::shared_ptr<const LoadedModule> m,
                                                       const AppOptions &opts,
                                                       Application::Origin origin);
};

/// Creates the state: driver, device, primary context, limits, pool.
Result<std::shared_ptr<RuntimeState>> createRuntimeState(const RuntimeOptions &options);

} // namespace Atoll::detail
