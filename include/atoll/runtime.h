// Runtime: owns the CUDA state of one device (the driver, the device's primary
// context, the module cache and the arena pool) and hands out Applications and
// Pipelines.
//
//   auto rt = Atoll::Runtime::create();                 // Result<unique_ptr<Runtime>>
//   auto app = (*rt)->loadApplicationFile("vadd.bc");   // Result<shared_ptr<Application>>
//   auto p = (*rt)->createPipeline({.arenaBytes = 64 << 20, .name = "tenant-a"});
//
// Thread-safety: every Runtime method may be called from any number of threads at
// once. Applications and Pipelines keep the runtime's shared state alive: destroying
// the Runtime object while they exist is allowed; the context is released when the
// last of them is gone.
//
// Context loss: a sticky driver error (e.g. an illegal address from code that did not
// come through AToLL) poisons the shared context. The runtime then reports
// ContextLost from every call; destroy it (and its pipelines and applications) and
// create a new one: the primary context is reset and the new Runtime works normally.
#pragma once

#include "atoll/application.h"
#include "atoll/error.h"
#include "atoll/launch.h"
#include "atoll/pipeline.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace Atoll {

namespace detail {
struct LoadSlot;
} // namespace detail

/// The sandboxed compile workers (docs/architecture.md, "The compile worker"): every
/// compilation of tenant bitcode, and every PTX -> cubin assembly, runs in a
/// single-use atoll-compile-worker process under these limits.
struct CompileWorkerOptions {
  /// The atoll-compile-worker executable. Empty: next to libatoll_runtime
  /// (<libdir>/../libexec/atoll/, then <libdir>/../bin/).
  std::string path;
  /// The most worker processes alive at once (starting, warm, busy, or killed and
  /// not yet reaped); every free one is kept warm. Each serves one request, then a
  /// fresh one replaces it. A load needs two in turn (compile, then assemble, in a
  /// worker that never saw the bitcode); loads beyond the limit wait for a free one,
  /// up to `timeout`, then fail with CompileResources. Worst-case worker memory is
  /// poolSize x memoryLimit. 0 = twice the number of cores (both stages of one
  /// load per core warm).
  size_t poolSize = 0;
  /// Address space of a worker (RLIMIT_AS); past it: CompileResources.
  uint64_t memoryLimit = uint64_t(4) << 30;
  /// CPU time of a worker (RLIMIT_CPU); past it: CompileResources.
  uint32_t cpuLimitSeconds = 60;
  /// Wall-clock limit of one request; the worker is then killed: CompileTimeout.
  std::chrono::milliseconds timeout{120000};
  /// Largest compile answer accepted from a worker (the hardened PTX and the
  /// signatures); past it: CompileResources. 0 = 5 x maxCubinBytes, at least 1 MiB
  /// (160 MiB by default): PTX text takes at most 5 characters per byte of a constant ("255, ")
  /// and about 2-4 per byte of machine code, so larger PTX could only assemble to a
  /// cubin that the load refuses anyway. An assemble answer (the cubin) is capped at
  /// maxCubinBytes plus 4 KiB of framing, at least 1 MiB. Also the cap on the PTX of
  /// any module (in process, disk cache): CapacityExceeded.
  uint32_t maxOutputBytes = 0;
  /// The service-wide byte budget for compile answers in flight (docs/runtime-api.md,
  /// "Compile workers"): a load is charged, from the compile answer's header, twice
  /// its PTX (the answer and the assemble request built from it) plus the largest
  /// cubin, until its module is loaded. A charge that does not fit waits for others
  /// to be released, up to `timeout`, then the load fails with CompileResources; one
  /// larger than the whole budget fails at once. 0 = twice one largest load
  /// (2 x (2 x maxOutputBytes + maxCubinBytes): 704 MiB by default), whatever the
  /// number of parallel loads.
  uint64_t answerBudget = 0;
};

