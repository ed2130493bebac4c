#include "GpuGate.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace atoll_test {
namespace {

std::string resultName(void *lib, CUresult r) {
  using NameFn = CUresult (*)(CUresult, const char **);
  const char *name = nullptr;
  if (auto fn = reinterpret_cast<NameFn>(dlsym(lib, "cuGetErrorName")))
    fn(r, &name);
  return (name ? std::string(name) + " " : std::string()) + "(CUresult " +
         std::to_string(int(r)) + ")";
}

GpuProbe probe() {
  // Never dlclose: the runtime opens the same library and keeps it.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return {GpuState::Absent,
            std::string("libcuda.so.1 cannot be loaded: ") + (why ? why : "?")};
  }
  using InitFn = CUresult (*)(unsigned);
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  if (!init)
    return {GpuState::Broken, "libcuda.so.1 has no cuInit"};
  CUresult r = init(0);
  if (r == CUDA_SUCCESS)
    return {GpuState::Present, ""};
  // The toolkit's stub library stands in for an absent driver at link time.
  if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_STUB_LIBRARY)
    return {GpuState::Absent, "cuInit returned " + resultName(lib, r)};
  return {GpuState::Broken, "cuInit returned " + resultName(lib, r)};
}

} // namespace

const GpuProbe &probeGpu() {
  static const GpuProbe p = probe();
  return p;
}

bool gpuRequired() {
  const char *v = std::getenv("ATOLL_REQUIRE_GPU");
  return v && *v && std::string(v) != "0";
}

GpuVerdict gpuVerdict(std::string &message) {
  const GpuProbe &p = probeGpu();
  switch (p.state) {
  case GpuState::Present:
    message.clear();
    return GpuVerdict::Run;
  case GpuState::Absent:
    if (gpuRequired()) {
      message = "ATOLL_REQUIRE_GPU=1 but there is no CUDA driver/device: " + p.reason;
      return GpuVerdict::Fail;
    }
    message = "no CUDA driver/device: " + p.reason;
    return GpuVerdict::Skip;
  case GpuState::Broken:
    break;
  }
  message = "the CUDA driver is broken: " + p.reason;
  return GpuVerdict::Fail;
}

} // namespace atoll_test
