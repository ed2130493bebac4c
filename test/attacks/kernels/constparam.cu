// __constant__, promoted read-only __device__ tables and byval struct parameters
// read (and, for byval, written) far out of range.
#include "common.h"

__constant__ u32 c_table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__device__ u32 d_table[8] = {21, 22, 23, 24, 25, 26, 27, 28}; // never written: promoted

extern "C" __global__ void constant_overread(u32 idx, u32 *out) {
  out[gtid()] = c_table[idx + gtid()];
}
extern "C" __global__ void constant_negative(i32 idx, u32 *out) {
  out[gtid()] = c_table[idx + (i32)gtid()];
}
extern "C" __global__ void device_table_overread(u32 idx, u32 *out) {
  out[gtid()] = d_table[idx + gtid()];
}
extern "C" __global__ void string_overread(u64 idx, u32 *out) {
  const char *msg = "tenant string literal";
  out[gtid()] = (u8)msg[idx + gtid()];
}

struct Small {
  u32 v[4];
};
extern "C" __global__ void byval_overread(Small s, u32 idx, u32 *out) {
  out[gtid()] = s.v[idx + gtid()];
}
extern "C" __global__ void byval_write_oob(Small s, u32 idx, u32 v, u32 *out) {
  s.v[idx] = v;
  out[gtid()] = s.v[gtid() & 3] + s.v[idx & 3];
}
