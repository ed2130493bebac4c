; Global accesses p + C share one arena clamp only while C + S fits the
; MaxGroupBytes (4096) that every arena holds: p + 4096 does not, so it is
; confined on its own and the pair keeps window - 8. Were it a member, the
; group's limit would be window - 4100, which wraps below zero in a 4 KiB arena.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %nodes, i64 %i, ptr %out) {
  %n = getelementptr [2 x i32], ptr %nodes, i64 %i
  %p1 = getelementptr i8, ptr %n, i64 4
  %p2 = getelementptr i8, ptr %n, i64 4096
  %a = load i32, ptr %n, align 4
  %b = load i32, ptr %p1, align 4
  %c = load i32, ptr %p2, align 4
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  store i32 %t, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         sub i64 %atoll.arena.window, 8
; CHECK-NOT:     4100
; CHECK:         %atoll.grp.addr = getelementptr i8, ptr [[G:%[0-9]+]], i64 0
; CHECK-NEXT:    %a = load i32, ptr %atoll.grp.addr, align 4
; CHECK-NEXT:    %atoll.grp.addr1 = getelementptr i8, ptr [[G]], i64 4
; CHECK-NEXT:    %b = load i32, ptr %atoll.grp.addr1, align 4
; CHECK-NEXT:    [[P2:%.*]] = ptrtoint ptr %p2 to i64
; CHECK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[P2F]] to i32
; CHECK-NEXT:    and i32 [[T2]], %atoll.arena.mask.a4
; CHECK:         %c = load i32, ptr

; MOD-LABEL: define ptx_kernel void @k(
; MOD:         %atoll.lim = sub i64 %__atoll_arena_size, 8
; MOD-NEXT:    [[LIM4:%atoll.lim[0-9]+]] = sub i64 %__atoll_arena_size, 4
; MOD-NOT:     4100
; MOD:         call i64 @llvm.umin.i64(i64 %atoll.off, i64 %atoll.lim)
; MOD:         %b = load i32, ptr %atoll.grp.addr1, align 4
; MOD-NEXT:    [[P2:%.*]] = ptrtoint ptr %p2 to i64
; MOD:         call i64 @llvm.umin.i64(i64 %atoll.off{{[0-9]+}}, i64 [[LIM4]])
; MOD:         %c = load i32, ptr
