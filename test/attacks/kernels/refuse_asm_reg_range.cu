// A "<N>" register range in the asm's own scope that names the compiler's
// registers (%rd1..%rd7 hold the arena base and confined addresses in the PTX
// around it): the parser that once judged asm text took the range for the asm's
// own registers. Deny by default: the text is on no allow-list.
#include "common.h"
extern "C" __global__ void asm_reg_range(u64 victim, u32 *out) {
  asm volatile("{ .reg .b64 %%rd<8>; mov.u64 %%rd1, %0; }" ::"l"(victim));
  out[gtid()] = 1;
}
