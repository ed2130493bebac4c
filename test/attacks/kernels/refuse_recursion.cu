// Recursion (unbounded stack) -> refused.
#include "common.h"
__device__ __noinline__ u32 fib(u32 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void recursion(u32 n, u32 *out) { out[gtid()] = fib(n); }
