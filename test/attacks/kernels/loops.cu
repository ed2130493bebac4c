// Grid-stride loops that run off the buffer and 32-bit index overflow.
#include "common.h"

extern "C" __global__ void grid_stride_runoff(u32 *p, u64 n, u32 v) {
  for (u64 i = gtid(); i < n; i += nthreads())
    p[i] = v;
}
extern "C" __global__ void grid_stride_runoff_read(const u32 *p, u64 n, u32 *out) {
  u32 acc = 0;
  for (u64 i = gtid(); i < n; i += nthreads())
    acc ^= p[i];
  out[gtid()] = acc;
}
// A 32-bit index computed with wrap-around, then sign-extended (negative) or used
// unsigned (up to 16 GiB past p).
extern "C" __global__ void index32_overflow_signed(u32 *p, u32 mul, u32 v) {
  i32 i = (i32)(gtid() * mul);
  p[i] = v;
}
extern "C" __global__ void index32_overflow_unsigned(u32 *p, u32 mul, u32 v) {
  u32 i = gtid() * mul;
  p[i] = v;
}
