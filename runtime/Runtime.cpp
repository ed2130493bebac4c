// Runtime creation and teardown (driver, device, primary context, limits, budget),
// context-loss bookkeeping, and the thin public Runtime / HostMemory classes.
#include "CacheKey.h"
#include "ModuleLoad.h"
#include "RuntimeState.h"
#include "Watchdog.h"
#include "compile/RemoteCompile.h"

#include "atoll/runtime.h"

#include <fmt/format.h>

#include <cstring>
#include <thread>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace Atoll {
namespace detail {

std::atomic<uint64_t> DeviceRegistry::generation[DeviceRegistry::kMaxDevices];
std::atomic<bool> DeviceRegistry::lost[DeviceRegistry::kMaxDevices];
std::mutex DeviceRegistry::mutex;

void RuntimeState::markLost() noexcept {
  if (!api)
    return;
  lostFlag.store(true);
  inert->store(true);
  if (DeviceRegistry::generation[info.ordinal].load() == generation)
    DeviceRegistry::lost[info.ordinal].store(true);
}

void RuntimeState::abandon() noexcept {
  abandoned.store(true);
  inert->store(true);
}

void RuntimeState::reclaim(std::function<void()> fn) noexcept {
  if (!api)
    return;
  // Lost, reset since, or abandoned by the time it would run: the reclaimer drops it
  // (leaks rather than touch the driver).
  try {
    Reclaimer::instance().post({info.ordinal, generation, ctx, api, inert, std::move(fn)});
  } catch (...) {
    // No memory for the task: the resource leaks, which is safe.
  }
}

Result<DeviceActivity::QuietSection> RuntimeState::waitQuiet(std::string_view what) {
  using namespace std::chrono;
  auto pause = microseconds(200);
  const auto begin = steady_clock::now();
  while (true) {
    if (Reclaimer::instance().exiting())
      return Error(ErrorCode::ContextLost, fmt::format("cannot {}: the process is exiting", what));
    if (Status s = requireDevice(what); !s)
      return std::move(s).error();
    // Starved (kernels back to back): hold launches for a moment so short ones drain.
    const auto settle = steady_clock::now() - begin > milliseconds(500)
                            ? DeviceActivity::kMaxSettle
                            : microseconds(0);
    DeviceActivity &device = DeviceActivity::of(info.ordinal);
    if (auto q = device.tryQuiet(*api, generation, settle))
      return std::move(*q);
    // Starved for long: drain (bounded, rate-limited; see tryDrain).
    if (steady_clock::now() - begin > DeviceActivity::kStarveAfter)
      if (auto q = device.tryDrain(*api, generation))
        return std::move(*q);
    std::this_thread::sleep_for(pause);
    pause = std::min<microseconds>(pause * 2, milliseconds(10));
  }
}

bool RuntimeState::makeCurrent() noexcept {
  if (!api || lost() || abandoned.load(std::memory_order_relaxed))
    return false;
  CUresult r = api->cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    if (cuda::isStickyError(r))
      markLost();
    return false;
  }
  return true;
}

Error RuntimeState::fail(CUresult r, std::string_view what) {
  if (cuda::isStickyError(r))
    markLost();
  return cuda::driverError(*api, r, what);
}

Error RuntimeState::lostError(std::string_view what) const {
  return Error(ErrorCode::ContextLost,
               fmt::format("cannot {}: the shared CUDA context is lost (a sticky error); "
                           "destroy this runtime and create a new one",
                           what));
}

Status RuntimeState::requireDevice(std::string_view what) {
  if (!api)
    return Error(ErrorCode::NoDevice,
                 fmt::format("cannot {}: this runtime is compile-only (no CUDA device)", what));
  if (lost())
    return lostError(what);
  if (!makeCurrent())
    return lost() ? lostError(what)
                  : Error(ErrorCode::DriverError,
                          fmt::format("cannot {}: the context could not be made current", what));
  return {};
}

namespace {

int attribute(const cuda::DriverApi &api, CUdevice dev, CUdevice_attribute a, int fallback) {
  int v = 0;
  return api.cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? v : fallback;
}

} // namespace

