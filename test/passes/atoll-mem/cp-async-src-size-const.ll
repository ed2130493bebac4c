; cp.async ...s: a constant src-size larger than the copy size is cut to it (8
; bytes copied: 200 becomes 8); a smaller one is kept.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i8] undef, align 16

define ptx_kernel void @k(ptr addrspace(1) %src) {
  call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) @tile, ptr addrspace(1) %src, i32 200)
  %d = getelementptr i8, ptr addrspace(3) @tile, i64 16
  call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) %d, ptr addrspace(1) %src, i32 3)
  ret void
}

declare void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3), ptr addrspace(1), i32)

; CHECK: call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) {{.*}}, ptr addrspace(1) {{.*}}, i32 8)
; CHECK: call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) {{.*}}, ptr addrspace(1) {{.*}}, i32 3)
