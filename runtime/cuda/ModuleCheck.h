// The driver-side check of a loaded module: what the driver reports about the
// cubin it loaded, independent of any text the toolchain produced. The PTX
// validator checks what LLVM emitted; this checks what the GPU will run.
#pragma once

#include "DeviceActivity.h"
#include "cuda/DriverApi.h"

#include "atoll/abi.h"
#include "atoll/application.h"
#include "atoll/error.h"

#include <cstdint>
#include <vector>

namespace Atoll::cuda {

/// One parameter of the device-side parameter layout (cuFuncGetParamInfo).
struct ParamSlot {
  uint64_t offset = 0;
  uint64_t size = 0;
  bool operator==(const ParamSlot &) const = default;
};

/// The layout a hardened kernel must have: the tenant's parameters (each at the
/// next offset aligned to its alignment, its size in bytes), then the
/// ATOLL_HIDDEN_PARAM_COUNT hidden 8-byte parameters of include/atoll/abi.h.
std::vector<ParamSlot> expectedParamLayout(const KernelInfo &kernel);

/// After loading: the module's functions (cuModuleGetFunctionCount,
/// cuModuleEnumerateFunctions, cuFuncGetName) are exactly `kernels`, each once,
/// and each kernel's parameters (cuFuncGetParamInfo: count, offsets, sizes) are
/// expectedParamLayout(). A violation is Refused naming the function and the
/// parameter; a failing query is a DriverError (or ContextLost). The caller
/// unloads the module on failure. cuModuleGetFunction may load lazily, which waits
/// for every running kernel: the caller passes the quiet section it holds (the
/// module load's), so no caller can make these calls outside one.
Status checkLoadedModule(const detail::DeviceActivity::QuietSection &quiet,
                         const DriverApi &api, CUmodule module,
                         const std::vector<KernelInfo> &kernels);

/// The per-thread local memory (stack) the runtime reserves in the context at start
/// (RuntimeState::reserveLocalMemory) and the most any kernel it loads may need:
/// atoll-mem's frame cap and the PTX validator's `.local` cap are the same number
/// (ATOLL_DEFAULT_MAX_LOCAL_BYTES, R5-F4), so a kernel never makes a launch grow the
/// reservation (which waits for every running kernel of the context).
inline constexpr uint64_t kReservedLocalBytes = ATOLL_DEFAULT_MAX_LOCAL_BYTES;

/// What the runtime keeps of a loaded kernel's attributes (cuFuncGetAttribute).
struct KernelAttributes {
  uint32_t maxThreadsPerBlock = 0;
  uint32_t staticSharedBytes = 0;
  uint32_t localBytesPerThread = 0; // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
  uint32_t registers = 0;
  uint32_t maxDynamicSharedBytes = 0;
};

/// Reads a loaded kernel's attributes; called after the module load's quiet section
/// (the queries wait for no kernel, review R5-F6). Deny by default: a query that
/// fails refuses the module (Refused; ContextLost for a sticky error), and a kernel
/// whose LOCAL_SIZE_BYTES (its stack frame as ptxas laid it out, spills included)
/// exceeds `reservedLocalBytes` is Refused naming the kernel and both numbers: its
/// first launch would grow the context's reservation and wait for other tenants.
Result<KernelAttributes> readKernelAttributes(const DriverApi &api, CUfunction fn,
                                              const std::string &kernel,
                                              uint64_t reservedLocalBytes);

} // namespace Atoll::cuda
