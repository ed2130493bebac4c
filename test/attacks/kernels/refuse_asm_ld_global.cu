// Inline asm that loads from global memory: not register-only -> refused.
#include "common.h"
extern "C" __global__ void asm_ld_global(u64 victim, u32 *out) {
  u32 r;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(victim));
  out[gtid()] = r;
}
