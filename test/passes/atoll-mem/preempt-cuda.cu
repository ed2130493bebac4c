// Preemption checks on clang's real output: a grid-stride loop gets the counted check
// (no eager read: no volatile access), a spin on a volatile flag reads the cancel word
// on every edge, and a loop-free kernel gets nothing (no entry poll by default).
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem %t.bc -S -o - | FileCheck %s
// RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem %t.bc -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
// With charging (the default) the grid-stride loop is versioned: its copy without
// checks carries `.pragma "nounroll"` (ptxas keeps LLVM's unrolling; docs/passes.md),
// the checked original and the wait loop none.
// RUN: %opt-atoll -passes=atoll-mem %t.bc -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=CHARGED
// CHARGED-LABEL: .entry scale(
// CHARGED:       Inner Loop Header
// CHARGED-NEXT:    .pragma "nounroll";
// CHARGED:       Inner Loop Header
// CHARGED-NOT:     .pragma
// CHARGED-LABEL: .entry wait_flag(
// CHARGED-NOT:     .pragma
// CHARGED-LABEL: .entry add1(

extern "C" __global__ void scale(float *x, int n, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] *= a;
}

extern "C" __global__ void wait_flag(volatile int *flag) {
  while (*flag == 0) {
  }
}

extern "C" __global__ void add1(int *x) { x[threadIdx.x] += 1; }

// CHECK-LABEL: define {{.*}}void @scale(
// CHECK-NOT:   atoll.cancel.eager
// CHECK:       .atoll.backedge:
// CHECK-NEXT:    %atoll.poll.next = sub i32
// CHECK:       atoll.poll.fresh:
// CHECK-NEXT:    load volatile i32, ptr addrspace(1) %atoll.ctrl
// CHECK:       ret void
// CHECK-LABEL: define {{.*}}void @wait_flag(
// CHECK:       .atoll.backedge:
// CHECK-NEXT:    %atoll.cancel{{[0-9]*}} = load volatile i32, ptr addrspace(1) %atoll.ctrl
// CHECK-LABEL: define {{.*}}void @add1(
// CHECK-NOT:     atoll.cancel
// CHECK-NOT:     atoll.poll
// CHECK-NOT:     atoll.leave
// CHECK:       ret void
// CHECK-NEXT:  }

// PTX-LABEL: .entry scale(
// PTX:         ld.volatile.global.b32
// PTX-LABEL: .entry wait_flag(
// PTX:         ld.volatile.global.b32
// PTX-LABEL: .entry add1(
// PTX-NOT:     ld.volatile
// PTX:         ret;