Result<std::shared_ptr<RuntimeState>> createRuntimeState(const RuntimeOptions &options) {
  auto state = std::make_shared<RuntimeState>(options);
  state->toolchainId = toolchainIdentity();
  DeviceInfo &info = state->info;
  info.ordinal = options.deviceOrdinal;
  if (options.defaultTimeout.count() <= 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::defaultTimeout must be positive");
  if (options.loadTimeout.count() <= 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::loadTimeout must be positive");
  if (Status s = checkRuntimeLimits(options); !s)
    return std::move(s).error();
  if (options.shutdownDrainTimeout.count() < 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::shutdownDrainTimeout is negative");
  if (options.maxQueuedCopyBytes == 0)
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::maxQueuedCopyBytes must be positive (the most bytes of "
                 "copies and fills a pipeline may have queued)");
  if (options.maxBlocksPerLaunch == 0 || options.maxBlocksPerLaunch > (uint64_t(1) << 63))
    return Error(ErrorCode::InvalidArgument,
                 "RuntimeOptions::maxBlocksPerLaunch must be between 1 and 2^63");
  info.limits.maxBlocksPerLaunch = options.maxBlocksPerLaunch;
  if (!options.ptxCacheDir.empty()) {
    auto disk =
        DiskCache::open(options.ptxCacheDir, options.ptxCacheKey, options.ptxCacheMaxBytes);
    if (!disk)
      return std::move(disk).error();
    state->disk = std::move(*disk);
  } else if (!options.ptxCacheKey.empty()) {
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::ptxCacheKey without ptxCacheDir");
  }

  if (!options.compileInProcess) {
    auto pool = startCompilePool(options);
    if (!pool)
      return std::move(pool).error();
    state->compilePool = std::move(*pool);
  }

  auto compileOnly = [&]() -> Result<std::shared_ptr<RuntimeState>> {
    info.present = false;
    info.targetArch = options.targetArch.empty() ? "sm_90" : options.targetArch;
    info.ptxVersion = options.ptxVersion;
    return state;
  };
  if (options.compileOnly)
    return compileOnly();

  auto driver = cuda::loadDriver();
  if (!driver) {
    if (!options.targetArch.empty())
      return compileOnly();
    return std::move(driver).error();
  }
  const cuda::DriverApi &api = **driver;
  int count = 0;
  api.cuDeviceGetCount(&count);
  if (options.deviceOrdinal < 0 || options.deviceOrdinal >= count ||
      options.deviceOrdinal >= DeviceRegistry::kMaxDevices)
    return Error(ErrorCode::NoDevice,
                 fmt::format("no CUDA device with ordinal {} ({} device{} present)",
                             options.deviceOrdinal, count, count == 1 ? "" : "s"));
  CUdevice dev;
  if (CUresult r = api.cuDeviceGet(&dev, options.deviceOrdinal); r != CUDA_SUCCESS)
    return Error(ErrorCode::NoDevice,
                 fmt::format("CUDA device {} is not usable", options.deviceOrdinal),
                 cuda::describe(api, r));

  {
    std::lock_guard lock(DeviceRegistry::mutex);
    int d = options.deviceOrdinal;
    if (DeviceRegistry::lost[d].load()) {
      // A lost context is reset before anyone uses it again; states of the old
      // generation become inert.
      api.cuDevicePrimaryCtxReset(dev);
      DeviceRegistry::generation[d].fetch_add(1);
      DeviceRegistry::lost[d].store(false);
    }
    CUcontext ctx = nullptr;
    if (CUresult r = api.cuDevicePrimaryCtxRetain(&ctx, dev); r != CUDA_SUCCESS) {
      // Measured on driver 580: after a sticky error neither a reset primary
      // context nor a new context can be created in the same process.
      if (cuda::isStickyError(r))
        return Error(ErrorCode::ContextLost,
                     "the CUDA driver keeps this process's sticky error: the GPU can only "
                     "be used again after the process restarts (compile-only runtimes still "
                     "work)",
                     cuda::describe(api, r));
      return cuda::driverError(api, r, "retaining the device's primary context");
    }
    state->api = &api;
    state->hostBlocks = std::make_unique<HostBlocks>(&api);
    state->device = dev;
    state->ctx = ctx;
    state->generation = DeviceRegistry::generation[d].load();
  }
  // How long a drain may hold launches: every busy period of this runtime ends by then.
  // Saturated: the service may set its caps to milliseconds::max().
  {
    using ms = std::chrono::milliseconds;
    auto add = [](ms a, ms b) { return a > ms::max() - b ? ms::max() : a + b; };
    DeviceActivity::of(options.deviceOrdinal)
        .noteDrainHold(add(add(options.maxBusyTime, options.maxCancelDeadline), 2 * Watchdog::kTick));
  }
  // From here on, ~RuntimeState releases the context on every error path.
  if (CUresult r = api.cuCtxSetCurrent(state->ctx); r != CUDA_SUCCESS)
    return state->fail(r, "making the primary context current");

  info.present = true;
  char name[256] = {};
  api.cuDeviceGetName(name, sizeof name, dev);
  info.name = name;
  info.driverVersion = api.driverVersion;
  info.computeMajor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
  info.computeMinor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  size_t total = 0;
  api.cuDeviceTotalMem(&total, dev);
  info.totalMemory = total;
  info.targetArch = options.targetArch.empty()
                        ? fmt::format("sm_{}{}", info.computeMajor, info.computeMinor)
                        : options.targetArch;
  info.ptxVersion = options.ptxVersion;

  DeviceLimits &lim = info.limits;
  lim.maxThreadsPerBlock =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, lim.maxThreadsPerBlock);
  lim.maxBlockDim[0] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, lim.maxBlockDim[0]);
  lim.maxBlockDim[1] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, lim.maxBlockDim[1]);
  lim.maxBlockDim[2] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, lim.maxBlockDim[2]);
  lim.maxGridDim[0] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, lim.maxGridDim[0]);
  lim.maxGridDim[1] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, lim.maxGridDim[1]);
  lim.maxGridDim[2] = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, lim.maxGridDim[2]);
  lim.defaultSharedPerBlock = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                                        lim.defaultSharedPerBlock);
  lim.maxSharedPerBlockOptin = attribute(
      api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, lim.defaultSharedPerBlock);

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t granularity = 0;
  state->vmm = attribute(api, dev, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0) != 0;
  if (!state->vmm || api.cuMemGetAllocationGranularity(&granularity, &prop,
                                                       CU_MEM_ALLOC_GRANULARITY_MINIMUM) !=
                         CUDA_SUCCESS)
    granularity = ATOLL_MIN_ARENA_BYTES;
  info.allocationGranularity = granularity;

  // The local-memory reservation first: it takes device memory the budget must not count.
  if (Status s = state->reserveLocalMemory(); !s)
    return std::move(s).error();

  uint64_t budget = options.deviceMemoryBudget;
  if (budget == 0) {
    size_t freeBytes = 0, totalBytes = 0;
    if (CUresult r = api.cuMemGetInfo(&freeBytes, &totalBytes); r != CUDA_SUCCESS)
      return state->fail(r, "querying free device memory");
    budget = uint64_t(freeBytes) / 10 * 9;
  }
  state->backend = std::make_unique<CudaArenaBackend>(*state);
  state->pool = std::make_unique<ArenaPool>(*state->backend, budget, options.poolArenas);
  // SM partitions: the split at once; green contexts of the pool on the loader thread
  // (quiet sections), each waited for at most loadTimeout.
  state->partitions = std::make_unique<PartitionManager>(*state);
  state->partitions->init(api, dev);
  // SMs set aside for quotas: the rest of the device becomes the green context of
  // pipelines without a quota. A driver that turns out not to run partitions
  // (Unsupported) leaves everything on the whole device, as without partitions.
  if (options.quotaSms && state->partitions->supported())
    if (Status s = state->partitions->reserve(options.quotaSms, options.loadTimeout);
        !s && s.error().code() != ErrorCode::Unsupported)
      return std::move(s).error();
  if (!options.partitionPool.empty() && state->partitions->supported())
    state->partitions->prewarm(options.partitionPool, options.loadTimeout);
  return state;
}

