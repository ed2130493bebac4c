// Review R8 (drain of a cancelled grid), R8-F3: a charged loop (a constant count of
// 63, below the first poll interval of 64, so the charge never polls) whose body is
// just under the entry budget (55 dependent loads, ~3800 units) ran whole in every
// block that started after a cancel: 63 x 55 = 3465 dependent loads per thread before
// its first poll; the entry read was never consulted. Now a charged loop counts as
// fresh work to the entry budget: a charge that can pass half the budget branches on
// the entry read first, and such a block leaves before the loop.
#include "common.h"

#define ATOLL_HOP1 v = (v ^ t[v & 0xFFFFFu]) * 1664525u + 1013904223u;
#define ATOLL_HOP5 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1
#define ATOLL_HOP55 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 \
  ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5 ATOLL_HOP5

extern "C" __global__ void charged_chase(const u32 *t, u32 *out) {
  u32 v = gtid();
#pragma unroll 1
  for (int i = 0; i < 63; ++i) {
    ATOLL_HOP55
  }
  out[gtid() & 255u] = v;
}
