; cp.async ...s: a run-time src-size (bytes read, the rest zero-filled) larger than
; the copy size is undefined in PTX: it is cut to the copy size with umin.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i8] undef, align 16

define ptx_kernel void @k(ptr addrspace(1) %src, i32 %n) {
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) @tile, ptr addrspace(1) %src, i32 %n)
  ret void
}

declare void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3), ptr addrspace(1), i32)

; CHECK: [[SF0:%[0-9]+]] = freeze i32 %n
; CHECK-NEXT: %atoll.src.size = call i32 @llvm.umin.i32(i32 [[SF0]], i32 16)
; CHECK: call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) {{.*}}, ptr addrspace(1) {{.*}}, i32 %atoll.src.size)
