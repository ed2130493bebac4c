; A constant memset longer than 256 bytes into the shared window (extern
; __shared__) is cut to the window's run-time size first.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k() {
  call void @llvm.memset.p3.i64(ptr addrspace(3) @dyn, i8 0, i64 1000, i1 false)
  ret void
}

declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)

; CHECK: %atoll.len = call i64 @llvm.umin.i64(i64 1000, i64 %atoll.smem.bytes)
; CHECK: call void @llvm.memset.p3.i64(ptr addrspace(3) {{.*}}, i8 0, i64 %atoll.len, i1 false)
