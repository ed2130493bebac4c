// Streaming: dst = src with a 64-bit element count and index.
extern "C" __global__ void copy(const float *src, float *dst, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}
