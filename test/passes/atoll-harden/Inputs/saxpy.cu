// A CUDA kernel as a tenant writes it; compiled with %clang-cuda in cuda-source.test.
__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + sinf(x[i]) + sqrtf(y[i]);
}
