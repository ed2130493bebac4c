; A memset through a pointer of unknown space (a phi of a shared and a loaded
; pointer) with a constant length longer than 256 bytes (cut to the window of the
; space it is in at run time): the window test and the space test of its
; confinement read one frozen pointer (R2-F5). Two freezes of an undefined
; pointer may disagree: the length cut to the arena window, the address confined
; to the shared window, whose limit (shared bytes - length) then wraps.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [64 x i8] undef, align 4

define ptx_kernel void @clear(ptr %table, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %l = load ptr, ptr %table, align 8
  br label %join
b:
  br label %join
join:
  %p = phi ptr [ %l, %a ], [ addrspacecast (ptr addrspace(3) @buf to ptr), %b ]
  call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 4096, i1 false)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define ptx_kernel void @clear(
; CHECK:       join:
; CHECK:         [[PF:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[W:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF]])
; CHECK-NEXT:    [[WIN:%atoll.window]] = select i1 [[W]], i64 %atoll.smem.bytes, i64 %atoll.arena.window
; CHECK-NEXT:    [[L:%atoll.len[0-9]*]] = call i64 @llvm.umin.i64(i64 4096, i64 [[WIN]])
; CHECK-NOT:     freeze ptr
; CHECK:         call i1 @llvm.nvvm.isspacep.shared(ptr [[PF]])
; CHECK-NEXT:    addrspacecast ptr [[PF]] to ptr addrspace(3)
; CHECK-NOT:     freeze ptr
; CHECK:         ptrtoint ptr [[PF]] to i64
; CHECK-NOT:     freeze ptr
; CHECK:         call void @llvm.memset.p0.i64(ptr align 4 %atoll.generic, i8 0, i64 [[L]], i1 false)
