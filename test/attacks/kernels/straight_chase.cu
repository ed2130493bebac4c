// R3-F5 part 2: no loop, 1024 dependent global loads per thread (~0.5-1 us each
// under load, over a 4 MiB table in the attacker's arena). Before the straight-line
// budget no poll ran: a cancelled grid of 2^23 blocks ran every chain to the end
// (seconds). Now a poll comes at least every 256 memory accesses, so each block
// leaves within a quarter of its chain after the cancel. Its own module: the chain
// is long to compile (kept off the other timeout attacks).
#include "common.h"

#define ATOLL_HOP1 v = t[(v * 1664525u + 1013904223u) & 0xFFFFFu];
#define ATOLL_HOP8 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 \
  ATOLL_HOP1 ATOLL_HOP1
#define ATOLL_HOP64 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 \
  ATOLL_HOP8 ATOLL_HOP8
#define ATOLL_HOP512 ATOLL_HOP64 ATOLL_HOP64 ATOLL_HOP64 ATOLL_HOP64 ATOLL_HOP64 \
  ATOLL_HOP64 ATOLL_HOP64 ATOLL_HOP64

extern "C" __global__ void straight_chase(const u32 *t, u32 *out) {
  u32 v = gtid();
  ATOLL_HOP512 ATOLL_HOP512
  if (v == 0x9e3779b9u) // keeps the chain (almost never true)
    out[gtid() & 255u] = v;
}
