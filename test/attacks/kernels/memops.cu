// memcpy/memset/memmove with run-time (huge) lengths and foreign destinations or
// sources: __builtin_mem* with a length the compiler cannot see.
#include "common.h"

extern "C" __global__ void memset_huge(u8 *p, u64 n, u32 v) {
  __builtin_memset(p, (int)v, n);
}
extern "C" __global__ void memset_foreign(u64 victim, u64 n, u32 v) {
  __builtin_memset((void *)victim, (int)v, n);
}
extern "C" __global__ void memcpy_huge(u8 *dst, const u8 *src, u64 n) {
  __builtin_memcpy(dst, src, n);
}
extern "C" __global__ void memcpy_foreign_dst(u64 victim, const u8 *src, u64 n) {
  __builtin_memcpy((void *)victim, src, n);
}
extern "C" __global__ void memcpy_foreign_src(u8 *dst, u64 victim, u64 n) {
  __builtin_memcpy(dst, (const void *)victim, n);
}
extern "C" __global__ void memmove_huge(u8 *p, u64 off, u64 n) {
  __builtin_memmove(p + off, p, n);
}
extern "C" __global__ void memset_shared_huge(u64 n, u32 v, u32 *out) {
  __shared__ u32 s[64];
  __builtin_memset(s, (int)v, n);
  __syncthreads();
  out[gtid()] = s[threadIdx.x & 63];
}
extern "C" __global__ void memcpy_to_shared_huge(const u8 *src, u64 n, u32 *out) {
  __shared__ u32 s[64];
  if (threadIdx.x == 0) __builtin_memcpy(s, src, n);
  __syncthreads();
  out[gtid()] = s[threadIdx.x & 63];
}
extern "C" __global__ void memset_local_huge(u64 n, u32 v, u32 *out) {
  u32 l[16];
  for (int i = 0; i < 16; ++i) l[i] = i;
  __builtin_memset(l, (int)v, n);
  out[gtid()] = l[gtid() & 15] + l[(gtid() + 5) & 15];
}
// Constant lengths larger than the arena and than the shared object (a length
// longer than the window must not make the clamp limit wrap around).
extern "C" __global__ void memcpy_const_huge(u8 *dst, const u8 *src) {
  __builtin_memcpy(dst, src, 8u << 20);
}
extern "C" __global__ void memset_const_shared(u32 v, u32 *out) {
  __shared__ u32 s[64];
  if (threadIdx.x == 0) __builtin_memset(s, (int)v, 65536);
  __syncthreads();
  out[gtid()] = ((volatile u32 *)s)[threadIdx.x & 63];
}