RuntimeState::~RuntimeState() {
  // Nothing here may wait for a tenant's kernel without a bound: the decision to
  // abandon wedged work comes first, before anything that would wait for it.
  if (!api) {
    loader.stop(false, options.shutdownDrainTimeout);
    return;
  }
  const int d = info.ordinal;
  const bool current = DeviceRegistry::generation[d].load() == generation;
  // 1. Queued loads are dropped (their waiters get ContextLost). No load is in the
  //    driver now (a running load holds the state), unless this destructor runs on
  //    the loader thread itself, which stop() detects.
  loader.stop(false, options.shutdownDrainTimeout);
  // 2. Drain the pool (polling, bounded); what is still quarantined then runs a
  //    kernel that did not end: abandon the context before anything could wait.
  if (current && !lost() && makeCurrent() && pool) {
    // Pooled lanes: slots and streams given back (their work ends on its own).
    lanes.shutdown(true);
    pool->shutdown(options.shutdownDrainTimeout);
    if (pool->stats().quarantinedArenas > 0)
      abandon();
    // The control blocks: the stream at once, the memory on the reclaim thread.
    if (!abandoned.load())
      controls.shutdown();
    // Green contexts: destroyed on the reclaimer, before the context's release
    // (each holds a reference to the primary context).
    if (!abandoned.load() && partitions)
      partitions->shutdown();
  } else {
    lanes.shutdown(false);
    inert->store(true); // lost or reset: the reset frees everything
  }
  // 3. Drop modules and arenas: unloads and frees are queued on the reclaim thread
  //    (or dropped when abandoned or lost).
  pool.reset();
  // Pinned host blocks: no HostMemory is left (each holds the state), so every block
  // is released; freed on the reclaim thread (cuMemFreeHost waits for kernels), which
  // runs in a quiet section, after every transfer.
  if (hostBlocks)
    hostBlocks->drain([this](void *p) { reclaim([api = api, p] { api->cuMemFreeHost(p); }); });
  modules.clear();
  backend.reset();
  // 4. Nothing is waited for: the queued unloads and frees run on the process-wide
  //    reclaimer once no kernel of the context runs (or are dropped, abandoned or
  //    lost). The context's release goes last in that queue: after this runtime's
  //    frees, and it may be the last reference (destroying the context waits too).
  std::lock_guard lock(DeviceRegistry::mutex);
  bool reset = DeviceRegistry::generation[d].load() != generation; // by another runtime
  if (!reset && (lostFlag.load() || DeviceRegistry::lost[d].load())) {
    api->cuDevicePrimaryCtxReset(device);
    DeviceRegistry::generation[d].fetch_add(1);
    DeviceRegistry::lost[d].store(false);
    reset = true;
  }
  if (abandoned.load())
    return; // work may still use the context: keep our reference for ever
  if (reset) // after cuDevicePrimaryCtxReset: nothing of this runtime runs any more
    api->cuDevicePrimaryCtxRelease(device);
  else
    reclaim([api = api, dev = device] { api->cuDevicePrimaryCtxRelease(dev); });
}

} // namespace detail

