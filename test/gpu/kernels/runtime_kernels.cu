// Tenant kernels for the runtime's GPU tests (compiled to bitcode at build time with
// atoll_cuda_bitcode, then hardened and loaded by the runtime like any tenant's).
#include <stdint.h>

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// Writes `value` to n words (grid-stride loop).
extern "C" __global__ void fill_u32(uint32_t *p, unsigned long long n, uint32_t value) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    p[i] = value;
}

// Spins until *flag becomes non-zero or limitNs nanoseconds have passed (bounded, so
// that a test always ends), then records in *result how it ended: 1 = released by the
// flag, 2 = the bound.
extern "C" __global__ void spin(volatile uint32_t *flag, unsigned long long limitNs,
                                uint32_t *result) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  unsigned long long start = __nvvm_read_ptx_sreg_globaltimer();
  while (*flag == 0) {
    if (__nvvm_read_ptx_sreg_globaltimer() - start > limitNs) {
      *result = 2;
      return;
    }
  }
  *result = 1;
}

// Reverses each block's slice of `in` through dynamic shared memory of
// `perBlock` floats (which may exceed the default 48 KiB).
extern "C" __global__ void reverse_blocks(const float *in, float *out, int perBlock) {
  extern __shared__ float tile[];
  const float *src = in + (size_t)blockIdx.x * perBlock;
  float *dst = out + (size_t)blockIdx.x * perBlock;
  for (int i = threadIdx.x; i < perBlock; i += blockDim.x)
    tile[i] = src[i];
  __syncthreads();
  for (int i = threadIdx.x; i < perBlock; i += blockDim.x)
    dst[i] = tile[perBlock - 1 - i];
}

struct Affine {
  float scale;
  float offset;
  int n;
};

// A by-value struct parameter.
extern "C" __global__ void affine(Affine p, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    y[i] = p.scale * x[i] + p.offset;
}
