; ldu.global given the address of a byval kernel parameter (its local copy, or
; parameter space): confined to the arena, not to the parameter (64-bit ldu,
; alignment raised to its size).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr byval([4 x i64]) align 8 %s, i64 %i, ptr addrspace(1) %out) {
  %e = getelementptr i64, ptr %s, i64 %i
  %v = call i64 @llvm.nvvm.ldu.global.i.i64.p0(ptr %e, i32 1)
  store i64 %v, ptr addrspace(1) %out, align 8
  ret void
}

declare i64 @llvm.nvvm.ldu.global.i.i64.p0(ptr, i32)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %e = getelementptr i64, ptr %s, i64 %i
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr %e to i64
; CHECK-NEXT:    [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[PF]] to i32
; CHECK-NEXT:    [[O:%.*]] = and i32 [[T]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
; CHECK-NEXT:    [[A:%.*]] = or i64 %atoll.arena.base, [[Z]]
; CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK-NEXT:    %v = call i64 @llvm.nvvm.ldu.global.i.i64.p0(ptr [[X]], i32 1)