using detail::RuntimeState;

// --- Runtime ---------------------------------------------------------------------

Runtime::Runtime(std::shared_ptr<RuntimeState> state) : state_(std::move(state)) {}
Runtime::~Runtime() = default;

Result<std::unique_ptr<Runtime>> Runtime::create(const RuntimeOptions &options) {
  auto state = detail::createRuntimeState(options);
  if (!state)
    return std::move(state).error();
  return std::make_unique<Runtime>(std::move(*state));
}

const DeviceInfo &Runtime::device() const noexcept { return state_->info; }
bool Runtime::hasDevice() const noexcept { return state_->hasDevice(); }
bool Runtime::lost() const noexcept { return state_->lost(); }
const RuntimeOptions &Runtime::options() const noexcept { return state_->options; }

Result<std::shared_ptr<Application>> Runtime::loadApplication(std::span<const uint8_t> bitcode,
                                                              const AppOptions &options) {
  return state_->loadApplication(bitcode, options);
}

PendingApplication Runtime::loadApplicationAsync(std::span<const uint8_t> bitcode,
                                                 const AppOptions &options) {
  try {
    return state_->loadApplicationAsync(bitcode, options);
  } catch (const std::bad_alloc &) {
    auto slot = std::make_shared<detail::LoadSlot>();
    slot->set(Error(ErrorCode::CapacityExceeded, "loadApplicationAsync: out of host memory"));
    return PendingApplication(std::move(slot));
  }
}

