// Indirect access: dst[sidx[i]] = 2 * src[gidx[i]] + 1, with sidx a permutation
// (every output written exactly once) and gidx random.
extern "C" __global__ void gather_scatter(const float *src, const int *gidx, const int *sidx,
                                          float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[sidx[i]] = 2.0f * src[gidx[i]] + 1.0f;
}
