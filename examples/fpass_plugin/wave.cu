// An ordinary CUDA kernel, with libdevice math (sinf, cosf, expf, tanf: libdevice
// brings its own constant tables and register-only inline asm). Compiled by
// CMakeLists.txt with clang-22 and -fpass-plugin=libAtollPasses.so, so the AToLL
// passes harden it during the normal device compile (see README.md).
extern "C" __global__ void wave(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sinf(x[i]) * cosf(x[i]) + expf(-x[i]) + tanf(0.5f * x[i]);
}
