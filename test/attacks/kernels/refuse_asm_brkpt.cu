// brkpt in inline asm (an illegal instruction without a debugger) -> refused.
#include "common.h"
extern "C" __global__ void asm_brkpt(u32 x, u32 *out) {
  if (x == 7) asm volatile("brkpt;");
  out[gtid()] = x;
}
