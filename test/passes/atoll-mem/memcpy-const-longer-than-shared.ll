; A constant memcpy length longer than the static __shared__ object it writes
; (64 bytes into 32), but short enough for every window (<= 256 bytes): the
; length is cut to the object first (AccessSite::CutLength), so the object
; clamp's limit (32 - length) cannot wrap around to let the copy run past it.
; (A local, constant or param object is refused instead: local-refusals.ll.)
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @fill(ptr %src, i64 %i) {
  %d = getelementptr i32, ptr addrspace(3) @buf, i64 %i
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 4 %d, ptr align 4 %src, i64 64, i1 false)
  ret void
}

declare void @llvm.memcpy.p3.p0.i64(ptr addrspace(3), ptr, i64, i1)

; CHECK-LABEL: define ptx_kernel void @fill(
; CHECK:         [[L0:%atoll.len]] = call i64 @llvm.umin.i64(i64 64, i64 32)
; CHECK-NEXT:    [[L1:%atoll.len[0-9]+]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; CHECK:         [[LIM:%atoll.obj.lim]] = sub i64 32, [[L1]]
; CHECK:         [[T:%.*]] = trunc i64 [[LIM]] to i32
; CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 %atoll.opaque, i32 [[T]])
; CHECK-NOT:     i32 -32
; CHECK:         call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 4 %atoll.obj.addr, ptr align 4 {{%.*}}, i64 [[L1]], i1 false)
