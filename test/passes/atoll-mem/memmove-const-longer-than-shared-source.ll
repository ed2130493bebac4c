; A constant memmove length between two static __shared__ objects of different
; sizes, longer than the smaller one (32 bytes, the source holds 16): the length
; is cut to each object in turn (64, then 16), so neither object clamp's limit
; (size - length) wraps; the source is not read past its end.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@big = internal addrspace(3) global [16 x i32] undef, align 4
@small = internal addrspace(3) global [4 x i32] undef, align 4

define ptx_kernel void @shift(i64 %i, i64 %j) {
  %d = getelementptr i32, ptr addrspace(3) @big, i64 %i
  %s = getelementptr i32, ptr addrspace(3) @small, i64 %j
  call void @llvm.memmove.p3.p3.i64(ptr addrspace(3) align 4 %d, ptr addrspace(3) align 4 %s, i64 32, i1 false)
  ret void
}

declare void @llvm.memmove.p3.p3.i64(ptr addrspace(3), ptr addrspace(3), i64, i1)

; CHECK-LABEL: define ptx_kernel void @shift(
; CHECK:         [[L0:%atoll.len]] = call i64 @llvm.umin.i64(i64 32, i64 64)
; CHECK-NEXT:    [[L1:%atoll.len[0-9]+]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 16)
; CHECK:         [[LIMD:%atoll.obj.lim]] = sub i64 64, [[L1]]
; CHECK:         [[TD:%.*]] = trunc i64 [[LIMD]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 %atoll.opaque, i32 [[TD]])
; CHECK:         [[LIMS:%atoll.obj.lim[0-9]+]] = sub i64 16, [[L1]]
; CHECK:         [[TS:%.*]] = trunc i64 [[LIMS]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 %atoll.opaque{{[0-9]+}}, i32 [[TS]])
; CHECK:         call void @llvm.memmove.p3.p3.i64(ptr addrspace(3) align 4 %atoll.obj.addr, ptr addrspace(3) align 4 %atoll.obj.addr{{[0-9]+}}, i64 [[L1]], i1 false)