struct RuntimeOptions {
  /// Which CUDA device (ordinal) to use.
  int deviceOrdinal = 0;
  /// Codegen target, e.g. "sm_90". Empty: from the device's compute capability.
  /// Without a usable driver/device, a non-empty target gives a compile-only runtime
  /// (loadApplication compiles, device operations return NoDevice).
  std::string targetArch;
  /// PTX ISA feature for the backend, e.g. "+ptx80". Empty: LLVM's default for the
  /// target (PTX 7.8 for sm_90, which every CUDA 12+ driver accepts).
  std::string ptxVersion;
  /// Never touch a device, even if there is one (compile-only; needs targetArch or
  /// uses "sm_90").
  bool compileOnly = false;
  /// Device memory the runtime may hold in arenas (live, pooled and quarantined).
  /// 0 = 90% of the device's free memory when the runtime is created.
  uint64_t deviceMemoryBudget = 0;
  /// Keep freed arenas (scrubbed) for reuse; makes pipeline creation cheap.
  bool poolArenas = true;
  /// Directory for the on-disk cache of compiled modules (PTX and cubin; created
  /// 0700 if missing); empty = none.
  /// Runtime::create refuses (IoError) a directory that is a symlink, not owned by
  /// the effective user, or writable by group or others. Entries are written to a
  /// random temporary name (O_EXCL|O_NOFOLLOW) and renamed; each is authenticated
  /// with a keyed BLAKE3 MAC, so a file the service did not write is never loaded.
  std::string ptxCacheDir;
  /// The MAC key of the disk cache (at least 32 bytes, hashed into the 256-bit key of
  /// a keyed BLAKE3 MAC); only the service may know it. Empty:
  /// the key file <ptxCacheDir>/.atoll-cache-key, created with 32 random bytes and
  /// mode 0600 if missing, refused unless it is a regular file of ours with mode 0600.
  std::string ptxCacheKey;
  /// The most disk space the cache's files may take (allocated blocks), so that a
  /// tenant loading many distinct modules cannot fill the disk. A store that would
  /// exceed it first deletes the least recently used entries (a hit refreshes an
  /// entry; deleting one a loaded module came from is harmless); an entry larger
  /// than the bound is not stored. Must be positive (InvalidArgument).
  uint64_t ptxCacheMaxBytes = uint64_t(1) << 30;
  /// libdevice.10.bc; empty = the one of the configured CUDA toolkit.
  std::string libdevicePath;
  /// Compile in the service process instead of in compile workers: for debugging
  /// only (a crash of LLVM or of the PTX assembler then takes the service down).
  bool compileInProcess = false;
  /// The compile workers (unless compileInProcess).
  CompileWorkerOptions compileWorkers;
  /// Synchronisation timeout when neither the pipeline nor the application sets one.
  std::chrono::milliseconds defaultTimeout{10000};
  /// At shutdown, how long to wait for quarantined arenas (wedged work) to drain.
  /// If they do not, the runtime abandons the context (nothing is unloaded, freed or
  /// released: no call can wait for the wedged kernel); teardown takes at most about
  /// twice this (stopping the loader, the drain) and never waits for the unloads and
  /// frees it hands to the process-wide reclaimer.
  std::chrono::milliseconds shutdownDrainTimeout{5000};
  /// How long loadApplication waits for the driver to load a module. Module loads
  /// wait for every running kernel of the shared context, so another tenant's long
  /// kernel delays them: past this, loadApplication returns Timeout (the load goes
  /// on; see loadApplicationAsync).
  std::chrono::milliseconds loadTimeout{15000};
  /// Loaded modules kept in memory; beyond it, unused ones are evicted (LRU).
  size_t moduleCacheCapacity = 1024;
  /// The most bytes the service keeps for loaded modules, those in use and those
  /// cached (review R7-F10): per module its cubin (its code and constants live in
  /// device memory outside deviceMemoryBudget), its PTX when kept (keepPtx) and the
  /// host memory of its signatures. A load that does not fit first evicts unused
  /// cached modules (least recently used first); if the modules in use leave no
  /// room, or the module alone is larger, loadApplication returns CapacityExceeded
  /// naming the application (other loads and the loaded applications go on). Must
  /// be positive (InvalidArgument).
  uint64_t moduleMemoryBudget = uint64_t(1) << 30;
  /// Keep each loaded module's hardened PTX for Application::ptx() (benchmarks,
  /// debugging); it then counts against moduleMemoryBudget. Off, a runtime with a
  /// device drops the PTX once the cubin is loaded and ptx() is empty. A
  /// compile-only runtime always keeps it (the PTX is what it produces).
  bool keepPtx = false;
  /// Most blocks of one launch (grid.x * grid.y * grid.z); a larger grid is refused
  /// (InvalidLaunch). A cancelled grid still starts every block (there is no entry
  /// poll: it cost up to 3.4x on streaming kernels), and each runs until its first
  /// poll or its end: the first back edge of a checked loop (the cancel word read at
  /// entry, R6-F3), after a charged loop (at most 2^20 units), or loop-free at most
  /// the entry budget (16384 units, docs/passes.md). Empty blocks drain in ~8 ms for 2^24 at full occupancy. The device
  /// allows 2^31-1 x 65535 x 65535 (hours of empty blocks). 1 .. 2^63.
  uint64_t maxBlocksPerLaunch = uint64_t(1) << 24;
  /// Bounds on what tenants may ask for (docs/runtime-api.md, "Timeouts and the
  /// watchdog"): the largest PipelineOptions::timeout and AppOptions::timeout
  /// (defaultTimeout too), and the largest PipelineOptions::cancelDeadline; past
  /// them createPipeline / loadApplication return InvalidArgument.
  std::chrono::milliseconds maxTimeout{60000};
  std::chrono::milliseconds maxCancelDeadline{10000};
  /// The watchdog's hard limit: no pipeline's stream stays busy (without coming to
  /// rest) longer than this, whatever its policy: with cancelOnTimeout the watchdog
  /// cancels at the pipeline's timeout (at most this), without it (cooperative) at
  /// this. Together with maxCancelDeadline it bounds how long a module load or a
  /// reclaim can be starved by running kernels.
  std::chrono::milliseconds maxBusyTime{60000};
  /// The most bytes of copies and fills one pipeline may have queued on its stream
  /// (review R8-F6): a cancel word stops kernels, not a memset or a DMA, so what a
  /// quiet section (module load or unload, cuMemFree) waits for once the launch gate
  /// is closed is bounded by this per pipeline (256 MiB: ~0.1 ms of fill on an H200,
  /// ~5 ms over PCIe 5). A larger copy or fill is issued in pieces of at most this
  /// size; a piece that does not fit waits, lock released and bounded by the
  /// pipeline's timeout, until the stream is idle (docs/runtime-api.md, "Copies and
  /// fills"). 0 is InvalidArgument.
  uint64_t maxQueuedCopyBytes = uint64_t(256) << 20;
  /// Module loads hold every tenant's launches while the driver loads and looks up
  /// the kernels (review R5-F6): the most kernels of one module and the largest
  /// cubin; past them loadApplication returns CapacityExceeded, with or without a
  /// device. Checked from the sizes first on every path (review R10-F1): a compile
  /// worker's answer when it is decoded, a disk-cache entry when it is read, every
  /// module before its PTX is validated.
  uint32_t maxKernelsPerModule = 512;
  uint64_t maxCubinBytes = uint64_t(32) << 20;
  /// SM partitions (green contexts) created when the runtime starts, by SM count
  /// (e.g. {8, 8, 64}); a pipeline with that quota then takes one from the pool in
  /// microseconds instead of creating one (about 1 ms on an H200, in a quiet section
  /// of the device). Empty: created on first use and kept for reuse. Ignored (and
  /// nothing fails) where green contexts are unsupported.
  std::vector<uint32_t> partitionPool;
  /// SMs set aside for pipelines with an SM quota (docs/runtime-api.md, "SM
  /// partitions"), rounded up to the partition granularity (8 on an H200). Nonzero:
  /// at start the device is split once; quota pipelines take partitions from these
  /// SMs only (admission counts them alone) and pipelines without a quota run on a
  /// green context over all the other SMs, so none of their kernels ever runs on a
  /// quota pipeline's SMs, whatever quotas come and go. It must leave at least one
  /// partition's worth of SMs (Runtime::create: InvalidArgument otherwise). 0: quota
  /// partitions come from the whole device and pipelines without a quota run on
  /// every SM, those of quota pipelines included (no protection from them). Ignored
  /// where green contexts are unsupported (everything runs on the whole device).
  uint32_t quotaSms = 0;
};

