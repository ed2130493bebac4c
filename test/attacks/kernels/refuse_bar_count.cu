// barrier.sync with a run-time thread count: 33 faults, 1056 hangs (measured on
// the H200): a count must be a constant multiple of 32 in 32..1024 -> refused.
#include "common.h"
extern "C" __global__ void bar_count(u32 n, u32 *out) {
  __nvvm_barrier_sync_cnt(0, n);
  out[gtid()] = n;
}
