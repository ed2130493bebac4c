// Register-only inline assembly (allowed: arithmetic, logic, moves, special
// registers) and faults the compiler removes (unreachable, division by zero).
#include "common.h"

// out[t] = x * 3 + t, computed in asm; the harness checks the value.
extern "C" __global__ void asm_register_only(u32 *out, u32 x) {
  u32 r, t = gtid();
  asm("{ .reg .u32 tmp;\n\t"
      "mul.lo.u32 tmp, %1, 3;\n\t"
      "add.u32 %0, tmp, %2; }"
      : "=r"(r)
      : "r"(x), "r"(t));
  u32 sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  out[gtid()] = r + (sm & 0u);
}
// __builtin_unreachable on a path the tenant controls: the pass turns
// `unreachable` into a return instead of a PTX trap.
extern "C" __global__ void unreachable_path(u32 x, u32 *out) {
  if (x == 42)
    __builtin_unreachable();
  out[gtid()] = x;
}
// Integer division by zero does not fault on the GPU; it must not become a trap.
extern "C" __global__ void int_div_zero(u32 a, u32 b, u32 *out) {
  out[gtid()] = a / b + (u32)((i32)a % (i32)b);
}