Result<std::shared_ptr<Application>> Runtime::loadApplication(const void *data, size_t size,
                                                              const AppOptions &options) {
  if (!data && size)
    return Error(ErrorCode::InvalidArgument, "loadApplication: null data");
  return state_->loadApplication({static_cast<const uint8_t *>(data), size}, options);
}

Result<std::shared_ptr<Application>> Runtime::loadApplicationFile(const std::string &path,
                                                                  const AppOptions &options) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error(ErrorCode::IoError, fmt::format("cannot open '{}'", path),
                 std::error_code(errno, std::generic_category()).message());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad())
    return Error(ErrorCode::IoError, fmt::format("cannot read '{}'", path));
  return state_->loadApplication(bytes, options);
}

Result<std::unique_ptr<Pipeline>> Runtime::createPipeline(const PipelineOptions &options) {
  // No exception crosses the API (createPipeline releases what it holds on the way).
  try {
    return state_->createPipeline(options);
  } catch (const std::bad_alloc &) {
    return Error(ErrorCode::CapacityExceeded, "createPipeline: out of host memory");
  } catch (const std::exception &e) {
    return Error(ErrorCode::DriverError, fmt::format("createPipeline failed: {}", e.what()));
  }
}

Result<HostMemory> Runtime::allocateHost(size_t bytes) {
  if (Status s = state_->requireDevice("allocate page-locked host memory"); !s)
    return std::move(s).error();
  if (bytes == 0)
    return Error(ErrorCode::InvalidArgument, "cannot allocate 0 bytes of host memory");
  // cuMemAllocHost returns at once while kernels run (measured on the H200);
  // cuMemFreeHost waits for them, so it runs on the reclaim thread. (Registering
  // aligned_alloc memory with cuMemHostRegister was tried: on the H200 it blocked
  // for seconds while another thread's driver call waited for a running kernel.)
  // A released block of the runtime's own is reused, zeroed (no residue of the
  // tenant that had it), once no transfer that named it can still run.
  if (void *reused = state_->hostBlocks->reuse(bytes))
    return HostMemory(state_, reused, bytes);
  void *p = nullptr;
  if (CUresult r = state_->api->cuMemAllocHost(&p, bytes); r != CUDA_SUCCESS) {
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
      return Error(ErrorCode::CapacityExceeded,
                   fmt::format("cannot page-lock {} bytes of host memory", bytes),
                   cuda::describe(*state_->api, r));
    return state_->fail(r, fmt::format("page-locking {} bytes of host memory", bytes));
  }
  state_->hostBlocks->add(p, bytes);
  return HostMemory(state_, p, bytes);
}

size_t Runtime::collect() {
  if (!state_->pool || !state_->makeCurrent())
    return 0;
  return state_->pool->collect();
}

void Runtime::trimPool() {
  if (state_->pool && state_->makeCurrent())
    state_->pool->trim();
}

size_t Runtime::trimModuleCache() { return state_->modules.trim(); }

