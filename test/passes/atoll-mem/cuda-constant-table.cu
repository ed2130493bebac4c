// Real clang-22 output reading a __constant__ table at run-time indices: each read
// is confined into the 128-byte table (constant space), the buffers into the
// arena. The table stays in constant memory (ld.const).
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes=promote-ptx-constant-globals,atoll-mem %t.bc -o - | %llc-sm90 -o /dev/null

__constant__ float coeff[32];
__global__ void poly(const float *x, float *y, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = coeff[k & 31] * x[i] + coeff[(k + i) & 31];
}

// VERBOSE:      atoll-mem: _Z4polyPKfPfii: constant load confined: into its constant object
// VERBOSE-NEXT: atoll-mem: _Z4polyPKfPfii: global load confined: into the arena (mask)
// VERBOSE-NEXT: atoll-mem: _Z4polyPKfPfii: constant load confined: into its constant object
// VERBOSE-NEXT: atoll-mem: _Z4polyPKfPfii: global store confined: into the arena (mask)

// CHECK: @coeff = {{.*}}addrspace(4) externally_initialized constant [32 x float]
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4polyPKfPfii(
// The offset is taken from the GEP's index (through the generic cast of @coeff),
// clamped in 32 bits to 128 - 4 and 4-aligned.
// CHECK:         [[G:%.*]] = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(4) @coeff to ptr), i64 [[I:%.*]]
// CHECK-NEXT:    [[O:%atoll.obj.off[0-9]*]] = mul i64 [[I]], 4
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 124)
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[P:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(4) @coeff to ptr), i64 [[Z]]
// CHECK-NEXT:    load float, ptr [[P]], align 4

// In the PTX the backend drops the umin where (k & 31) * 4 <= 124 already holds;
// the table is read with ld.const, the buffers through a 32-bit and, widened and
// or-ed with the base.
// PTX-LABEL: .entry _Z4polyPKfPfii(
// PTX:         mov.b64 [[TAB:%rd[0-9]+]], coeff;
// PTX-NEXT:    add.s64 [[A:%rd[0-9]+]], [[TAB]], {{%rd[0-9]+}};
// PTX-NEXT:    ld.const.b32 {{%r[0-9]+}}, {{\[}}[[A]]{{\]}};
// PTX:         cvt.u32.u64 [[T:%r[0-9]+]], {{%rd[0-9]+}};
// PTX-NEXT:    and.b32 [[O:%r[0-9]+]], [[T]], {{%r[0-9]+}};
// PTX-NEXT:    cvt.u64.u32 [[Z:%rd[0-9]+]], [[O]];
// PTX-NEXT:    or.b64 [[G:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z]];
// PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[G]]{{\]}};
// PTX:         ld.const.b32
