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
