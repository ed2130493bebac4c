// Loading applications: cache lookup (memory, then disk), the toolchain (bitcode ->
// hardened PTX, in a compile worker or in process), the checks before every load
// (ModuleValidation.h), then the driver load on the loader thread (ModuleLoad.cpp);
// and the Application / Kernel / PendingApplication classes.
#include "CacheKey.h"
#include "ModuleLoad.h"
#include "ModuleValidation.h"
#include "RuntimeState.h"
#include "Watchdog.h"
#include "compile/RemoteCompile.h"
#include "atoll/toolchain/Toolchain.h"

#include "atoll/abi.h"

#include "llvm/Support/MemoryBufferRef.h"

#include <fmt/format.h>

#include <condition_variable>

namespace Atoll {

// --- Application / Kernel -----------------------------------------------------------

Application::Application(Token, std::shared_ptr<detail::RuntimeState> state,
                         std::shared_ptr<const detail::LoadedModule> module, std::string name,
                         std::chrono::milliseconds timeout, Origin origin)
    : state_(std::move(state)), module_(std::move(module)), name_(std::move(name)),
      timeout_(timeout), origin_(origin) {}

Application::~Application() = default;

const std::string &Application::name() const noexcept { return name_; }
Clamping Application::clamping() const noexcept { return module_->clamping; }
std::chrono::milliseconds Application::timeout() const noexcept { return timeout_; }
const std::vector<KernelInfo> &Application::kernels() const noexcept { return module_->kernels; }
const std::string &Application::ptx() const noexcept { return module_->ptx; }
const std::string &Application::cacheKey() const noexcept { return module_->key; }
bool Application::loaded() const noexcept { return module_->module != nullptr; }

int Application::findKernel(std::string_view name) const noexcept {
  const auto &ks = module_->kernels;
  for (size_t i = 0; i < ks.size(); ++i)
    if (ks[i].name == name)
      return int(i);
  return -1;
}

Result<Kernel> Application::kernel(std::string_view name) const {
  int i = findKernel(name);
  if (i < 0) {
    std::string names;
    for (const KernelInfo &k : module_->kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    return Error(ErrorCode::NotFound,
                 fmt::format("application '{}' has no kernel '{}' (it has: {})", name_, name,
                             names));
  }
  return Kernel(shared_from_this(), uint32_t(i));
}

const std::string &Kernel::name() const { return info().name; }
const KernelInfo &Kernel::info() const { return app_->kernels()[index_]; }

// --- loading -------------------------------------------------------------------------

namespace detail {
namespace {

PendingApplication readyWith(Result<std::shared_ptr<Application>> r) {
  auto slot = std::make_shared<LoadSlot>();
  slot->set(std::move(r));
  return PendingApplication(std::move(slot));
}

} // namespace

void LoadSlot::set(Result<std::shared_ptr<Application>> r) {
  std::lock_guard lock(mutex);
  if (!result)
    result.emplace(std::move(r));
  cv.notify_all();
}

Result<std::shared_ptr<Application>> RuntimeState::loadApplication(
    std::span<const uint8_t> bitcode, const AppOptions &opts) {
  return loadApplicationAsync(bitcode, opts).wait(options.loadTimeout);
}

PendingApplication RuntimeState::loadApplicationAsync(std::span<const uint8_t> bitcode,
                                                      const AppOptions &opts) {
  if (hasDevice() && lost())
    return readyWith(lostError("load an application"));
  if (opts.optLevel > 3)
    return readyWith(Error(ErrorCode::InvalidArgument,
                           fmt::format("optLevel {} is not 0-3", opts.optLevel)));
  if (Status s = checkAppTimeout(options, opts.timeout); !s)
    return readyWith(std::move(s).error());
  if (bitcode.empty())
    return readyWith(
        Error(ErrorCode::InvalidBitcode, "empty input (expected LLVM bitcode or textual IR)"));

  CacheKeyInput keyInput{opts.clamping, opts.optLevel, info.targetArch, info.ptxVersion,
                         options.libdevicePath, toolchainId};
  std::string key = computeCacheKey(bitcode, keyInput);
  std::string name = opts.name.empty() ? "app-" + key.substr(0, 12) : opts.name;
  auto named = [&](Error e) { return std::move(e.within(fmt::format("application '{}'", name))); };

  if (auto m = modules.find(key)) {
    memoryHits++;
    return readyWith(makeApplication(std::move(m), opts, Application::Origin::MemoryCache));
  }

  std::optional<CompiledEntry> entry;
  // A fresh entry from the compile workers stays charged to their answer budget
  // until its module is loaded (compile/AnswerBudget.h).
  compile::AnswerBudget::Charge answerCharge;
  Application::Origin origin = Application::Origin::Compiled;
  // The module caps (kernels, PTX and cubin bytes) are checked first on every path
  // below, before anything scans the PTX (review R10-F1).
  const ModuleLimits limits = moduleLimits(options);
  if (disk) {
    entry = disk->read(key);
    // An entry over the caps (written under larger ones) is refused as its fresh
    // compile would be: no scan of its PTX, no compile.
    if (entry)
      if (Status s = checkModuleSize(*entry, limits); !s)
        return readyWith(named(std::move(s).error()));
    if (entry && !validatePtx(*entry, limits))
      entry.reset(); // never trust an entry that fails validation: compile afresh
    if (entry && hasDevice() && entry->cubin.empty())
      entry.reset(); // written without an assembler: a device loads cubins only
    if (entry) {
      origin = Application::Origin::DiskCache;
      diskHits++;
    }
  }
  if (!entry && compilePool) {
    // Out of process (RemoteCompile.h): LLVM and the PTX assembler see tenant input
    // only inside single-use, sandboxed workers. The whole load counts as in flight
    // for the pool (its requests, the PTX validation between them, the disk cache
    // write): replacement workers start during it only when needed
    // (CompilePool::Activity).
    auto inFlight = compilePool->activity();
    compilations++;
    compile::CompileJob job;
    job.bitcode.assign(reinterpret_cast<const char *>(bitcode.data()), bitcode.size());
    job.name = name;
    job.clamping = opts.clamping;
    job.arch = info.targetArch;
    job.ptxVersion = info.ptxVersion;
    job.abiVersion = ATOLL_ABI_VERSION;
    job.optLevel = opts.optLevel;
    // The answer's kernels are capped when it is decoded (PoolConfig::maxKernels),
    // the rest first in validatePtx, before the PTX is scanned or assembled.
    auto fresh = compileInWorkers(
        *compilePool, std::move(job), hasDevice(),
        [&limits](const CompiledEntry &e) { return validatePtx(e, limits); }, &answerCharge);
    if (!fresh)
      return readyWith(named(std::move(fresh).error()));
    // The cubin came after the validation: over its cap, it is neither cached nor
    // loaded.
    if (Status s = checkModuleSize(*fresh, limits); !s)
      return readyWith(named(std::move(s).error()));
    if (disk)
      (void)disk->write(key, *fresh); // best effort
    entry = std::move(*fresh);
  }
  if (!entry) {
    compilations++;
    toolchain::CompileOptions co;
    co.Mode = opts.clamping == Clamping::MaskBased ? ClampingMode::MaskBased
                                                   : ClampingMode::ModuloBased;
    co.GpuArch = info.targetArch;
    co.PtxVersion = info.ptxVersion;
    co.LibdevicePath = options.libdevicePath;
    co.OptLevel = opts.optLevel;
    co.Harden = true;
    // As through the workers: only a device loads cubins, so a compile-only runtime
    // does not assemble (and compiles in the same time on either path).
    co.Assemble = hasDevice();
    // LLVM's IR lexer needs a NUL after the text (it reads up to it): give it a
    // NUL-terminated copy, whatever the caller's buffer is.
    const std::string owned(reinterpret_cast<const char *>(bitcode.data()), bitcode.size());
    llvm::MemoryBufferRef input(llvm::StringRef(owned.data(), owned.size()), name);
    auto compiled = toolchain::compile(input, co);
    if (!compiled)
      return readyWith(named(toolchainError(compiled.takeError())));
    CompiledEntry fresh;
    fresh.ptx = std::move(compiled->ptx);
    fresh.cubin = std::move(compiled->cubin);
    fresh.kernels = std::move(compiled->kernels);
    if (Status s = validatePtx(fresh, limits); !s)
      return readyWith(named(std::move(s).error()));
    if (disk)
      (void)disk->write(key, fresh); // best effort
    entry = std::move(fresh);
  }

  // The driver load waits for every running kernel of the shared context (any
  // tenant's): it runs on the loader thread; the caller waits for it with a bound.
  auto finish = [opts, origin, name](RuntimeState &self, const std::string &key,
                                     CompiledEntry entry) -> Result<std::shared_ptr<Application>> {
    if (auto m = self.modules.find(key)) // loaded meanwhile by another request
      return self.makeApplication(std::move(m), opts, origin);
    ModuleCache::Reservation room; // the module's bytes (moduleMemoryBudget)
    auto loaded = self.loadModule(key, std::move(entry), opts.clamping, room);
    if (!loaded)
      return std::move(std::move(loaded).error().within(fmt::format("application '{}'", name)));
    // Another thread may have loaded the same key meanwhile: the first one wins (and
    // this one's room is given back).
    return self.makeApplication(self.modules.insert(std::move(*loaded), std::move(room)), opts,
                                origin);
  };
  if (!hasDevice())
    return readyWith(finish(*this, key, std::move(*entry)));
  auto slot = std::make_shared<LoadSlot>();
  slot->what = fmt::format("application '{}'", name);
  loader.post([weak = weak_from_this(), slot, key, entry = std::make_shared<CompiledEntry>(
                                                        std::move(*entry)),
               charge = std::make_shared<compile::AnswerBudget::Charge>(std::move(answerCharge)),
               finish](bool run) {
    auto self = weak.lock();
    if (!run || !self) {
      slot->set(Error(ErrorCode::ContextLost,
                      fmt::format("{}: the runtime was torn down before the module was loaded",
                                  slot->what)));
      return;
    }
    slot->set(finish(*self, key, std::move(*entry)));
  });
  return PendingApplication(std::move(slot));
}

Result<std::shared_ptr<Application>>
RuntimeState::makeApplication(std::shared_ptr<const LoadedModule> m, const AppOptions &opts,
                              Application::Origin origin) {
  std::string name = opts.name.empty() ? "app-" + m->key.substr(0, 12) : opts.name;
  return std::make_shared<Application>(Application::Token{}, shared_from_this(), std::move(m),
                                       std::move(name), opts.timeout, origin);
}

} // namespace detail

// --- PendingApplication ------------------------------------------------------------

PendingApplication::PendingApplication(std::shared_ptr<detail::LoadSlot> slot)
    : slot_(std::move(slot)) {}

bool PendingApplication::ready() const {
  if (!slot_)
    return true;
  std::lock_guard lock(slot_->mutex);
  return slot_->result.has_value();
}

Result<std::shared_ptr<Application>>
PendingApplication::wait(std::chrono::milliseconds limit) const {
  if (!slot_)
    return Error(ErrorCode::InvalidArgument, "wait on an empty PendingApplication");
  std::unique_lock lock(slot_->mutex);
  // Saturated: a huge limit must not overflow the deadline.
  if (!slot_->cv.wait_until(lock, detail::deadlineAfter(std::chrono::steady_clock::now(), limit),
                            [&] { return slot_->result.has_value(); }))
    return Error(ErrorCode::Timeout,
                 fmt::format("{}: the module load did not finish within {} ms; module loads "
                             "wait for every running kernel of the shared CUDA context (another "
                             "tenant's long kernel). The load goes on: wait again, or load again "
                             "later (it then comes from the cache)",
                             slot_->what, limit.count()));
  return *slot_->result;
}

} // namespace Atoll
