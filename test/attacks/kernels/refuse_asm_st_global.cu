// Inline asm that stores to global memory: not register-only -> refused.
#include "common.h"
extern "C" __global__ void asm_st_global(u64 victim, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(victim + 4ull * gtid()), "r"(v) : "memory");
}
