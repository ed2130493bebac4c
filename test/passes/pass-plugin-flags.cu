// clang -fpass-plugin hardens the device module at OptimizerLast with the options
// of -mllvm -atoll-* (clang 22 loads pass plugins before it parses -mllvm).
// RUN: %clang-cuda -fpass-plugin=%plugin %s -o - | llvm-dis -o - | FileCheck %s --check-prefixes=CHECK,MASK
// RUN: %clang-cuda -fpass-plugin=%plugin -mllvm -atoll-clamping-mode=modulo-based %s -o - | llvm-dis -o - | FileCheck %s --check-prefixes=CHECK,MODULO
// RUN: %clang-cuda -fpass-plugin=%plugin -mllvm -atoll-preempt=false %s -o - | llvm-dis -o - | FileCheck %s --check-prefix=NOPREEMPT
// RUN: %clang-cuda -fpass-plugin=%plugin -mllvm -atoll-verbose %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: not %clang-cuda -fpass-plugin=%plugin -mllvm -atoll-poll-shift=21 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

__global__ void loop(float *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] += 1.0f;
}

// CHECK: define {{.*}}ptx_kernel void @_Z4loopPfi({{.*}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
// MASK-NOT: urem
// MODULO: urem i64
// CHECK: load {{atomic|volatile}}
// MASK: "atoll-hardened"="mask-based"
// MODULO: "atoll-hardened"="modulo-based"
// NOPREEMPT-NOT: load {{atomic|volatile}}
// NOPREEMPT: "atoll-hardened"="mask-based"
// VERBOSE: atoll-mem: _Z4loopPfi: global load confined: into the arena (mask)
// BAD: atoll-mem: invalid -atoll-poll-shift 21 (expected 0..20)
