// Local (stack) arrays indexed far out of range.
#include "common.h"

extern "C" __global__ void local_oob_write(u32 idx, u32 v, u32 *out) {
  u32 l[16];
  for (int i = 0; i < 16; ++i) l[i] = i * gtid();
  l[idx] = v;
  out[gtid()] = l[gtid() & 15] ^ l[(gtid() * 7) & 15];
}
extern "C" __global__ void local_oob_read(u32 idx, u32 *out) {
  u32 l[16];
  for (int i = 0; i < 16; ++i) l[i] = i * gtid();
  out[gtid()] = l[idx + gtid()];
}
extern "C" __global__ void local_negative(i32 idx, u32 v, u32 *out) {
  u32 l[16];
  for (int i = 0; i < 16; ++i) l[i] = i;
  l[idx] = v;
  out[gtid()] = l[idx - 1] + l[gtid() & 15];
}
extern "C" __global__ void local_2d_oob(u32 row, u32 col, u32 v, u32 *out) {
  u32 m[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) m[i][j] = i * 8 + j;
  m[row][col] = v;
  out[gtid()] = m[gtid() & 7][(gtid() >> 3) & 7] + m[row & 7][col & 7];
}
