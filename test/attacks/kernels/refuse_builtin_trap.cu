// __builtin_trap() (llvm.trap) -> refused.
#include "common.h"
extern "C" __global__ void builtin_trap(u32 x, u32 *out) {
  if (x > 100) __builtin_trap();
  out[gtid()] = x;
}
