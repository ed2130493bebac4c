// A writable __device__ global (shared by every pipeline that runs the cached
// module): a cross-tenant channel -> refused.
#include "common.h"
__device__ u32 g_counter;
extern "C" __global__ void device_global_atomic(u32 *out) {
  out[gtid()] = atomicAdd(&g_counter, 1u);
}
