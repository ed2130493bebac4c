// Loading applications: cache lookup (memory, then disk), the toolchain (bitcode ->
// hardened PTX), the PTX validator before every load (every kernel carries the
// hidden parameters, nothing outside the allow-list), the driver JIT, and the
// Application / Kernel classes.
#include "RuntimeState.h"
#include "Watchdog.h"
#include "compile/RemoteCompile.h"
#include "ptx/PtxValidator.h"
#include "cuda/ModuleCheck.h"
#include "toolchain/Toolchain.h"

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

ParamInfo toParamInfo(const toolchain::KernelParam &p) {
  ParamInfo out;
  switch (p.kind) {
  case toolchain::KernelParam::Kind::Pointer: out.kind = ParamKind::Pointer; break;
  case toolchain::KernelParam::Kind::Scalar: out.kind = ParamKind::Scalar; break;
  case toolchain::KernelParam::Kind::ByVal: out.kind = ParamKind::ByVal; break;
  }
  out.size = p.size;
  out.align = p.align;
  out.isFloat = p.isFloat;
  out.isSigned = p.isSigned;
  out.type = p.type;
  return out;
}

Error toolchainError(llvm::Error err) {
  Error out(ErrorCode::CompileError, "compilation failed");
  llvm::handleAllErrors(
      std::move(err),
      [&](const toolchain::ToolchainError &e) {
        ErrorCode code = ErrorCode::CompileError;
        switch (e.kind()) {
        case toolchain::FailureKind::InvalidInput: code = ErrorCode::InvalidBitcode; break;
        case toolchain::FailureKind::WrongTarget: code = ErrorCode::WrongTarget; break;
        case toolchain::FailureKind::Refused: code = ErrorCode::Refused; break;
        case toolchain::FailureKind::CompileError: code = ErrorCode::CompileError; break;
        }
        out = Error(code, e.message(), e.diagnostics());
      },
      [&](const llvm::ErrorInfoBase &e) {
        out = Error(ErrorCode::CompileError, e.message());
      });
  return out;
}

/// The independent check of the final artifact, before every load: the entries
/// are exactly the entry's kernels with the hidden parameters, and nothing outside
/// the PTX allow-list (ptx/PtxValidator.h) is in the module.
Status validatePtx(const CompiledEntry &entry) {
  if (Status s = checkHardenedEntries(entry.ptx, entry.kernels); !s)
    return s;
  ptx::Expectation exp;
  exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &k : entry.kernels)
    exp.entries.push_back({k.name, uint32_t(k.params.size())});
  if (auto v = ptx::validate(entry.ptx, exp))
    return Error(ErrorCode::Refused,
                 fmt::format("refused by the PTX validator: {}", v->describe()),
                 fmt::format("PTX line {}: {}", v->line, v->text));
  return {};
}

