; A constant memset length longer than the static __shared__ object, through a
; generic pointer (addrspacecast of the object): the origin is still the object,
; and the length (48) is cut to the object's 16 bytes before its clamp, whose
; limit (16 - length) would otherwise wrap and let the memset run past it.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@flags = internal addrspace(3) global [4 x i32] undef, align 4

define ptx_kernel void @clear(i64 %i) {
  %g = addrspacecast ptr addrspace(3) @flags to ptr
  %p = getelementptr i32, ptr %g, i64 %i
  call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 48, i1 false)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define ptx_kernel void @clear(
; CHECK:         [[L:%atoll.len]] = call i64 @llvm.umin.i64(i64 48, i64 16)
; CHECK:         [[LIM:%atoll.obj.lim]] = sub i64 16, [[L]]
; CHECK:         [[T:%.*]] = trunc i64 [[LIM]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 %atoll.opaque, i32 [[T]])
; CHECK:         call void @llvm.memset.p0.i64(ptr align 4 {{%.*}}, i8 0, i64 [[L]], i1 false)
