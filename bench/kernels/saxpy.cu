// Streaming: out = a * x + y, grid-stride loop, __restrict__ pointers (read-only
// path eligible in the native build).
extern "C" __global__ void saxpy(float a, const float *__restrict__ x,
                                 const float *__restrict__ y, float *__restrict__ out,
                                 int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a * x[i] + y[i];
}
