; A memmove between two pointers of unknown space (loaded from memory, then
; selected): each operand's window test and its confinement read that
; operand's one frozen pointer (R2-F5); the length is cut to both windows.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shift(ptr %table, i1 %c, i32 %n) {
  %a = load ptr, ptr %table, align 8
  %t1 = getelementptr i8, ptr %table, i64 8
  %b = load ptr, ptr %t1, align 8
  %d = select i1 %c, ptr %a, ptr %b
  %s = select i1 %c, ptr %b, ptr %a
  call void @llvm.memmove.p0.p0.i32(ptr align 2 %d, ptr align 2 %s, i32 %n, i1 false)
  ret void
}

declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)

; CHECK-LABEL: define ptx_kernel void @shift(
; CHECK:         [[DF:%atoll.ptr.fr[0-9]*]] = freeze ptr %d
; CHECK-NEXT:    call i1 @llvm.nvvm.isspacep.shared(ptr [[DF]])
; CHECK:         [[SF:%atoll.ptr.fr[0-9]*]] = freeze ptr %s
; CHECK-NEXT:    call i1 @llvm.nvvm.isspacep.shared(ptr [[SF]])
; CHECK-NOT:     freeze ptr
; CHECK:         call i1 @llvm.nvvm.isspacep.shared(ptr [[DF]])
; CHECK-NEXT:    addrspacecast ptr [[DF]] to ptr addrspace(3)
; CHECK-NOT:     freeze ptr
; CHECK:         [[DG:%atoll.generic[0-9]*]] = select i1
; CHECK-NOT:     freeze ptr
; CHECK:         call i1 @llvm.nvvm.isspacep.shared(ptr [[SF]])
; CHECK-NEXT:    addrspacecast ptr [[SF]] to ptr addrspace(3)
; CHECK-NOT:     freeze ptr
; CHECK:         [[SG:%atoll.generic[0-9]*]] = select i1
; CHECK-NEXT:    call void @llvm.memmove.p0.p0.i32(ptr align 2 [[DG]], ptr align 2 [[SG]], i32 {{%.*}}, i1 false)
