// Atomics of every scope to foreign (victim) addresses, misaligned atomics and
// shared atomics out of range.
#include "common.h"

extern "C" __global__ void atomic_add_foreign(u64 victim, u32 v, u32 *out) {
  out[gtid()] = atomicAdd((u32 *)victim + gtid(), v);
}
extern "C" __global__ void atomic_cas_foreign(u64 victim, u32 expect, u32 v, u32 *out) {
  // Expect the value a successful read would give, so a breach also swaps.
  u32 *q = (u32 *)victim + gtid();
  out[gtid()] = atomicCAS(q, expect, v);
  out[gtid()] ^= atomicCAS(q, *(volatile u32 *)q, v);
}
extern "C" __global__ void atomic_exch_foreign(u64 victim, u32 v, u32 *out) {
  out[gtid()] = atomicExch((u32 *)victim + gtid(), v);
}
extern "C" __global__ void atomic_add_block_foreign(u64 victim, u32 v, u32 *out) {
  out[gtid()] = atomicAdd_block((u32 *)victim + gtid(), v);
}
extern "C" __global__ void atomic_add_system_foreign(u64 victim, u32 v, u32 *out) {
  out[gtid()] = atomicAdd_system((u32 *)victim + gtid(), v);
}
extern "C" __global__ void atomic_cas_system_u64_foreign(u64 victim, u64 v, u64 *out) {
  out[gtid()] = atomicCAS_system((unsigned long long *)victim + gtid(), 0ull, v);
}
extern "C" __global__ void atomic_or_u64_foreign(u64 victim, u64 v, u64 *out) {
  out[gtid()] = atomicOr((unsigned long long *)victim + gtid(), v);
}
extern "C" __global__ void atomic_max_foreign(u64 victim, u32 *out) {
  out[gtid()] = atomicMax((u32 *)victim + gtid(), 0xFFFFFFFFu);
}
extern "C" __global__ void atomic_float_add_foreign(u64 victim, float v, float *out) {
  out[gtid()] = atomicAdd((float *)victim + gtid(), v);
}
extern "C" __global__ void atomic_inc_foreign(u64 victim, u32 *out) {
  out[gtid()] = atomicInc((u32 *)victim + gtid(), 0xFFFFFFFFu);
}
extern "C" __global__ void atomic_misaligned(u8 *p, u32 off, u32 *out) {
  out[gtid()] = atomicAdd((u32 *)(p + off + 8 * gtid()), 1u);
}
extern "C" __global__ void atomic_misaligned_u64(u64 victim, u64 *out) {
  out[gtid()] = atomicAdd((unsigned long long *)(victim + 4 + 16 * gtid()), 1ull);
}
extern "C" __global__ void atomic_shared_oob(u32 idx, u32 *out) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = 0;
  __syncthreads();
  atomicAdd(&s[idx + threadIdx.x], 1u);
  atomicCAS(&s[idx - threadIdx.x], 0u, 5u);
  __syncthreads();
  out[gtid()] = s[threadIdx.x & 63];
}
