// Found by review: barrier reductions (__syncthreads_count, bar.red) mixed with
// __syncthreads on one barrier are "unpredictable" (PTX ISA); every barrier is
// barrier 0 after hardening, so the reductions are refused.
#include "common.h"
extern "C" __global__ void bar_red(u32 *out) {
  u32 n = __syncthreads_count(threadIdx.x & 1);
  if (threadIdx.x < 32)
    __syncthreads();
  out[gtid()] = n;
}
