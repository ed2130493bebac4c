// Allow-listed inline assembly (libdevice's asm, reads of special registers) and
// faults the compiler removes (unreachable, division by zero).
#include "common.h"

// out[t] = x * 3 + t, computed in asm; the harness checks the value. Only asm on
// the allow-list is accepted: libdevice's own mad.lo.cc/madc block, byte for byte
// (lo = x * 3 + t), and the register-only read of %smid as clang emits it.
extern "C" __global__ void asm_register_only(u32 *out, u32 x) {
  u32 r, hi, t = gtid();
  asm("{\n\tmad.lo.cc.u32   %0, %2, %3, %4;\n\tmadc.hi.u32     %1, %2, %3,  0;\n\t}"
      : "=r"(r), "=r"(hi)
      : "r"(x), "r"(3u), "r"(t));
  u32 sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  out[gtid()] = r + (sm & 0u) + (hi & 0u);
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
