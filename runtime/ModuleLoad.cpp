// The driver load of a compiled module (RuntimeState::loadModule, on the loader
// thread): the checks before every load, cuModuleLoadDataEx of the cubin in a quiet
// section, the driver-side module check, the kernels' functions and attributes (and
// the local-memory check against the reservation made at start).
#include "ModuleLoad.h"

#include "ModuleValidation.h"
#include "RuntimeState.h"
#include "cuda/ModuleCheck.h"

#include "atoll/toolchain/Toolchain.h"

#include <fmt/format.h>

namespace Atoll::detail {
namespace {

// cuModuleUnload waits for every running kernel of the context: reclaim thread.
void unloadModule(void *owner, void *module) noexcept {
  auto *state = static_cast<RuntimeState *>(owner);
  state->reclaim([api = state->api, m = static_cast<CUmodule>(module)] { api->cuModuleUnload(m); });
}

} // namespace

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

Result<std::shared_ptr<const LoadedModule>>
RuntimeState::loadModule(const std::string &key, CompiledEntry entry, Clamping clamping,
                         ModuleCache::Reservation &room) {
  // Whatever the entry's origin, nothing reaches the driver unvalidated. The module
  // caps come first in it (kernels, PTX and cubin bytes: CapacityExceeded), before
  // anything scans the PTX on this, the runtime's one loader thread (R10-F1), and
  // before the quiet section (R5-F6).
  if (Status s = validatePtx(entry, moduleLimits(options)); !s)
    return std::move(s).error();
  auto m = std::make_shared<LoadedModule>();
  m->key = key;
  m->footprint = moduleFootprint(entry, keepsPtx());
  // The PTX was validated above and the cubin assembled from it: it is kept only
  // when asked for (R7-F10; a compile-only runtime has nothing else to show).
  if (keepsPtx())
    m->ptx = std::move(entry.ptx);
  else
    std::string().swap(entry.ptx);
  m->kernels = std::move(entry.kernels);
  m->clamping = clamping;
  // The module's footprint in the module memory budget (RuntimeOptions::
  // moduleMemoryBudget), before anything reaches the driver: unused cached modules
  // are evicted to make room; the modules in use are not, and past them the load is
  // refused (CapacityExceeded).
  auto reserveRoom = [&]() -> Status {
    auto r = modules.reserve(m->footprint);
    if (!r)
      return std::move(r).error();
    room = std::move(*r);
    return {};
  };
  if (!hasDevice()) {
    if (Status s = reserveRoom(); !s)
      return std::move(s).error();
    return std::shared_ptr<const LoadedModule>(std::move(m));
  }

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
  // kernel (review R5-F6): the kernels and the cubin were bounded by validatePtx
  // above (checkModuleSize), before the quiet section.
  if (Status s = reserveRoom(); !s)
    return std::move(s).error();
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
  if (Status s = cuda::checkLoadedModule(*quiet, *api, mod, m->kernels); !s) {
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
  // Each kernel's attributes, outside the section (R5-F6); a kernel needing more
  // local memory than the context reserved at start is refused (R5-F4): its launch
  // would grow the reservation, waiting for every tenant's kernels.
  for (size_t i = 0; i < n; ++i) {
    KernelInfo &k = m->kernels[i];
    auto a = cuda::readKernelAttributes(*api, static_cast<CUfunction>(m->functions[i]), k.name,
                                        cuda::kReservedLocalBytes);
    if (!a) {
      if (a.error().code() == ErrorCode::ContextLost)
        markLost();
      return std::move(a).error();
    }
    k.maxThreadsPerBlock = a->maxThreadsPerBlock;
    k.staticSharedBytes = a->staticSharedBytes;
    k.localBytesPerThread = a->localBytesPerThread;
    k.registers = a->registers;
    KernelLimits &lim = m->limits[i];
    lim.maxThreadsPerBlock = k.maxThreadsPerBlock;
    lim.staticSharedBytes = k.staticSharedBytes;
    lim.dynamicSharedLimit = a->maxDynamicSharedBytes;
    m->dynamicSharedLimit[i].store(lim.dynamicSharedLimit);
  }
  return std::shared_ptr<const LoadedModule>(std::move(m));
}

} // namespace Atoll::detail
