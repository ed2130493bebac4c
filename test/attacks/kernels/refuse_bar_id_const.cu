// barrier.sync with a constant id outside 0..15 -> refused (a CTA has 16 barriers).
#include "common.h"
extern "C" __global__ void bar_id_const(u32 *out) {
  __nvvm_barrier_sync(16);
  out[gtid()] = 1;
}
