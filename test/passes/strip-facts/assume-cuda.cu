// __builtin_assume and __builtin_assume_aligned in CUDA source become llvm.assume
// calls (a condition; an "align" operand bundle). A tenant's assumption is a
// promise LLVM believes (an index < 8, a 64-aligned pointer) and could fold a
// clamp with: every call is removed, with its bundles.
// RUN: %clang-cuda -O0 -Xclang -disable-O0-optnone %s -o %t.bc
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=CLANG
// RUN: %opt-atoll -passes=atoll-strip-facts -S %t.bc | FileCheck %s
// CLANG: call void @llvm.assume(i1
// CLANG: call void @llvm.assume(i1 true) [ "align"(
// CHECK: define {{.*}}ptx_kernel void @_Z1kPiS_i(
// CHECK-NOT: call void @llvm.assume
// CHECK: ret void
__global__ void k(int *out, int *in, int i) {
  __builtin_assume(i >= 0 && i < 8);
  int *a = static_cast<int *>(__builtin_assume_aligned(in, 64));
  out[i] = a[i];
}
