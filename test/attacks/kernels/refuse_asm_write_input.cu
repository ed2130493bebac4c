// Asm that writes its input operand: the input register may be one the compiler
// reuses afterwards (an already confined address), so "register-only" asm could
// move it anywhere. Deny by default: the text is on no allow-list.
#include "common.h"
extern "C" __global__ void asm_write_input(u32 *out, u64 delta) {
  u32 *p = out + gtid();
  u64 r;
  asm("add.u64 %1, %1, %2; mov.u64 %0, %1;" : "=l"(r) : "l"(p), "l"(delta));
  *p = (u32)r;
}
