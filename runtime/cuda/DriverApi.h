// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so that every
// AToLL binary builds and starts on machines without a GPU and reports "no CUDA
// driver" as a typed error instead of failing to load.
#pragma once

#include "atoll/error.h"

#include <cuda.h>

namespace Atoll::cuda {

// Every driver entry point the project uses. cuda.h maps names such as cuMemAlloc
// to their current versioned symbol (cuMemAlloc_v2); the loader asks for that one.
#define ATOLL_CUDA_DRIVER_FUNCTIONS(X)                                              \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString)             \
  X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)     \
  X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)      \
  X(cuDevicePrimaryCtxReset) X(cuCtxSetCurrent) X(cuCtxGetCurrent)                  \
  X(cuCtxSynchronize) X(cuCtxCreate) X(cuCtxDestroy) X(cuCtxGetLimit)               \
  X(cuCtxSetLimit) /* the local-memory reservation (runtime/LocalMemory.cpp) */    \
  X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamQuery)      \
  X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord)          \
  X(cuEventQuery) X(cuEventSynchronize) X(cuEventElapsedTime)                       \
  X(cuMemAlloc) X(cuMemFree) X(cuMemGetInfo) X(cuMemAllocHost) X(cuMemFreeHost)     \
  X(cuMemHostRegister) X(cuMemHostUnregister)                                       \
  X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemcpyHtoDAsync)              \
  X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) X(cuMemsetD8) X(cuMemsetD8Async)        \
  X(cuMemsetD32Async) X(cuMemAddressReserve) X(cuMemAddressFree) X(cuMemCreate)     \
  X(cuMemRelease) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess)                       \
  X(cuMemGetAllocationGranularity) X(cuModuleLoadDataEx) X(cuModuleUnload)          \
  X(cuModuleGetFunction) X(cuFuncGetAttribute) X(cuFuncSetAttribute)                \
  X(cuLaunchKernel) X(cuPointerGetAttribute)                                        \
  /* the driver-side module check (CUDA 12.4+) */                                   \
  X(cuModuleGetFunctionCount) X(cuModuleEnumerateFunctions) X(cuFuncGetName)        \
  X(cuFuncGetParamInfo)

// Optional entry points: resolved when the driver has them, null otherwise (an older
// driver still loads; only what needs them answers Unsupported). Green contexts (SM
// partitions, runtime/partition/) need a CUDA 12.4+ driver.
#define ATOLL_CUDA_OPTIONAL_FUNCTIONS(X)                                            \
  X(cuDeviceGetDevResource) X(cuDevSmResourceSplitByCount)                          \
  X(cuDevResourceGenerateDesc) X(cuGreenCtxCreate) X(cuGreenCtxDestroy)             \
  X(cuGreenCtxStreamCreate)

struct DriverApi {
#define ATOLL_CUDA_DECLARE(fn) decltype(&::fn) fn = nullptr;
  ATOLL_CUDA_DRIVER_FUNCTIONS(ATOLL_CUDA_DECLARE)
  ATOLL_CUDA_OPTIONAL_FUNCTIONS(ATOLL_CUDA_DECLARE)
#undef ATOLL_CUDA_DECLARE
  /// Every green-context entry point is there (SM partitions can be tried).
  bool hasGreenContexts() const noexcept {
    return cuDeviceGetDevResource && cuDevSmResourceSplitByCount &&
           cuDevResourceGenerateDesc && cuGreenCtxCreate && cuGreenCtxDestroy &&
           cuGreenCtxStreamCreate;
  }
  int driverVersion = 0; // e.g. 13000
};

/// Loads libcuda.so.1 once per process and calls cuInit(0). Thread-safe; the
/// result (the table or the reason it is unavailable) is cached.
Result<const DriverApi *> loadDriver();

/// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
std::string describe(const DriverApi &api, CUresult r);

/// True for the errors after which the context is unusable (sticky errors).
bool isStickyError(CUresult r);

/// An Error of code DriverError (or ContextLost for sticky errors) for a failed
/// call, with the driver's text as detail.
Error driverError(const DriverApi &api, CUresult r, std::string_view what);

} // namespace Atoll::cuda
