; ldmatrix given a row of a stack array (generic pointer into local memory):
; ldmatrix addresses shared memory only, so the row is confined to the shared
; window (as a shared address), not to the stack object (ldmatrix on a local
; address faults).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(i64 %i, ptr addrspace(1) %out) {
  %a = alloca [16 x i32], align 16
  %r = getelementptr [4 x i32], ptr %a, i64 %i
  %f = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16.p0(ptr %r)
  %f0 = extractvalue { i32, i32 } %f, 0
  store i32 %f0, ptr addrspace(1) %out, align 4
  ret void
}

declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16.p0(ptr)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %atoll.smem.lim = sub i64 %atoll.smem.bytes, 16
; CHECK:         %r = getelementptr [4 x i32], ptr %a, i64 %i
; CHECK-NEXT:    [[S:%.*]] = addrspacecast ptr %r to ptr addrspace(3)
; CHECK-NEXT:    [[SI:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
; CHECK-NEXT:    [[SF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[SI]]
; CHECK-NEXT:    [[O:%.*]] = sub i64 [[SF]], %atoll.smem.lo
; CHECK:         %atoll.smem.addr = add i64 %atoll.smem.lo,
; CHECK-NEXT:    %atoll.shared = inttoptr i64 %atoll.smem.addr to ptr addrspace(3)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(3) %atoll.shared to ptr
; CHECK:         %f = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16.p0(ptr [[X]])
