// Tenant kernel: c = a + b, one thread per element.
// Compiled at build time to LLVM bitcode (build/examples/kernels/vector_add.bc) with
//   clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -emit-llvm -c
// and hardened by the runtime when the host program loads it. extern "C" keeps the
// kernel's name unmangled, so hosts launch it as "vector_add".
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
