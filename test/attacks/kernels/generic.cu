// Generic pointers that mix the shared, local and global state spaces, and shared
// or local addresses that escape through memory.
#include "common.h"

// Thread t's pointer is shared (t%3==0), local (t%3==1) or global (t%3==2); then
// it is indexed far out of range.
extern "C" __global__ void generic_mix_write(u32 *g, u32 *out, u32 idx, u32 v) {
  __shared__ u32 s[256];
  u32 l[64];
  for (int i = 0; i < 64; ++i) l[i] = i;
  s[threadIdx.x & 255] = threadIdx.x;
  __syncthreads();
  u32 k = threadIdx.x % 3;
  u32 *q = k == 0 ? s : k == 1 ? l : g;
  q[idx + threadIdx.x] = v;
  __syncthreads();
  out[gtid()] = q[threadIdx.x & 63] + l[(threadIdx.x + idx) & 63];
}
extern "C" __global__ void generic_mix_read(u32 *g, u32 *out, u32 idx) {
  __shared__ u32 s[256];
  u32 l[64];
  for (int i = 0; i < 64; ++i) l[i] = i * 3;
  s[threadIdx.x & 255] = threadIdx.x;
  __syncthreads();
  u32 k = threadIdx.x % 3;
  const u32 *q = k == 0 ? s : k == 1 ? l : g;
  out[gtid()] = q[idx + threadIdx.x];
}
// A shared pointer stored to global memory and reloaded (origin unknown to the
// compiler): the run-time space test must keep it inside the shared window.
extern "C" __global__ void generic_shared_escape(u32 **slot, u32 *out, u32 idx, u32 v) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = 7;
  if (threadIdx.x == 0) slot[blockIdx.x] = s;
  __syncthreads();
  u32 *q = ((u32 *volatile *)slot)[blockIdx.x];
  q[idx + threadIdx.x] = v;
  __syncthreads();
  out[gtid()] = q[(idx + threadIdx.x) ^ 1];
}
// The same with a local array: the laundered local pointer lands in the arena
// (safe, but the tenant reads its own arena instead of its stack).
extern "C" __global__ void generic_local_escape(u32 **slot, u32 *out, u32 idx, u32 v) {
  u32 l[16];
  for (int i = 0; i < 16; ++i) l[i] = i;
  slot[gtid()] = l;
  u32 *q = ((u32 *volatile *)slot)[gtid()];
  q[idx] = v;
  out[gtid()] = q[idx ^ 1] + l[idx & 15];
}
// Generic address of a shared array plus a large offset: past the CTA's shared
// window (and, for the largest offsets, outside the shared aperture).
extern "C" __global__ void generic_shared_offset(u32 *out, u64 off, u32 v) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  u8 *base = (u8 *)(void *)s;
  volatile u32 *q = (volatile u32 *)(base + off + 4ull * threadIdx.x);
  *q = v;
  out[gtid()] = *q + s[threadIdx.x & 63];
}
