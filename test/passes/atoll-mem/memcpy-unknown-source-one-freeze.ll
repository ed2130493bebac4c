; A run-time-length memcpy into the arena from a source pointer of unknown space
; (loaded from memory): the source's window test (shared window or arena) and
; its confinement read one frozen pointer (R2-F5), not two freezes of it that
; could disagree about its space.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @gather(ptr addrspace(1) %dst, ptr %table, i64 %n) {
  %src = load ptr, ptr %table, align 8
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 4 %dst, ptr align 4 %src, i64 %n, i1 false)
  ret void
}

declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)

; CHECK-LABEL: define ptx_kernel void @gather(
; CHECK:         %src = load ptr, ptr {{%.*}}, align 8
; CHECK-NEXT:    [[LF:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LF]], i64 %atoll.arena.window)
; CHECK-NEXT:    [[PF:%atoll.ptr.fr[0-9]*]] = freeze ptr %src
; CHECK-NEXT:    [[W:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF]])
; CHECK-NEXT:    [[WIN:%atoll.window]] = select i1 [[W]], i64 %atoll.smem.bytes, i64 %atoll.arena.window
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 [[WIN]])
; CHECK-NOT:     freeze ptr
; CHECK:         call i1 @llvm.nvvm.isspacep.shared(ptr [[PF]])
; CHECK-NEXT:    addrspacecast ptr [[PF]] to ptr addrspace(3)
; CHECK-NOT:     freeze ptr
; CHECK:         ptrtoint ptr [[PF]] to i64
; CHECK-NOT:     freeze ptr
; CHECK:         call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 4 {{%.*}}, ptr align 4 %atoll.generic, i64 [[L]], i1 false)
