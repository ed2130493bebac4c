// clang-22 output for a __device__ variable that a kernel writes: refused, naming
// the global, the writing instruction, the function and (with -g) the source line.
// (Atomics on __device__ variables: see written-atomic.ll.)
// RUN: %clang-cuda %s -o %t.bc
// RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t.bc 2>&1 | FileCheck %s
// RUN: %clang-cuda -g %s -o %t.g.bc
// RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t.g.bc 2>&1 | FileCheck %s --check-prefix=DEBUG

__device__ int counter;
__device__ int readonly_table[2] = {1, 2};

__global__ void kern(int *out, int i) {
  out[0] = readonly_table[i & 1];
  counter = i;
}

// CHECK: error: promote-ptx-constant-globals: refused global 'counter': writable module-scope storage (written by 'store i32 %{{[0-9]+}}, ptr addrspacecast (ptr addrspace(1) @counter to ptr), align 4' in '_Z4kernPii')
// DEBUG: error: promote-ptx-constant-globals: refused global 'counter': writable module-scope storage (written by 'store i32 %{{[0-9]+}}, ptr addrspacecast (ptr addrspace(1) @counter to ptr), align 4' in '_Z4kernPii' at {{.*}}cuda-device-written.cu:14:11)
