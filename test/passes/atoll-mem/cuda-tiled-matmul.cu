// Real clang-22 output of a tiled matrix multiply with two static __shared__
// tiles and __syncthreads: global loads and the result store go to the arena,
// every tile access (reached through generic pointers at -O2) is confined into
// its own 1 KiB tile, the shared window is zeroed before the first barrier.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<summarize>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=SUMMARY
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

// SUMMARY:      global     load                  2            0         0
// SUMMARY-NEXT: global     store                 1            0         0
// SUMMARY-NEXT: shared     load                 32            0         0
// SUMMARY-NEXT: shared     store                 2            0         0
// SUMMARY-NEXT: total                           37            0         0

// CHECK: @_ZZ6matmulPKfS0_PfiE2As = internal unnamed_addr addrspace(3) global [16 x [16 x float]] undef, align 4
// CHECK: @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6matmulPKfS0_Pfi(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, i64 %__atoll_arena_base, i64 %__atoll_arena_size)
// CHECK:       atoll.zero.done:
// CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// A tile store: offset into As clamped to 1024 - 4, 4-aligned; the address is
// loop-invariant, so the clamp is computed once, before the loop.
// CHECK:         [[O:%atoll.obj.off]] = sub i64 {{%.*}}, ptrtoint (ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2As to ptr) to i64)
// CHECK-NEXT:    [[C:%.*]] = call i64 @llvm.umin.i64(i64 [[O]], i64 1020)
// CHECK-NEXT:    [[A:%.*]] = and i64 [[C]], -4
// CHECK-NEXT:    [[P:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2As to ptr), i64 [[A]]
// CHECK:         sub i64 {{%.*}}, ptrtoint (ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKfS0_PfiE2Bs to ptr) to i64)
// CHECK-NEXT:    call i64 @llvm.umin.i64(i64 {{%.*}}, i64 1020)
// CHECK:         store float {{%.*}}, ptr [[P]], align 4

// PTX-LABEL: .entry _Z6matmulPKfS0_Pfi(
// PTX:         bar.sync 0;
// PTX:         min.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 1020;
// PTX:         ld.global.b32
// PTX:         bar.sync 0;
