#include "cuda/ModuleCheck.h"

#include "atoll/abi.h"

#include <fmt/format.h>

#include <set>
#include <string>

namespace Atoll::cuda {
namespace {

uint64_t alignTo(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// A module of ours has a handful of kernels; a driver that reports more than this
// is answered with a refusal, not a huge allocation.
constexpr unsigned kMaxFunctions = 1u << 16;

} // namespace

std::vector<ParamSlot> expectedParamLayout(const KernelInfo &kernel) {
  std::vector<ParamSlot> out;
  uint64_t offset = 0;
  for (const ParamInfo &p : kernel.params) {
    offset = alignTo(offset, p.align);
    out.push_back({offset, p.size});
    offset += p.size;
  }
  for (unsigned i = 0; i < ATOLL_HIDDEN_PARAM_COUNT; ++i) {
    offset = alignTo(offset, ATOLL_HIDDEN_PARAM_BYTES);
    out.push_back({offset, ATOLL_HIDDEN_PARAM_BYTES});
    offset += ATOLL_HIDDEN_PARAM_BYTES;
  }
  return out;
}

Status checkLoadedModule(const detail::DeviceActivity::QuietSection &, const DriverApi &api,
                         CUmodule module, const std::vector<KernelInfo> &kernels) {
  auto refused = [](std::string what) {
    return Error(ErrorCode::Refused,
                 fmt::format("refused by the driver-side module check: {}", what),
                 "the loaded module is not the hardened module the toolchain produced; it is "
                 "unloaded and never launched");
  };
  unsigned count = 0;
  if (CUresult r = api.cuModuleGetFunctionCount(&count, module); r != CUDA_SUCCESS)
    return driverError(api, r, "counting the functions of the loaded module");
  if (count > kMaxFunctions)
    return refused(fmt::format("the module has {} functions", count));
  std::vector<CUfunction> fns(count);
  if (count)
    if (CUresult r = api.cuModuleEnumerateFunctions(fns.data(), count, module); r != CUDA_SUCCESS)
      return driverError(api, r, "listing the functions of the loaded module");
  std::set<std::string> expected, seen;
  for (const KernelInfo &k : kernels)
    expected.insert(k.name);
  for (CUfunction fn : fns) {
    const char *name = nullptr;
    if (CUresult r = api.cuFuncGetName(&name, fn); r != CUDA_SUCCESS)
      return driverError(api, r, "naming a function of the loaded module");
    std::string n = name ? name : "";
    if (!expected.count(n))
      return refused(fmt::format("function '{}' is not one of the module's hardened kernels", n));
    if (!seen.insert(n).second)
      return refused(fmt::format("function '{}' appears twice", n));
  }
  if (count != kernels.size() || seen.size() != expected.size())
    return refused(fmt::format("the module has {} functions, expected its {} hardened kernels",
                               count, kernels.size()));

  for (const KernelInfo &k : kernels) {
    CUfunction fn = nullptr;
    if (CUresult r = api.cuModuleGetFunction(&fn, module, k.name.c_str()); r != CUDA_SUCCESS)
      return driverError(api, r, fmt::format("finding kernel '{}' in the loaded module", k.name));
    const std::vector<ParamSlot> want = expectedParamLayout(k);
    for (size_t i = 0; i < want.size(); ++i) {
      size_t offset = 0, size = 0;
      if (CUresult r = api.cuFuncGetParamInfo(fn, i, &offset, &size); r != CUDA_SUCCESS) {
        if (r == CUDA_ERROR_INVALID_VALUE)
          return refused(fmt::format("kernel '{}' has {} parameters, expected {} (its {} plus "
                                     "the {} hidden ones)",
                                     k.name, i, want.size(), k.params.size(),
                                     ATOLL_HIDDEN_PARAM_COUNT));
        return driverError(api, r, fmt::format("reading parameter {} of kernel '{}'", i, k.name));
      }
      const bool hidden = i >= k.params.size();
      if (offset != want[i].offset || size != want[i].size)
        return refused(fmt::format(
            "kernel '{}' parameter {}{} is {} bytes at offset {}, expected {} bytes at offset {}",
            k.name, i, hidden ? " (hidden)" : "", size, offset, want[i].size, want[i].offset));
    }
    // One more parameter than expected must not exist.
    size_t offset = 0, size = 0;
    CUresult r = api.cuFuncGetParamInfo(fn, want.size(), &offset, &size);
    if (r == CUDA_SUCCESS)
      return refused(fmt::format("kernel '{}' has more than {} parameters (its {} plus the {} "
                                 "hidden ones)",
                                 k.name, want.size(), k.params.size(), ATOLL_HIDDEN_PARAM_COUNT));
    if (r != CUDA_ERROR_INVALID_VALUE)
      return driverError(api, r, fmt::format("reading the parameters of kernel '{}'", k.name));
  }
  return {};
}

Result<KernelAttributes> readKernelAttributes(const DriverApi &api, CUfunction fn,
                                              const std::string &kernel,
                                              uint64_t reservedLocalBytes) {
  auto read = [&](CUfunction_attribute a, const char *name) -> Result<uint32_t> {
    int v = 0;
    if (CUresult r = api.cuFuncGetAttribute(&v, a, fn); r != CUDA_SUCCESS) {
      if (isStickyError(r))
        return driverError(api, r, fmt::format("reading {} of kernel '{}'", name, kernel));
      return Error(ErrorCode::Refused,
                   fmt::format("refused by the driver-side module check: {} of kernel '{}' "
                               "could not be read",
                               name, kernel),
                   describe(api, r));
    }
    if (v < 0)
      return Error(ErrorCode::Refused,
                   fmt::format("refused by the driver-side module check: {} of kernel '{}' "
                               "is negative ({})",
                               name, kernel, v));
    return uint32_t(v);
  };
#define ATOLL_READ(field, attr)                                                     \
  if (auto v = read(attr, #attr); !v)                                               \
    return std::move(v).error();                                                    \
  else                                                                              \
    out.field = *v;
  KernelAttributes out;
  ATOLL_READ(localBytesPerThread, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
  ATOLL_READ(maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
  ATOLL_READ(staticSharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
  ATOLL_READ(registers, CU_FUNC_ATTRIBUTE_NUM_REGS)
  ATOLL_READ(maxDynamicSharedBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
#undef ATOLL_READ
  // No call stack adds to the frame: calls and .func are refused (every function is
  // inlined, the PTX validator), so LOCAL_SIZE_BYTES is all a thread needs.
  if (out.localBytesPerThread > reservedLocalBytes)
    return Error(ErrorCode::Refused,
                 fmt::format("refused by the driver-side module check: kernel '{}' needs {} "
                             "bytes of local memory per thread "
                             "(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), more than the {} "
                             "reserved at start",
                             kernel, out.localBytesPerThread, reservedLocalBytes),
                 "launching it would grow the context's local-memory reservation, which waits "
                 "for every running kernel of every tenant (R5-F4); ptxas's spills count too");
  return out;
}

} // namespace Atoll::cuda
