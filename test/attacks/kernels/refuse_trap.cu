// __trap() on a tenant-controlled path -> refused.
#include "common.h"
extern "C" __global__ void trap_on_value(u32 x, u32 *out) {
  if (x == 13) __trap();
  out[gtid()] = x;
}
