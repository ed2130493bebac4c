; ldmatrix .x4 .trans given a row of a __constant__ table (generic): confined to
; the shared window, not to the constant object (ldmatrix reads shared memory
; only; a constant-space address there faults).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@w = internal addrspace(4) constant [64 x i32] zeroinitializer, align 16

define ptx_kernel void @k(i64 %i, ptr addrspace(1) %out) {
  %c = getelementptr [4 x i32], ptr addrspace(4) @w, i64 %i
  %g = addrspacecast ptr addrspace(4) %c to ptr
  %f = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p0(ptr %g)
  %f3 = extractvalue { i32, i32, i32, i32 } %f, 3
  store i32 %f3, ptr addrspace(1) %out, align 4
  ret void
}

declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p0(ptr)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %g = addrspacecast ptr addrspace(4) %c to ptr
; CHECK-NEXT:    [[S:%.*]] = addrspacecast ptr %g to ptr addrspace(3)
; CHECK-NEXT:    [[SI:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
; CHECK-NEXT:    [[SF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[SI]]
; CHECK:         %atoll.shared = inttoptr i64 %atoll.smem.addr to ptr addrspace(3)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(3) %atoll.shared to ptr
; CHECK:         %f = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p0(ptr [[X]])
