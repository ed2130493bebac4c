// Real clang-22 output of a tiled matrix multiply with two static __shared__
// tiles and __syncthreads: global loads and the result store go to the arena,
// every tile access (reached through generic pointers at -O2) is confined into
// its own 1 KiB tile, the shared window is zeroed before the first barrier.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<preempt=off;summarize>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

#define T 16
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.f;
  for (int k = 0; k < n; k += T) {
    As[ty][tx] = A[row * n + k + tx];
    Bs[ty][tx] = B[(k + ty) * n + col];
    __syncthreads();
    for (int j = 0; j < T; ++j)
      acc += As[ty][j] * Bs[j][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// The two __syncthreads become the non-.aligned barrier 0 ("unknown intrinsic").
// SUMMARY:      global     load                  2            0         0
// SUMMARY-NEXT: global     store                 1            0         0
// SUMMARY-NEXT: shared     load                 32            0         0
// SUMMARY-NEXT: shared     store                 2            0         0
// SUMMARY-NEXT: unknown    intrinsic             2            0         0
// SUMMARY-NEXT: total                           39            0         0

// As is raised to align 16 (its row offsets ty*64 are 16-aligned, see below).
// The kernel touches only static shared objects: no shared pad (the window
// clamp is not used), but the shared memory is still zeroed.
// CHECK: @_ZZ6matmulPKfS0_PfiE2As = internal unnamed_addr addrspace(3) global [16 x [16 x float]] undef, align 16
// CHECK-NOT: @__atoll_smem_pad
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6matmulPKfS0_Pfi(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
// CHECK-NOT:     __atoll_smem_pad
// CHECK:       atoll.zero.done:
// CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
// The As[ty][j] loads (offsets ty*64 + 4j, j = 0..15) share one clamp of the row
// As[ty], limit 1024 - 64; the row offset is known 16-aligned, so the alignment
// mask is the inline-asm hint that keeps that visible to ptxas.
// CHECK:         [[RO:%.*]] = trunc i64 {{%.*}} to i32
// CHECK-NEXT:    [[OPQRO:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[RO]])
// CHECK-NEXT:    [[RC:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQRO]], i32 960)
// CHECK-NEXT:    [[RH:%.*]] = call i32 asm "and.b32 $0, $1, 0xfffffff0;", "=r,r"(i32 [[RC]])
// CHECK-NEXT:    [[RZ:%.*]] = zext i32 [[RH]] to i64
// CHECK-NEXT:    [[ROW:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2As to ptr), i64 [[RZ]]
// A tile store: offset into As (from the GEP indices) clamped to 1024 - 4,
// 4-aligned; the address is loop-invariant, so the clamp is computed once,
// before the loop.
// CHECK:         [[O:%atoll.obj.off]] = add i64 {{%.*}}, {{%.*}}
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 1020)
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[P:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2As to ptr), i64 [[Z]]
// CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 1020)
// CHECK-NEXT:    and i32 {{%.*}}, -4
// CHECK-NEXT:    zext i32
// CHECK-NEXT:    getelementptr i8, ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2Bs to ptr)
// CHECK:         store float {{%.*}}, ptr [[P]], align 4
// CHECK:         getelementptr i8, ptr [[ROW]], i64 0
// CHECK:         getelementptr i8, ptr [[ROW]], i64 60

// PTX-NOT:     __atoll_smem_pad
// PTX-LABEL: .entry _Z6matmulPKfS0_Pfi(
// PTX:         .shared .align 16 .b8 _ZZ6matmulPKfS0_PfiE2As[1024];
// PTX-NOT:     __atoll_smem_pad
// PTX:         barrier.sync 0;
// PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 960;
// PTX-NEXT:    // begin inline asm
// PTX-NEXT:    and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0xfffffff0;
// PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1020;
// PTX:         ld.global.b32
// PTX:         barrier.sync 0;
