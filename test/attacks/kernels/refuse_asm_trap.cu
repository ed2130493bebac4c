// A trap instruction in inline asm -> refused (a trap poisons the shared context).
#include "common.h"
extern "C" __global__ void asm_trap(u32 x, u32 *out) {
  if (x == 7) asm volatile("trap;");
  out[gtid()] = x;
}
