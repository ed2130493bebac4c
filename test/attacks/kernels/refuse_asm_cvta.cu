// Address arithmetic in asm that converts state spaces (cvta) -> refused: only
// register-only opcodes are allowed.
#include "common.h"
extern "C" __global__ void asm_cvta(u64 victim, u32 *out) {
  u64 g;
  asm("cvta.to.global.u64 %0, %1;" : "=l"(g) : "l"(victim));
  out[gtid()] = (u32)g;
}
