; A 16-bit atomic on a shared object is confined as 4 bytes (the 32-bit word
; NVPTX operates on): offset <= size - 4.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16 x i16] undef, align 4

define ptx_kernel void @k(i64 %i, i16 %v, i16 %w) {
  %q = getelementptr i16, ptr addrspace(3) @tile, i64 %i
  %o = cmpxchg ptr addrspace(3) %q, i16 %v, i16 %w monotonic monotonic, align 2
  ret void
}

; CHECK: call i32 @llvm.umin.i32(i32 %{{.*}}, i32 28)
; CHECK: cmpxchg ptr addrspace(3)
