; Every static stack object is zeroed at kernel entry (a memset of its full size
; at its alignment), before the tenant's first instruction: an uninitialised
; stack array never shows an earlier kernel's values. Zero-sized ones need none.
; Even an alloca that no access reaches is zeroed.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.P = type { double, i8, [3 x i16] }

define ptx_kernel void @frames(ptr %out, i64 %i) {
  %a = alloca [10 x float], align 4
  %b = alloca %struct.P, align 8
  %c = alloca i32, i32 6, align 16
  %d = alloca [0 x i8], align 1
  %e = alloca <4 x i64>, align 32
  %pa = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %pa, align 4
  store float %v, ptr %out, align 4
  call void @sink(ptr %b, ptr %c, ptr %d, ptr %e)
  ret void
}

define internal void @sink(ptr %b, ptr %c, ptr %d, ptr %e) {
  ret void
}

; CHECK-LABEL: define ptx_kernel void @frames(
; CHECK-NEXT:    %a = alloca [10 x float], align 4
; CHECK-NEXT:    %b = alloca %struct.P, align 8
; CHECK-NEXT:    %c = alloca i32, i32 6, align 16
; CHECK-NEXT:    %d = alloca [0 x i8], align 1
; CHECK-NEXT:    %e = alloca <4 x i64>, align 32
; CHECK-NEXT:    [[SM1:%.*]] = sub i64 %__atoll_arena_size, 1
; CHECK-NEXT:    %atoll.arena.mask = call i64 @llvm.umin.i64(i64 [[SM1]], i64 4294967295)
; CHECK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; CHECK-NEXT:    %atoll.arena.base = and i64 %__atoll_arena_base, -2097152
; CHECK-NEXT:    %atoll.arena.mask32 = trunc i64 %atoll.arena.mask to i32
; CHECK-NEXT:    %atoll.arena.mask.a4 = and i32 %atoll.arena.mask32, -4
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 40, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 %b, i8 0, i64 16, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 16 %c, i8 0, i64 24, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 32 %e, i8 0, i64 32, i1 false)
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; The zeroing is the only memset: the tenant's code follows.
; CHECK-NOT:     memset
; CHECK:         ret void
