// __ldg (ld.global.nc) and volatile accesses to foreign addresses.
#include "common.h"

extern "C" __global__ void ldg_foreign(u64 victim, u32 *out) {
  out[gtid()] = __ldg((const u32 *)victim + gtid());
}
extern "C" __global__ void ldg_float4_foreign(u64 victim, float4 *out) {
  out[gtid()] = __ldg((const float4 *)victim + gtid());
}
extern "C" __global__ void ldg_oob(const u32 *p, u64 idx, u32 *out) {
  out[gtid()] = __ldg(p + idx + gtid());
}
extern "C" __global__ void volatile_foreign_write(u64 victim, u32 v) {
  ((volatile u32 *)victim)[gtid()] = v;
}
extern "C" __global__ void volatile_foreign_read(u64 victim, u32 *out) {
  out[gtid()] = ((volatile const u32 *)victim)[gtid()];
}
