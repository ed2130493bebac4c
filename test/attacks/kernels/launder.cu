// Pointers laundered so that the compiler cannot see where they come from: through
// memory, integer arithmetic, select and phi.
#include "common.h"

// slot (an attacker buffer) holds the forged pointer; a volatile reload hides it.
extern "C" __global__ void launder_memory_write(u32 **slot, u64 victim, u32 v) {
  if (gtid() == 0) slot[0] = (u32 *)victim;
  __syncthreads();
  u32 *q = ((u32 *volatile *)slot)[0];
  q[threadIdx.x] = v;
}
extern "C" __global__ void launder_memory_read(u32 **slot, u64 victim, u32 *out) {
  if (gtid() == 0) slot[0] = (u32 *)victim;
  __syncthreads();
  const u32 *q = ((u32 *volatile *)slot)[0];
  out[gtid()] = q[threadIdx.x];
}
// (address of p) ^ key == victim: the pointer is rebuilt from integers.
extern "C" __global__ void launder_intarith_write(u32 *p, u64 key, u32 v) {
  u64 x = (u64)(uintptr_t)p;
  x = (x ^ key) + 4ull * gtid();
  *(u32 *)(uintptr_t)x = v;
}
extern "C" __global__ void launder_intarith_read(u32 *p, u64 key, u32 *out) {
  u64 x = ((u64)(uintptr_t)p ^ key) + 4ull * gtid();
  out[gtid()] = *(const u32 *)(uintptr_t)x;
}
// sel != 0 picks the forged pointer.
extern "C" __global__ void launder_select_write(u32 *p, u64 victim, u32 sel, u32 v) {
  u32 *q = (sel ^ (threadIdx.x & 1)) ? (u32 *)victim : p;
  q[gtid()] = v;
}
// The loop's phi ends on the forged pointer after iters steps.
extern "C" __global__ void launder_phi_write(u32 *p, u64 victim, u32 iters, u32 v) {
  u32 *q = p;
  for (u32 i = 0; i < iters; ++i) {
    if (i + 1 == iters)
      q = (u32 *)victim;
    else
      q += 1;
  }
  q[gtid()] = v;
}
// Through a __shared__ slot and a local (stack) slot.
extern "C" __global__ void launder_shared_slot(u64 victim, u32 v) {
  __shared__ u32 *volatile slot;
  if (threadIdx.x == 0) slot = (u32 *)victim;
  __syncthreads();
  slot[threadIdx.x] = v;
}
extern "C" __global__ void launder_local_slot(u64 victim, u32 idx, u32 v) {
  u32 *volatile slots[4];
  for (int i = 0; i < 4; ++i) slots[i] = (u32 *)victim + i;
  slots[idx & 3][threadIdx.x] = v;
}
