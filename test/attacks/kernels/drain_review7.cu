// Review R7 (drain of a cancelled grid): a block that starts after a cancel must
// leave within the entry budget (16 memory accesses), wherever that work hides.
//  - loop_chase (R7-F7): straight_chase moved into a loop whose exit depends on the
//    data: its first iteration (192 dependent loads) ran whole before the loop's
//    first back edge polled. Now a body heavier than the entry budget (64 accesses)
//    branches on
//    the entry read (a register) every iteration.
//  - zero_drain (R7-F1): one thread per block and a 200 KiB dynamic shared window:
//    the zeroing of the window (12,800 16-byte stores per thread) ran before any
//    poll. Now a block whose zeroing is longer than the entry budget's worth of
//    stores votes on the cancel word first (barrier.red.or) and leaves as a whole.
#include "common.h"

#define ATOLL_HOP1 v = (v ^ t[v & 0xFFFFFu]) * 1664525u + 1013904223u;
#define ATOLL_HOP8 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 ATOLL_HOP1 \
  ATOLL_HOP1 ATOLL_HOP1
#define ATOLL_HOP64 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 ATOLL_HOP8 \
  ATOLL_HOP8 ATOLL_HOP8

// The iteration count is stored so that clang must run the loop (without it, the
// loop has no effect but v == stop, which -O2 substitutes: the first H200 run
// "finished within 500 ms").
extern "C" __global__ void loop_chase(const u32 *t, u32 *out, u32 stop) {
  u32 v = gtid(), n = 0;
  do {
    ATOLL_HOP64 ATOLL_HOP64 ATOLL_HOP64
    ++n;
  } while (v != stop); // stop is (almost) never met: the loop is checked, not charged
  out[gtid() & 255u] = n;
}

extern "C" __global__ void zero_drain(u32 *out) {
  extern __shared__ u32 window[];
  if (window[threadIdx.x] != 0) // zero-initialised: never true
    out[blockIdx.x & 255u] = window[threadIdx.x];
}
