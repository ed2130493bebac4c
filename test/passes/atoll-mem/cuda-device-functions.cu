// Real clang-22 output with __noinline__ device functions that touch a kernel
// buffer, a __shared__ array and a stack array: atoll-mem inlines them into the
// kernel (no call is left, no device function remains) and confines each access
// with the kernel's windows.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX

__device__ __noinline__ float load_at(const float *p, int i) { return p[i]; }
__device__ __noinline__ void stash(float *tile, int i, float v) { tile[i & 63] = v; }
__device__ __noinline__ float pick(int i) {
  float tmp[4] = {1.f * i, 2.f * i, 3.f * i, 4.f * i};
  return tmp[i & 3];
}

__global__ void kernel(const float *in, float *out) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  stash(tile, t, load_at(in, t) * pick(t));
  __syncthreads();
  out[t] = tile[(t + 1) & 63];
}

// VERBOSE-DAG: atoll-mem: _Z6kernelPKfPf: global load confined: into the arena (mask)
// VERBOSE-DAG: atoll-mem: _Z6kernelPKfPf: shared store confined: into its shared object
// VERBOSE-DAG: atoll-mem: _Z6kernelPKfPf: local load confined: into its stack object
// VERBOSE-DAG: atoll-mem: _Z6kernelPKfPf: shared load confined: into its shared object
// VERBOSE-DAG: atoll-mem: _Z6kernelPKfPf: global store confined: into the arena (mask)

// CHECK-NOT:   define {{.*}}@_Z7load_at
// CHECK-NOT:   define {{.*}}@_Z5stash
// CHECK-NOT:   define {{.*}}@_Z4pick
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6kernelPKfPf(ptr {{.*}}, ptr {{.*}}, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
// CHECK-NOT:     call {{.*}}@_Z
// CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 252)
// CHECK-NOT:   define {{.*}}@_Z7load_at
// CHECK-NOT:   define {{.*}}@_Z5stash
// CHECK-NOT:   define {{.*}}@_Z4pick

// PTX-NOT:     .func
// PTX-LABEL: .entry _Z6kernelPKfPf(
// PTX-NOT:     call
// PTX:         barrier.sync 0;
// PTX-NOT:     .func
