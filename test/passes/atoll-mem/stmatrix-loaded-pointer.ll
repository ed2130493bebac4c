; stmatrix given a pointer loaded from memory (unknown space): no run-time space
; test with an arena branch (a global address under stmatrix faults); the row is
; confined to the shared window only.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %rows, i32 %a, i32 %b) {
  %p = load ptr, ptr addrspace(1) %rows, align 8
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x2.b16.p0(ptr %p, i32 %a, i32 %b)
  ret void
}

declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x2.b16.p0(ptr, i32, i32)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %p = load ptr, ptr addrspace(1) {{%.*}}, align 8
; CHECK-NEXT:    [[S:%.*]] = addrspacecast ptr %p to ptr addrspace(3)
; CHECK-NEXT:    [[SI:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
; CHECK-NEXT:    [[SF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[SI]]
; CHECK-NOT:     isspacep
; CHECK:         %atoll.shared = inttoptr i64 %atoll.smem.addr to ptr addrspace(3)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(3) %atoll.shared to ptr
; CHECK-NOT:     isspacep
; CHECK:         call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x2.b16.p0(ptr [[X]], i32 %a, i32 %b)
