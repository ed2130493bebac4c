// Kernels that do not finish in time.
#include "common.h"

// Spins for ns nanoseconds of %globaltimer, then finishes: longer than the
// pipeline's timeout, so synchronize() reports Timeout, but the GPU run still ends.
extern "C" __global__ void spin_bounded(u64 ns, u32 *out) {
  u64 t0 = __nvvm_read_ptx_sreg_globaltimer();
  u64 spins = 0;
  while (__nvvm_read_ptx_sreg_globaltimer() - t0 < ns)
    ++spins;
  out[gtid()] = (u32)spins | 1u;
}
// Never ends (the compiler may not remove it: the loop reads a volatile flag).
extern "C" __global__ void spin_forever(u32 *flag) {
  while (*(volatile u32 *)flag == 0)
    ;
}

// --- never-ending kernels that the preemption checks must end (issue 15) ---------------

// Spins on registers (v stays odd, so never 0; the compiler cannot know). The store
// that never happens keeps C++'s forward-progress rule from deleting the loop.
extern "C" __global__ void spin_register(u32 *out, u32 seed) {
  u32 v = seed | 1u;
  while (v != 0) {
    v = v * 3u + 2u;
    if (v == 0x12345678u) // even: never
      out[gtid()] = v;
  }
}

// Nested loops: an inner register loop inside an outer loop on a flag nobody sets.
extern "C" __global__ void spin_nested(u32 *flag, u32 *out) {
  u32 acc = 1;
  while (*(volatile u32 *)flag == 0)
    for (u32 i = 0; i < 100000; ++i)
      acc = acc * 3u + i;
  out[gtid()] = acc;
}

// Sleeps 1 ms per iteration (the longest nanosleep) waiting for a flag.
extern "C" __global__ void spin_sleep(u32 *flag) {
  while (*(volatile u32 *)flag == 0)
    __nvvm_nanosleep(1000000); // the intrinsic (the header's inline asm is refused)
}

// R10-F4: a spin whose one block holds a nanosleep and a counter (a phi): the sleep's
// poll split that block after the pass took it as the latch. Launched with fuel, which
// must end it (the flag is never set).
extern "C" __global__ void sleep_latch_fuel(u32 *flag, u32 *out) {
  u32 n = 0;
  while (*(volatile u32 *)flag == 0) {
    __nvvm_nanosleep(0);
    ++n;
  }
  out[gtid()] = n;
}

// R3-F5: no loop at all, straight-line 1 ms sleeps. Before
// the fix no poll ran and a cancelled grid of these drained for seconds per block;
// now every nanosleep is preceded by a poll.
#define ATOLL_SLEEP1 __nvvm_nanosleep(1000000);
#define ATOLL_SLEEP10 ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1 \
  ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1 ATOLL_SLEEP1
#define ATOLL_SLEEP100 ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10 \
  ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10 ATOLL_SLEEP10
// 600 sleeps (0.6 s on average, over the 500 ms timeout): 2000 took ptxas 30 s of
// CPU, past the compile worker's limit on the GPU host.
extern "C" __global__ void straight_sleep(u32 *out) {
  ATOLL_SLEEP100 ATOLL_SLEEP100 ATOLL_SLEEP100 ATOLL_SLEEP100 ATOLL_SLEEP100 ATOLL_SLEEP100
  out[gtid()] = 1;
}

// Every thread of the block meets at __syncthreads() in each iteration: a cancelled
// block must not deadlock at the barrier (threads leave at different iterations).
extern "C" __global__ void spin_barrier(u32 *flag) {
  while (*(volatile u32 *)flag == 0)
    __syncthreads();
}

// An irreducible cycle: two entries (a and b), chosen by the seed's low bit.
extern "C" __global__ void spin_irreducible(u32 *out, u32 seed) {
  u32 v = seed | 1u;
  if (seed & 2u)
    goto b;
a:
  v = v * 3u + 2u;
b:
  v = v * 5u + 4u;
  if (v == 0x12345678u) // even: never (keeps the loop, see spin_register)
    out[gtid()] = v;
  if (v != 0)
    goto a;
}
