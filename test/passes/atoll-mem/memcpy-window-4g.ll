; Mask mode: a run-time memcpy/memset length is cut to the arena *window*
; (%atoll.arena.window = min(size, 4 GiB)), not to the raw arena size. The 32-bit
; clamp of each pointer, umin(off, trunc32(window - len)), needs len <= window:
; with len cut only to a (larger than 4 GiB) size, window - len would wrap and the
; copy could run past the 4 GiB the offsets can address. Modulo mode has no
; 4 GiB window and keeps cutting to the size.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @bulk(ptr addrspace(1) %dst, ptr addrspace(1) %src, i64 %n, i8 %v) {
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 %dst, ptr addrspace(1) align 4 %src, i64 %n, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 1 %src, i8 %v, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @bulk(
; CHECK:         %atoll.arena.mask = call i64 @llvm.umin.i64(i64 {{%.*}}, i64 4294967295)
; CHECK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; CHECK:       atoll.body:
; No length (or limit) is computed from the raw size.
; CHECK-NOT:     %__atoll_arena_size
; memcpy: the length is cut to the window (for each pointer), then each pointer
; is clamped to trunc32((window - len) & -4).
; CHECK-NEXT:    [[LF0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LF0]], i64 %atoll.arena.window)
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; CHECK-NOT:     %__atoll_arena_size
; CHECK:         [[D:%.*]] = sub i64 %atoll.arena.window, [[L]]
; CHECK-NEXT:    [[DA:%.*]] = and i64 [[D]], -4
; CHECK-NEXT:    [[DL:%.*]] = trunc i64 [[DA]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[DL]])
; CHECK-NOT:     %__atoll_arena_size
; CHECK:         [[S:%.*]] = sub i64 %atoll.arena.window, [[L]]
; CHECK-NEXT:    [[SA:%.*]] = and i64 [[S]], -4
; CHECK-NEXT:    [[SL:%.*]] = trunc i64 [[SA]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[SL]])
; CHECK-NOT:     %__atoll_arena_size
; CHECK:         call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 {{%.*}}, ptr addrspace(1) align 4 {{%.*}}, i64 [[L]], i1 false)
; memset: the same cut.
; CHECK-NEXT:    [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[M:%.*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 %atoll.arena.window)
; CHECK-NOT:     %__atoll_arena_size
; CHECK:         [[MS:%.*]] = sub i64 %atoll.arena.window, [[M]]
; CHECK-NEXT:    [[ML:%.*]] = trunc i64 [[MS]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[ML]])
; CHECK-NOT:     %__atoll_arena_size
; CHECK:         call void @llvm.memset.p1.i64(ptr addrspace(1) align 1 {{%.*}}, i8 %v, i64 [[M]], i1 false)
; CHECK-NEXT:    ret void

; MOD-LABEL: define ptx_kernel void @bulk(
; MOD-NOT:     %atoll.arena.window
; MOD:         [[LG1:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MOD-NEXT:         [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LG1]], i64 %__atoll_arena_size)
; MOD-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %__atoll_arena_size)
; MOD:         sub i64 %__atoll_arena_size, [[L]]
; MOD:         call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 {{%.*}}, ptr addrspace(1) align 4 {{%.*}}, i64 [[L]], i1 false)
; MOD-NEXT:    [[LG2:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MOD-NEXT:    [[M:%.*]] = call i64 @llvm.umin.i64(i64 [[LG2]], i64 %__atoll_arena_size)
; MOD:         call void @llvm.memset.p1.i64(ptr addrspace(1) align 1 {{%.*}}, i8 %v, i64 [[M]], i1 false)
; MOD-NOT:     %atoll.arena.window