RuntimeStats Runtime::stats() const {
  RuntimeStats s;
  if (state_->pool) {
    detail::ArenaPoolStats p = state_->pool->stats();
    s.budgetBytes = p.budget;
    s.committedBytes = p.committed;
    s.pooledBytes = p.pooled;
    s.pooledArenas = p.pooledArenas;
    s.quarantinedArenas = p.quarantinedArenas;
    s.arenasFromPool = p.fromPool;
    s.arenasAllocated = p.allocated;
    s.arenasFreed = p.freed;
  }
  s.livePipelines = state_->livePipelines.load();
  s.pipelinesCreated = state_->pipelinesCreated.load();
  s.pipelineStreamsPooled = state_->lanes.pooled();
  s.pipelineStreamsReused = state_->lanes.reused();
  s.compilations = state_->compilations.load();
  s.memoryCacheHits = state_->memoryHits.load();
  s.diskCacheHits = state_->diskHits.load();
  s.cachedModules = state_->modules.size();
  s.moduleMemoryBudget = state_->modules.byteBudget();
  s.moduleBytes = state_->modules.bytes();
  s.moduleRefusals = state_->modules.refusals();
  if (state_->compilePool) {
    auto c = state_->compilePool->stats();
    s.compileWorkersWarm = state_->compilePool->warm();
    s.compileWorkersStarted = c.started;
    s.compileWorkersStartedDuringLoads = c.startedDuringLoads;
    s.compileWorkerFailures = c.failed;
    s.compileWorkersLimit = state_->compilePool->limit();
    s.compileWorkersLive = c.live;
    s.compileWorkersPeak = c.peakLive;
    s.compileWorkerWaits = c.waits;
    s.compileWorkerWaitMicros = c.waitMicros;
    s.compileWorkerStartMicros = c.startMicros;
    s.compileWorkersReady = c.ready;
    s.compileRequests = c.compileRequests;
    s.compileRequestMicros = c.compileMicros;
    s.assembleRequests = c.assembleRequests;
    s.assembleRequestMicros = c.assembleMicros;
    s.compileWorkerCpuMicros = c.workerCpuMicros;
    s.compileWorkerRunQueueMicros = c.workerQueueMicros;
    s.compileWorkerMinorFaults = c.workerMinorFaults;
    s.compileWorkerQueuedRequests = c.workerQueued;
    s.compileWorkerSampledRequests = c.workerSampled;
    auto b = state_->compilePool->budget().stats();
    s.compileAnswerBudget = state_->compilePool->budget().capacity();
    s.compileAnswerBytes = b.inUse;
    s.compileAnswerBytesPeak = b.peak;
    s.compileAnswerWaits = b.waits;
    s.compileAnswerRefusals = b.refused;
  }
  if (state_->partitions && state_->makeCurrent()) {
    detail::PartitionStats p = state_->partitions->stats();
    s.partitionSms = p.sms;
    s.partitionSmsCommitted = p.committed;
    s.partitionRemainderSms = p.remainder;
    s.partitionsLive = p.live;
    s.partitionsPooled = p.pooled;
    s.partitionsCreated = p.created;
    s.partitionsFromPool = p.fromPool;
  }
  s.deferredReclaims = detail::Reclaimer::instance().queued();
  s.leakedReclaims = detail::Reclaimer::instance().leaked();
  s.watchdogCancels = state_->watchdogCancels.load();
  return s;
}

// --- HostMemory --------------------------------------------------------------------

HostMemory::HostMemory(HostMemory &&other) noexcept
    : state_(std::move(other.state_)), data_(other.data_), size_(other.size_) {
  other.data_ = nullptr;
  other.size_ = 0;
}

HostMemory &HostMemory::operator=(HostMemory &&other) noexcept {
  if (this != &other) {
    reset();
    state_ = std::move(other.state_);
    data_ = other.data_;
    size_ = other.size_;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

HostMemory::~HostMemory() { reset(); }

void HostMemory::reset() noexcept {
  // Kept for reuse (HostBlocks), zeroed when handed out again once its transfers
  // have ended; freed on the reclaim thread when the runtime goes (never if it is
  // lost or abandoned: a transfer may still target it).
  if (data_ && state_ && state_->hostBlocks)
    state_->hostBlocks->release(data_);
  data_ = nullptr;
  size_ = 0;
  state_.reset();
}

} // namespace Atoll
