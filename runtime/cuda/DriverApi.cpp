#include "cuda/DriverApi.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include <mutex>
#include <optional>

namespace Atoll::cuda {
namespace {

#define ATOLL_STR2(x) #x
#define ATOLL_STR(x) ATOLL_STR2(x)

Result<const DriverApi *> loadOnce() {
  static DriverApi api;
  // Never dlclose: driver state lives as long as the process.
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Error(ErrorCode::NoDriver, "no CUDA driver: libcuda.so.1 could not be loaded",
                 why ? why : "");
  }
#define ATOLL_CUDA_LOAD(fn)                                                         \
  api.fn = reinterpret_cast<decltype(&::fn)>(dlsym(handle, ATOLL_STR(fn)));         \
  if (!api.fn)                                                                      \
    return Error(ErrorCode::NoDriver,                                               \
                 "no usable CUDA driver: libcuda.so.1 lacks " ATOLL_STR(fn),         \
                 "the driver is older than CUDA 12.4");
  ATOLL_CUDA_DRIVER_FUNCTIONS(ATOLL_CUDA_LOAD)
#undef ATOLL_CUDA_LOAD
#define ATOLL_CUDA_LOAD_OPTIONAL(fn)                                                \
  api.fn = reinterpret_cast<decltype(&::fn)>(dlsym(handle, ATOLL_STR(fn)));
  ATOLL_CUDA_OPTIONAL_FUNCTIONS(ATOLL_CUDA_LOAD_OPTIONAL)
#undef ATOLL_CUDA_LOAD_OPTIONAL

  if (CUresult r = api.cuInit(0); r != CUDA_SUCCESS) {
    if (r == CUDA_ERROR_NO_DEVICE)
      return Error(ErrorCode::NoDevice, "no CUDA device: the driver found no GPU",
                   describe(api, r));
    // The toolkit's stub stands in for an absent driver.
    if (r == CUDA_ERROR_STUB_LIBRARY)
      return Error(ErrorCode::NoDriver, "no usable CUDA driver: cuInit failed", describe(api, r));
    // Anything else (a driver/kernel-module mismatch included) is a broken
    // installation, not an absent one: GPU tests fail on it, they do not skip.
    return Error(ErrorCode::DriverError, "the CUDA driver failed to initialise (cuInit)",
                 describe(api, r));
  }
  api.cuDriverGetVersion(&api.driverVersion);
  int count = 0;
  if (api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
    return Error(ErrorCode::NoDevice, "no CUDA device: the driver found no GPU");
  return &api;
}

} // namespace

Result<const DriverApi *> loadDriver() {
  static std::once_flag once;
  static std::optional<Result<const DriverApi *>> cached;
  std::call_once(once, [] { cached.emplace(loadOnce()); });
  return *cached;
}

std::string describe(const DriverApi &api, CUresult r) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(r, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(r, &text);
  return fmt::format("{} ({})", name ? name : fmt::format("CUresult {}", int(r)),
                     text ? text : "no description");
}

bool isStickyError(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return true;
  default:
    return false;
  }
}

Error driverError(const DriverApi &api, CUresult r, std::string_view what) {
  if (isStickyError(r))
    return Error(ErrorCode::ContextLost,
                 fmt::format("{}: the shared CUDA context is lost", what), describe(api, r));
  return Error(ErrorCode::DriverError, fmt::format("{} failed", what), describe(api, r));
}

} // namespace Atoll::cuda
