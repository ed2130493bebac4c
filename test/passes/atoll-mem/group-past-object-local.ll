; A group shares one clamp of Base only while every member Base + C + S lies in
; the object (group-constant-offsets.ll): a member that reaches past it (here
; Base + 64 into a 64-byte stack array) would make the group's limit
; (64 - max(C + S)) wrap, and the whole group unconfined. That member is clamped
; on its own (limit 60) and the others keep their group (limit 64 - 64 = 0).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(i32 %i, ptr %out) {
  %a = alloca [16 x i32], align 4
  %b = getelementptr i32, ptr %a, i32 %i
  %p1 = getelementptr i8, ptr %b, i64 60
  %p2 = getelementptr i8, ptr %b, i64 64
  store i32 1, ptr %b, align 4
  store i32 2, ptr %p1, align 4
  store i32 3, ptr %p2, align 4
  %v = load i32, ptr %a, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         call i32 @llvm.umin.i32(i32 %atoll.opaque, i32 0)
; CHECK:         [[BASE:%atoll.obj.addr]] = getelementptr i8, ptr %a, i64
; CHECK-NEXT:    %atoll.grp.addr = getelementptr i8, ptr [[BASE]], i64 0
; CHECK-NEXT:    store i32 1, ptr %atoll.grp.addr, align 4
; CHECK-NEXT:    %atoll.grp.addr1 = getelementptr i8, ptr [[BASE]], i64 60
; CHECK-NEXT:    store i32 2, ptr %atoll.grp.addr1, align 4
; CHECK-NOT:     getelementptr i8, ptr [[BASE]], i64 64
; CHECK:         [[OFF:%atoll.obj.off[0-9]+]] = add i64 64,
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[O:%atoll.opaque[0-9]+]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[O]], i32 60)
; CHECK:         [[A2:%atoll.obj.addr[0-9]+]] = getelementptr i8, ptr %a, i64
; CHECK-NEXT:    store i32 3, ptr [[A2]], align 4
; CHECK-NOT:     i32 -4)
