// An atomic on a local (stack) variable: undefined in PTX -> refused.
#include "common.h"
extern "C" __global__ void atomic_local(u32 idx, u32 *out) {
  u32 l[8] = {0};
  atomicAdd(&l[idx & 7], 1u);
  out[gtid()] = l[gtid() & 7];
}
