// Out-of-bounds global accesses: small (just past the arena end), huge, negative,
// 64-bit wrap-around and the exact delta from an own buffer to the victim's data.
#include "common.h"

// p is the attacker buffer that ends at the arena's end; n its size in words.
extern "C" __global__ void oob_read_small(const u32 *p, u32 *out, u32 n) {
  out[gtid()] = p[n + gtid()];
}
extern "C" __global__ void oob_write_small(u32 *p, u32 n, u32 v) { p[n + gtid()] = v; }

// idx: a word index far beyond any arena (e.g. 2^38 words = 1 TiB).
extern "C" __global__ void oob_read_huge(const u32 *p, u32 *out, u64 idx) {
  out[gtid()] = p[idx + gtid()];
}
extern "C" __global__ void oob_write_huge(u32 *p, u64 idx, u32 v) { p[idx + gtid()] = v; }

// idx < 0: before the buffer (and before the arena for a buffer at its start).
extern "C" __global__ void oob_read_negative(const u32 *p, u32 *out, i64 idx) {
  out[gtid()] = p[idx + (i64)gtid()];
}
extern "C" __global__ void oob_write_negative(u32 *p, i64 idx, u32 v) {
  p[idx + (i64)gtid()] = v;
}

// p + off with off close to 2^64: the sum wraps around to just below p.
extern "C" __global__ void oob_write_wrap64(u8 *p, u64 off, u32 v) {
  *(u32 *)(p + off + 4ull * gtid()) = v;
}
extern "C" __global__ void oob_read_wrap64(const u8 *p, u32 *out, u64 off) {
  out[gtid()] = *(const u32 *)(p + off + 4ull * gtid());
}

// delta = (victim address) - (address of p), computed by the harness: without
// hardening, p + delta IS the victim's secret data.
extern "C" __global__ void oob_write_victim_delta(u8 *p, i64 delta, u32 v) {
  *(u32 *)(p + delta + 4 * (i64)gtid()) = v;
}
extern "C" __global__ void oob_read_victim_delta(const u8 *p, u32 *out, i64 delta) {
  out[gtid()] = *(const u32 *)(p + delta + 4 * (i64)gtid());
}
