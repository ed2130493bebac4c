// A victim's real device address (Pipeline::deviceAddress, passed as an integer)
// turned into a pointer and dereferenced.
#include "common.h"

extern "C" __global__ void forge_write(u64 victim, u32 v) { ((u32 *)victim)[gtid()] = v; }
extern "C" __global__ void forge_read(u64 victim, u32 *out) {
  out[gtid()] = ((const u32 *)victim)[gtid()];
}
// Spray: thread t touches victim - 2 MiB + t * 4 KiB (the whole neighbourhood).
extern "C" __global__ void forge_spray_write(u64 victim, u32 v) {
  *(u32 *)(victim - (2ull << 20) + 4096ull * gtid()) = v;
}
extern "C" __global__ void forge_spray_read(u64 victim, u32 *out) {
  out[gtid()] = *(const u32 *)(victim - (2ull << 20) + 4096ull * gtid());
}
// 64-bit stores through a forged pointer (wider than the canary words).
extern "C" __global__ void forge_write_u64(u64 victim, u64 v) {
  ((u64 *)victim)[gtid()] = v;
}
