; ldu.global given the address of a __constant__ object (generic): confined to
; the arena like any global address, not to the constant object (ldu.global on a
; constant-space address faults).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(4) constant [16 x i32] zeroinitializer, align 4

define ptx_kernel void @k(i64 %i, ptr addrspace(1) %out) {
  %c = getelementptr i32, ptr addrspace(4) @table, i64 %i
  %g = addrspacecast ptr addrspace(4) %c to ptr
  %v = call i32 @llvm.nvvm.ldu.global.i.i32.p0(ptr %g, i32 4)
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.nvvm.ldu.global.i.i32.p0(ptr, i32)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %g = addrspacecast ptr addrspace(4) %c to ptr
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr %g to i64
; CHECK-NEXT:    [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[PF]] to i32
; CHECK-NEXT:    [[O:%.*]] = and i32 [[T]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
; CHECK-NEXT:    [[A:%.*]] = or i64 %atoll.arena.base, [[Z]]
; CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK-NEXT:    %v = call i32 @llvm.nvvm.ldu.global.i.i32.p0(ptr [[X]], i32 4)
; CHECK-NOT:     @table
