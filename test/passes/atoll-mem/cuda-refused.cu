// Real clang-22 output of CUDA code atoll-mem refuses, one kernel per -DCASE:
// printf, malloc, assert, recursion, a function pointer and __trap(). Each
// refusal exits non-zero and names the mangled kernel, the reason and the call.
// RUN: %clang-cuda -DCASE=1 %s -o %t1.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t1.bc 2>&1 | FileCheck %s --check-prefix=PRINTF
// RUN: %clang-cuda -DCASE=2 %s -o %t2.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t2.bc 2>&1 | FileCheck %s --check-prefix=MALLOC
// RUN: %clang-cuda -DCASE=3 %s -o %t3.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t3.bc 2>&1 | FileCheck %s --check-prefix=ASSERT
// RUN: %clang-cuda -DCASE=4 %s -o %t4.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t4.bc 2>&1 | FileCheck %s --check-prefix=RECURSION
// RUN: %clang-cuda -DCASE=5 %s -o %t5.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t5.bc 2>&1 | FileCheck %s --check-prefix=FNPTR
// RUN: %clang-cuda -DCASE=6 %s -o %t6.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t6.bc 2>&1 | FileCheck %s --check-prefix=TRAP

#include <cassert>
#include <cstdio>

#if CASE == 1
__global__ void k_printf(int *p) { printf("value %d\n", *p); }
#elif CASE == 2
__global__ void k_malloc(int **out) { *out = (int *)malloc(64); }
#elif CASE == 3
__global__ void k_assert(const int *p) { assert(*p != 0); }
#elif CASE == 4
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void k_recursion(int *out, int n) { *out = fib(n); }
#elif CASE == 5
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int thrice(int x) { return 3 * x; }
__global__ void k_fnptr(int *out, int sel, int x) {
  int (*f)(int) = sel ? twice : thrice;
  *out = f(x);
}
#elif CASE == 6
__global__ void k_trap(int *p) { if (*p) __trap(); }
#endif

// PRINTF: error: atoll-mem: refused in '_Z8k_printfPi': printf is not supported (its buffer is shared by every tenant): {{.*}}call i32 @vprintf(
// MALLOC: error: atoll-mem: refused in '_Z8k_mallocPPi': device heap allocation (malloc/free) is not supported: {{.*}}call {{.*}}ptr @malloc(i64 noundef 64)
// ASSERT: error: atoll-mem: refused in '_Z8k_assertPKi': assert: __assertfail traps, which faults the shared CUDA context: {{.*}}call void @__assertfail(
// RECURSION: error: atoll-mem: refused in '_Z11k_recursionPii': recursion through '_Z3fibi' (the stack cannot be bounded): {{.*}}call noundef i32 @_Z3fibi(
// FNPTR: error: atoll-mem: refused in '_Z7k_fnptrPiii': address of function '_Z{{5twicei|6thricei}}' is taken (indirect calls are not allowed): {{.*}}select i1 {{.*}}, ptr @_Z6thricei, ptr @_Z5twicei
// TRAP: error: atoll-mem: refused in '_Z6k_trapPi': trap: a trap faults the shared CUDA context (use an early return): {{.*}}call void @llvm.trap()
