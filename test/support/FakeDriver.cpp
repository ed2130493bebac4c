// A stand-in libcuda.so.1 whose cuInit fails with the CUresult in
// $ATOLL_FAKE_CUINIT (test double for the GPU gate, test/support/GpuGate.h; never
// in bin/, lib/ or the GPU bundle). It exports nothing else that the runtime needs.
#include <cuda.h>

#include <cstdlib>

extern "C" {

CUresult cuInit(unsigned int) {
  const char *v = std::getenv("ATOLL_FAKE_CUINIT");
  return static_cast<CUresult>(v ? std::atoi(v) : int(CUDA_ERROR_UNKNOWN));
}

CUresult cuGetErrorName(CUresult e, const char **s) {
  switch (e) {
  case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return CUDA_SUCCESS;
  case CUDA_ERROR_UNKNOWN: *s = "CUDA_ERROR_UNKNOWN"; return CUDA_SUCCESS;
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: *s = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"; return CUDA_SUCCESS;
  default: *s = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}

} // extern "C"
