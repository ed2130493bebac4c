// R3-F5 part 2: no loop, 1024 dependent global loads per thread over a 4 MiB table in
// the attacker's arena (the whole mask arena). Before the straight-line budget no
// poll ran: a cancelled grid ran every chain to the end (seconds). Now a poll comes
// at least every 256 memory accesses, so each block leaves within a quarter of its
// chain after the cancel. Each hop's address is the previous hop's value stepped by
// an LCG: chains neither converge nor stall when the table holds zeros (the first
// version, v = t[lcg(v)], sent most threads onto one path through the zeros beyond
// buffer A: one L1 line for the whole warp, and the grid ended in < 500 ms on the
// H200). Its own module: the chain is long to compile (kept off the other timeout
// attacks); 2048 hops took 8x the compile time of 1024 (41 s of CPU), near the
// compile worker's 60 s CPU limit.
#include "common.h"

#define ATOLL_HOP1 v = (v ^ t[v & 0xFFFFFu]) * 1664525u + 1013904223u;
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
