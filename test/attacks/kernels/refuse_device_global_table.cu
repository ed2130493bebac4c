// A writable __device__ global reached only through a pointer stored in a
// read-only table (the table is promoted, the pointee is written) -> refused.
#include "common.h"
__device__ u32 g_hidden;
__device__ u32 *g_table[1] = {&g_hidden};
extern "C" __global__ void device_global_via_table(u32 v, u32 *out) {
  u32 *p = ((u32 *volatile *)g_table)[0];
  *p = v;
  out[gtid()] = *(volatile u32 *)p;
}
