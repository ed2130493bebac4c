// A stack allocation with a run-time size -> refused.
#include "common.h"
extern "C" __global__ void dynamic_alloca(u32 n, u32 *out) {
  volatile u32 *p = (volatile u32 *)__builtin_alloca(n * 4);
  for (u32 i = 0; i < n; ++i) p[i] = i;
  out[gtid()] = p[n / 2];
}
