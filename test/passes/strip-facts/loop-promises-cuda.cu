// clang gives every C++ function `mustprogress` and infers `willreturn` for a
// device function at -O2; both promise that every loop ends (R4-F1), which the
// tenant need not keep (here i += 2 until i == n: an odd n never ends). The kernel
// and the device function lose both; nothing else of their attributes changes.
// (The loop keeps its llvm.loop.mustprogress here: the preemption pass drops a
// loop's llvm.loop metadata before it counts it.)
// RUN: %clang-cuda %s -o %t.bc
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=CLANG
// RUN: %opt-atoll -passes=atoll-strip-facts -S %t.bc | FileCheck %s --implicit-check-not='{{[{ ]}}mustprogress' --implicit-check-not='{{[{ ]}}willreturn'
// CLANG: attributes #{{[0-9]+}} = { mustprogress {{.*}}willreturn
// CHECK: define {{.*}} @_Z4stepi({{.*}}) {{.*}}#[[STEP:[0-9]+]] {
// CHECK: define {{.*}}ptx_kernel void @_Z1kPii({{.*}}) {{.*}}#[[K:[0-9]+]] {
// CHECK: attributes #[[STEP]] = { {{.*}}nounwind
// CHECK: attributes #[[K]] = { {{.*}}nounwind
__device__ __attribute__((noinline)) int step(int i) { return i + 2; }
__global__ void k(int *out, int n) {
  int s = 0;
  for (int i = 0; i != n; i = step(i))
    s += i;
  *out = s;
}
