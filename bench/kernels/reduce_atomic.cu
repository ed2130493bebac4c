// Sum of n unsigned integers: grid-stride partial sums, a tree reduction in shared
// memory per block, one 64-bit atomicAdd per block. Integer data, so the result
// does not depend on the order of the atomics.
#define BLOCK 256
extern "C" __global__ void reduce_atomic(const unsigned *in, unsigned long long *out, int n) {
  __shared__ unsigned long long partial[BLOCK];
  unsigned long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int offset = blockDim.x / 2; offset > 0; offset >>= 1) {
    if (threadIdx.x < offset)
      partial[threadIdx.x] += partial[threadIdx.x + offset];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, partial[0]);
}
