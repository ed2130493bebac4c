// Misaligned scalar and vector accesses through forged odd pointers (a fault on
// unhardened code: "misaligned address" poisons the context).
#include "common.h"

extern "C" __global__ void misaligned_u32_write(u8 *p, u32 off, u32 v) {
  *(u32 *)(p + off + 8 * gtid()) = v;
}
extern "C" __global__ void misaligned_u32_read(const u8 *p, u32 *out, u32 off) {
  out[gtid()] = *(const u32 *)(p + off + 8 * gtid());
}
extern "C" __global__ void misaligned_float4_read(const u8 *p, float4 *out, u32 off) {
  float4 x = *(const float4 *)(p + off + 32 * gtid());
  out[gtid()] = x;
}
extern "C" __global__ void misaligned_float4_write(u8 *p, u32 off, float v) {
  *(float4 *)(p + off + 32 * gtid()) = make_float4(v, v, v, v);
}
extern "C" __global__ void misaligned_u64_victim(u64 victim, u64 v) {
  *(u64 *)(victim + 1 + 16 * gtid()) = v;
}
extern "C" __global__ void misaligned_shared_u64(u32 off, u32 *out) {
  __shared__ u64 s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  u64 *q = (u64 *)((u8 *)s + off + 8 * (threadIdx.x & 31));
  *q = 0x0102030405060708ull;
  __syncthreads();
  out[gtid()] = (u32)s[threadIdx.x & 63];
}
extern "C" __global__ void misaligned_local_double(u32 off, double *out) {
  double l[8];
  for (int i = 0; i < 8; ++i) l[i] = i;
  volatile double *q = (double *)((u8 *)l + (off & 63));
  *q = 1.5;
  out[gtid()] = *q + l[off & 7];
}
