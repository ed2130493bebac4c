// Shared memory past the static and the dynamic size (including no dynamic
// shared memory at all, and the largest dynamic size).
#include "common.h"

extern "C" __global__ void shared_static_oob_write(u32 idx, u32 v, u32 *out) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  s[idx + threadIdx.x] = v;
  __syncthreads();
  out[gtid()] = s[threadIdx.x & 63];
}
extern "C" __global__ void shared_static_oob_read(u32 idx, u32 *out) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  out[gtid()] = s[idx + threadIdx.x];
}
extern "C" __global__ void shared_negative(i32 idx, u32 v, u32 *out) {
  __shared__ u32 s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  s[idx + (i32)threadIdx.x] = v;
  __syncthreads();
  out[gtid()] = s[idx + (i32)(threadIdx.x ^ 3)];
}
extern "C" __global__ void shared_dynamic_oob_write(u32 idx, u32 v, u32 *out) {
  extern __shared__ u32 d[];
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  d[idx + threadIdx.x] = v;
  __syncthreads();
  out[gtid()] = d[threadIdx.x];
}
extern "C" __global__ void shared_dynamic_oob_read(u32 idx, u32 *out) {
  extern __shared__ u32 d[];
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[gtid()] = d[idx + threadIdx.x];
}
// Launched with several static arrays and dynamic memory: every offset around the
// top of the window, as u64 stores (wider than the pad's granularity).
extern "C" __global__ void shared_window_edge(u32 base, u32 *out) {
  extern __shared__ u64 dd[];
  __shared__ u32 s1[33];
  __shared__ u8 s2[7];
  s1[threadIdx.x % 33] = 1;
  s2[threadIdx.x % 7] = 2;
  dd[base + threadIdx.x] = 0x1111111111111111ull * (threadIdx.x & 15);
  __syncthreads();
  out[gtid()] = (u32)dd[base + threadIdx.x] + s1[threadIdx.x % 33] + s2[threadIdx.x % 7];
}