// cuModuleUnload waits for every running kernel of the context: reclaim thread.
void unloadModule(void *owner, void *module) noexcept {
  auto *state = static_cast<RuntimeState *>(owner);
  state->reclaim([api = state->api, m = static_cast<CUmodule>(module)] { api->cuModuleUnload(m); });
}

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
  Application::Origin origin = Application::Origin::Compiled;
  if (disk) {
    entry = disk->read(key);
    if (entry && !validatePtx(*entry))
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
    // only inside single-use, sandboxed workers.
    compilations++;
    compile::CompileJob job;
    job.bitcode.assign(reinterpret_cast<const char *>(bitcode.data()), bitcode.size());
    job.name = name;
    job.clamping = opts.clamping;
    job.arch = info.targetArch;
    job.ptxVersion = info.ptxVersion;
    job.abiVersion = ATOLL_ABI_VERSION;
    job.optLevel = opts.optLevel;
    auto fresh = compileInWorkers(*compilePool, std::move(job), hasDevice(), validatePtx);
    if (!fresh)
      return readyWith(named(std::move(fresh).error()));
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
    for (const toolchain::KernelSignature &sig : compiled->kernels) {
      KernelInfo k;
      k.name = sig.name;
      for (const toolchain::KernelParam &p : sig.params)
        k.params.push_back(toParamInfo(p));
      fresh.kernels.push_back(std::move(k));
    }
    if (Status s = validatePtx(fresh); !s)
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
    auto loaded = self.loadModule(key, std::move(entry), opts.clamping);
    if (!loaded)
      return std::move(std::move(loaded).error().within(fmt::format("application '{}'", name)));
    // Another thread may have loaded the same key meanwhile: the first one wins.
    return self.makeApplication(self.modules.insert(std::move(*loaded)), opts, origin);
  };
  if (!hasDevice())
    return readyWith(finish(*this, key, std::move(*entry)));
  auto slot = std::make_shared<LoadSlot>();
  slot->what = fmt::format("application '{}'", name);
  loader.post([weak = weak_from_this(), slot, key, entry = std::make_shared<CompiledEntry>(
                                                        std::move(*entry)),
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

Result<std::shared_ptr<const LoadedModule>>
RuntimeState::loadModule(const std::string &key, CompiledEntry entry, Clamping clamping) {
  // Whatever the entry's origin, nothing reaches the driver unvalidated.
  if (Status s = validatePtx(entry); !s)
    return std::move(s).error();
  auto m = std::make_shared<LoadedModule>();
  m->key = key;
  m->ptx = std::move(entry.ptx);
  m->kernels = std::move(entry.kernels);
  m->clamping = clamping;
  if (!hasDevice())
    return std::shared_ptr<const LoadedModule>(std::move(m));

  if (Status s = requireDevice("load a module"); !s)
    return std::move(s).error();
  // Cubins only: the driver never JIT-compiles PTX in the service process (its
  // PTX assembler is a second compiler that tenant input must not reach here).
  // The cubin was assembled from the PTX validated above.
  if (entry.cubin.empty()) {
    if (llvm::Error e = toolchain::loadAssembler())
      return toolchainError(std::move(e));
    return Error(ErrorCode::CompileError, "the module has no cubin (PTX is never loaded)");
  }
  if (entry.cubin.size() < 4 || entry.cubin.compare(0, 4, "\x7f" "ELF") != 0)
    return Error(ErrorCode::CompileError, "the module's cubin is not an ELF image");
  // A load holds every tenant's launches while the driver loads and looks up each
  // kernel (review R5-F6): both are bounded before the quiet section.
  if (m->kernels.size() > options.maxKernelsPerModule)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module has {} kernels; at most {} are loaded "
                             "(RuntimeOptions::maxKernelsPerModule): split it",
                             m->kernels.size(), options.maxKernelsPerModule));
  if (entry.cubin.size() > options.maxCubinBytes)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module's cubin has {} bytes; at most {} are loaded "
                             "(RuntimeOptions::maxCubinBytes)",
                             entry.cubin.size(), options.maxCubinBytes));
  char infoLog[8192] = {}, errorLog[8192] = {};
  CUjit_option keys[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {infoLog, reinterpret_cast<void *>(uintptr_t(sizeof infoLog)), errorLog,
                    reinterpret_cast<void *>(uintptr_t(sizeof errorLog))};
  // The load and the kernel lookups (cuModuleGetFunction, where a lazy load happens,
  // and the module check's enumeration) wait for every running kernel: made only
  // when none runs (DeviceActivity.h). The attribute queries of loaded functions
  // come after the section.
  auto quiet = waitQuiet("load a module");
  if (!quiet)
    return std::move(quiet).error();
  CUmodule mod = nullptr;
  CUresult r = api->cuModuleLoadDataEx(&mod, entry.cubin.data(), 4, keys, values);
  if (r != CUDA_SUCCESS) {
    if (cuda::isStickyError(r))
      return fail(r, "loading the cubin");
    std::string detail = cuda::describe(*api, r);
    if (errorLog[0])
      detail += fmt::format("\n{}", errorLog);
    if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE)
      detail += fmt::format("\nhint: the cubin was assembled for {}; the device needs its own "
                            "architecture (RuntimeOptions::targetArch)",
                            info.targetArch);
    return Error(ErrorCode::JitError, "the driver refused the hardened cubin", detail);
  }
  // From here on a failure unloads the module on the reclaim thread (the destructor
  // of m): cuModuleUnload waits for running kernels.
  m->module = mod;
  m->owner = this;
  m->unload = &unloadModule;
  // What the driver loaded, checked from the driver's side: exactly the hardened
  // kernels, each with the hidden parameters where the ABI puts them.
  if (Status s = cuda::checkLoadedModule(*api, mod, m->kernels); !s) {
    if (s.error().code() == ErrorCode::ContextLost)
      markLost();
    return std::move(s).error();
  }

  size_t n = m->kernels.size();
  m->functions.resize(n);
  m->limits.resize(n);
  m->dynamicSharedLimit = std::make_unique<std::atomic<uint32_t>[]>(n);
  for (size_t i = 0; i < n; ++i) {
    KernelInfo &k = m->kernels[i];
    CUfunction fn = nullptr;
    if (CUresult r2 = api->cuModuleGetFunction(&fn, mod, k.name.c_str()); r2 != CUDA_SUCCESS)
      return fail(r2, fmt::format("finding kernel '{}' in the loaded module", k.name));
    m->functions[i] = fn;
  }
  { DeviceActivity::QuietSection end = std::move(*quiet); } // launches go on
  for (size_t i = 0; i < n; ++i) {
    KernelInfo &k = m->kernels[i];
    CUfunction fn = static_cast<CUfunction>(m->functions[i]);
    auto attr = [&](CUfunction_attribute a) {
      int v = 0;
      api->cuFuncGetAttribute(&v, a, fn);
      return uint32_t(v < 0 ? 0 : v);
    };
    k.maxThreadsPerBlock = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    k.staticSharedBytes = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    k.localBytesPerThread = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    k.registers = attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
    KernelLimits &lim = m->limits[i];
    lim.maxThreadsPerBlock = k.maxThreadsPerBlock;
    lim.staticSharedBytes = k.staticSharedBytes;
    lim.dynamicSharedLimit = attr(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    m->dynamicSharedLimit[i].store(lim.dynamicSharedLimit);
  }
  return std::shared_ptr<const LoadedModule>(std::move(m));
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