struct DeviceInfo {
  bool present = false;       // false for a compile-only runtime
  int ordinal = 0;
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int driverVersion = 0;      // e.g. 13000
  uint64_t totalMemory = 0;
  uint64_t allocationGranularity = 0;
  std::string targetArch;     // what kernels are compiled for, e.g. "sm_90"
  std::string ptxVersion;     // "" = LLVM's default for targetArch
  DeviceLimits limits;
};

struct RuntimeStats {
  uint64_t budgetBytes = 0;
  uint64_t committedBytes = 0;   // arenas of live pipelines + quarantined arenas
  uint64_t pooledBytes = 0;      // scrubbed (or scrubbing) arenas ready for reuse
  uint64_t livePipelines = 0;
  uint64_t pooledArenas = 0;
  uint64_t quarantinedArenas = 0; // released while their work was still running
  uint64_t pipelinesCreated = 0;
  /// Streams of ended pipelines kept for the next (with their cancel event and
  /// control block; docs/runtime-api.md, "Pipeline creation"), and pipelines that
  /// took one instead of creating a stream.
  uint64_t pipelineStreamsPooled = 0;
  uint64_t pipelineStreamsReused = 0;
  uint64_t arenasFromPool = 0;
  uint64_t arenasAllocated = 0;
  uint64_t arenasFreed = 0;
  uint64_t compilations = 0;     // loads that ran LLVM
  uint64_t memoryCacheHits = 0;
  uint64_t diskCacheHits = 0;
  uint64_t cachedModules = 0;
  /// RuntimeOptions::moduleMemoryBudget, the bytes charged to it now (modules in use
  /// and cached, loads in progress), and the loads it refused.
  uint64_t moduleMemoryBudget = 0, moduleBytes = 0, moduleRefusals = 0;
  uint64_t compileWorkersWarm = 0;    // started, initialised, waiting for a request
  uint64_t compileWorkersStarted = 0;
  /// Of them, started while a load through the workers was in flight (only when a
  /// request needed one, or to keep the pool's small floor of warm workers).
  uint64_t compileWorkersStartedDuringLoads = 0;
  uint64_t compileWorkerFailures = 0; // crashed, hung, over a limit, or a malformed answer
  uint64_t compileWorkersLimit = 0;   // CompileWorkerOptions::poolSize as resolved
  uint64_t compileWorkersLive = 0;    // processes not yet reaped (<= the limit)
  uint64_t compileWorkersPeak = 0;    // most alive at once
  /// Sums (microseconds) for finding where a load's time goes: waiting for a free
  /// worker, a worker's start until Ready (summed over compileWorkersReady starts:
  /// compileWorkersStarted counts spawns, some still starting), compile and
  /// assemble requests on a worker.
  uint64_t compileWorkerWaits = 0, compileWorkerWaitMicros = 0;
  uint64_t compileWorkerStartMicros = 0, compileWorkersReady = 0;
  uint64_t compileRequests = 0, compileRequestMicros = 0;
  uint64_t assembleRequests = 0, assembleRequestMicros = 0;
  /// The scheduler's view of the workers' requests (Linux /proc, over
  /// compileWorkerSampledRequests of them, from the request's start to its answer):
  /// microseconds on a CPU, microseconds runnable but waiting for a CPU, minor page
  /// faults, and the requests whose worker waited 1 ms or more for a CPU (a pool
  /// larger than the machine's spare cores shows here first).
  uint64_t compileWorkerCpuMicros = 0, compileWorkerRunQueueMicros = 0;
  uint64_t compileWorkerMinorFaults = 0, compileWorkerQueuedRequests = 0;
  uint64_t compileWorkerSampledRequests = 0;
  /// The compile answer budget (CompileWorkerOptions::answerBudget as resolved):
  /// bytes charged now, the most at once, charges that waited, and refusals.
  uint64_t compileAnswerBudget = 0, compileAnswerBytes = 0, compileAnswerBytesPeak = 0;
  uint64_t compileAnswerWaits = 0, compileAnswerRefusals = 0;
  /// Process-wide (every runtime shares the reclaimer): driver calls that wait for
  /// running kernels (module unloads, frees, context releases) queued until no kernel
  /// runs; and those given up (their runtime abandoned or lost, or the queue full):
  /// the resource is leaked, which is safe (docs/runtime-api.md, "Teardown").
  uint64_t deferredReclaims = 0;
  uint64_t leakedReclaims = 0;
  /// Pipelines' work cancelled by the runtime's watchdog (busy past its limit with
  /// nobody waiting, review R5-F3).
  uint64_t watchdogCancels = 0;
  /// SM partitions (green contexts; docs/runtime-api.md, "SM partitions").
  /// partitionSms: SMs that partitions can use (0: unsupported here).
  uint32_t partitionSms = 0;
  uint32_t partitionSmsCommitted = 0; // SMs held by partitioned pipelines (and draining ones)
  /// SMs of the rest of the device, where pipelines without a quota run
  /// (RuntimeOptions::quotaSms); 0: they run on the whole device.
  uint32_t partitionRemainderSms = 0;
  uint64_t partitionsLive = 0;        // partitions in use by a pipeline
  uint64_t partitionsPooled = 0;      // created, idle, kept for reuse
  uint64_t partitionsCreated = 0;     // cuGreenCtxCreate calls that succeeded
  uint64_t partitionsFromPool = 0;    // pipelines that took a pooled partition
};

