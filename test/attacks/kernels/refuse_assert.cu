// assert() calls __assertfail, which traps -> refused.
#include <assert.h>
#include "common.h"
extern "C" __global__ void assert_fails(u32 x, u32 *out) {
  assert(x != 5);
  out[gtid()] = x;
}
