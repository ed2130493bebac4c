// A store hidden behind register-only statements, a scope, a .reg declaration and
// a guard predicate on one line: every statement is checked -> refused.
#include "common.h"
extern "C" __global__ void asm_hidden_store(u64 victim, u32 v) {
  asm volatile("{ .reg .pred p; .reg .u32 t; add.u32 t, %1, 1; setp.ne.u32 p, t, 0; "
               "@p st.u32 [%0], t; }" ::"l"(victim), "r"(v) : "memory");
}
