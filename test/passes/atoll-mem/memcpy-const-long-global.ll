; A constant memcpy/memset length longer than every window surely holds (256
; bytes) is cut to the window first, like a run-time one: the clamp limit
; (window - length) must not wrap.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 4096, i1 false)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK: %atoll.len = call i64 @llvm.umin.i64(i64 4096, i64 %atoll.arena.window)
; CHECK: %atoll.len1 = call i64 @llvm.umin.i64(i64 %atoll.len, i64 %atoll.arena.window)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 %atoll.len1, i1 false)
