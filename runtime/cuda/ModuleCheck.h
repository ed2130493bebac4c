// The driver-side check of a loaded module: what the driver reports about the
// cubin it loaded, independent of any text the toolchain produced. The PTX
// validator checks what LLVM emitted; this checks what the GPU will run.
#pragma once

#include "DeviceActivity.h"
#include "cuda/DriverApi.h"

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

} // namespace Atoll::cuda
