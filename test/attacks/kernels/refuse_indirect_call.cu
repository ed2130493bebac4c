// Indirect calls through a table of function pointers -> refused.
#include "common.h"
typedef u32 (*fn_t)(u32);
__device__ __noinline__ u32 f_add(u32 x) { return x + 1; }
__device__ __noinline__ u32 f_mul(u32 x) { return x * 3; }
__device__ __noinline__ u32 f_xor(u32 x) { return x ^ 0x55u; }
extern "C" __global__ void indirect_call(u32 sel, u32 *out) {
  fn_t table[3] = {f_add, f_mul, f_xor};
  fn_t volatile f = table[sel % 3];
  out[gtid()] = f(gtid());
}
