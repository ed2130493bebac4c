// Tenant kernel: a 1-D 7-point stencil (out[i] = sum of in[i-3 .. i+3], zero outside
// [0, n)) over a shared-memory tile with a halo, the classic CUDA pattern. Integer
// arithmetic, so the host can check every element exactly.
//
// The hardening passes confine the tile accesses to the tile and zero-initialise the
// shared window at kernel entry, so the halo of a partial block never shows another
// tenant's data. Launch with blockDim.x == STENCIL_BLOCK.
#define STENCIL_RADIUS 3
#define STENCIL_BLOCK 256

extern "C" __global__ void stencil_1d(const int *in, int *out, int n) {
  __shared__ int tile[STENCIL_BLOCK + 2 * STENCIL_RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + STENCIL_RADIUS;

  tile[l] = g < n ? in[g] : 0;
  if (threadIdx.x < STENCIL_RADIUS) {
    int left = g - STENCIL_RADIUS;
    int right = g + STENCIL_BLOCK;
    tile[l - STENCIL_RADIUS] = left >= 0 && left < n ? in[left] : 0;
    tile[l + STENCIL_BLOCK] = right < n ? in[right] : 0;
  }
  __syncthreads();

  if (g < n) {
    int sum = 0;
    for (int k = -STENCIL_RADIUS; k <= STENCIL_RADIUS; ++k)
      sum += tile[l + k];
    out[g] = sum;
  }
}