/// A module load in progress (Runtime::loadApplicationAsync). Copyable; the load
/// goes on whether or not anyone waits, and its module joins the cache.
class PendingApplication {
public:
  PendingApplication() = default;
  explicit PendingApplication(std::shared_ptr<detail::LoadSlot> slot);
  /// True once the result is there (wait() then returns at once).
  bool ready() const;
  /// The result, waiting at most `limit` (saturated; 0 = just look): Timeout while
  /// the driver load still waits (behind running kernels); call again.
  Result<std::shared_ptr<Application>> wait(std::chrono::milliseconds limit) const;

private:
  std::shared_ptr<detail::LoadSlot> slot_;
};

/// Page-locked host memory (cuMemAllocHost, which returns at once); async copies
/// from/to it do not block the calling thread. Movable; releases itself (never
/// throws, never waits: the block is kept for reuse, zeroed when handed out again,
/// and freed by the process-wide reclaimer, when no kernel runs, once the runtime
/// goes).
class HostMemory {
public:
  HostMemory() = default;
  HostMemory(HostMemory &&other) noexcept;
  HostMemory &operator=(HostMemory &&other) noexcept;
  ~HostMemory();
  void *data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  template <typename T> std::span<T> as() const noexcept {
    return {static_cast<T *>(data_), size_ / sizeof(T)};
  }

