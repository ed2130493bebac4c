// A load smuggled between register scopes on one line ("}{"): the statement
// splitter must not take it for a scope brace -> refused.
#include "common.h"
extern "C" __global__ void asm_brace_smuggle(u64 victim, u32 *out) {
  u32 r;
  asm volatile("{ mov.u32 %0, 0; }{ ld.global.u32 %0, [%1]; }" : "=r"(r) : "l"(victim));
  out[gtid()] = r;
}
