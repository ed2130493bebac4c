// A writable __device__ array indexed by the tenant -> refused.
#include "common.h"
__device__ u32 g_array[16];
extern "C" __global__ void device_global_store(u32 idx, u32 v, u32 *out) {
  g_array[idx & 15] = v;
  out[gtid()] = g_array[gtid() & 15];
}