  /// Internal.
  HostMemory(std::shared_ptr<detail::RuntimeState> state, void *data, size_t size)
      : state_(std::move(state)), data_(data), size_(size) {}

private:
  void reset() noexcept;
  std::shared_ptr<detail::RuntimeState> state_;
  void *data_ = nullptr;
  size_t size_ = 0;
};

class Runtime {
public:
  /// NoDriver / NoDevice when there is no usable GPU (unless a compile-only runtime
  /// was asked for), DriverError when the context cannot be retained.
  static Result<std::unique_ptr<Runtime>> create(const RuntimeOptions &options = {});
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  const DeviceInfo &device() const noexcept;
  bool hasDevice() const noexcept;
  /// True once a sticky error has poisoned the context.
  bool lost() const noexcept;
  const RuntimeOptions &options() const noexcept;

  /// Compiles (or finds in the cache) and loads bitcode or textual LLVM IR.
  /// Errors: InvalidBitcode, WrongTarget, Refused (detail: the pass diagnostics),
  /// CompileError, JitError (detail: the JIT log), ContextLost, Timeout (the driver
  /// load did not finish within RuntimeOptions::loadTimeout: it waits behind running
  /// kernels of any tenant). Compilation runs on the calling thread, the driver load
  /// on the runtime's loader thread.
  Result<std::shared_ptr<Application>> loadApplication(std::span<const uint8_t> bitcode,
                                                       const AppOptions &options = {});
  Result<std::shared_ptr<Application>> loadApplication(const void *data, size_t size,
                                                       const AppOptions &options = {});
  /// Like loadApplication, but returns once compiled (or found): the driver load is
  /// queued and the handle waits for it with a bound of the caller's choosing.
  PendingApplication loadApplicationAsync(std::span<const uint8_t> bitcode,
                                          const AppOptions &options = {});
  /// IoError when the file cannot be read.
  Result<std::shared_ptr<Application>> loadApplicationFile(const std::string &path,
                                                           const AppOptions &options = {});

  /// A new pipeline with its own stream and a scrubbed arena (from the pool when one
  /// of the same size is free). CapacityExceeded when the arena would exceed the
  /// device-memory budget; NoDevice for a compile-only runtime.
  Result<std::unique_ptr<Pipeline>> createPipeline(const PipelineOptions &options = {});

  /// Page-locked host memory (see HostMemory).
  Result<HostMemory> allocateHost(size_t bytes);

  /// Moves quarantined arenas whose work has ended back to the pool (also done on
  /// every createPipeline). Returns how many stay quarantined.
  size_t collect();
  /// Frees every pooled arena that is not in use.
  void trimPool();
  /// Evicts every cached module no Application or running work uses; returns how
  /// many. Never waits: the unloads run on the reclaim thread.
  size_t trimModuleCache();
  RuntimeStats stats() const;

  /// Internal.
  explicit Runtime(std::shared_ptr<detail::RuntimeState> state);

private:
  std::shared_ptr<detail::RuntimeState> state_;
};

} // namespace Atoll
