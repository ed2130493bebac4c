; llvm.memmove and llvm.memset on global memory, run-time and constant lengths.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @move(ptr %buf, i64 %from, i64 %n) {
  %src = getelementptr i8, ptr %buf, i64 %from
  call void @llvm.memmove.p0.p0.i64(ptr align 2 %buf, ptr align 2 %src, i64 %n, i1 false)
  ret void
}

define ptx_kernel void @fill(ptr addrspace(1) %buf, i8 %v, i64 %n) {
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 %buf, i8 %v, i64 %n, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 %buf, i8 0, i64 24, i1 true)
  ret void
}

; MASK-LABEL: define ptx_kernel void @move(
; MASK:         %src = getelementptr i8, ptr %buf, i64 %from
; MASK-NEXT:    [[LF0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MASK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LF0]], i64 %atoll.arena.window)
; MASK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %buf to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a2
; MASK-NEXT:    [[S0:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[LIM0:%.*]] = and i64 [[S0]], -2
; MASK-NEXT:    [[LIM032:%.*]] = trunc i64 [[LIM0]] to i32
; MASK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIM032]])
; MASK-NEXT:    [[ZC0:%.*]] = zext i32 [[C0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZC0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[D:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr %src to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a2
; MASK-NEXT:    [[S1:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[LIM1:%.*]] = and i64 [[S1]], -2
; MASK-NEXT:    [[LIM132:%.*]] = trunc i64 [[LIM1]] to i32
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIM132]])
; MASK-NEXT:    [[ZC1:%.*]] = zext i32 [[C1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZC1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    [[S:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; MASK-NEXT:    call void @llvm.memmove.p0.p0.i64(ptr align 2 [[D]], ptr align 2 [[S]], i64 [[L]], i1 false)

; MASK-LABEL: define ptx_kernel void @fill(
; MASK:         [[S24:%.*]] = sub i64 %atoll.arena.window, 24
; MASK-NEXT:    [[AL24:%.*]] = and i64 [[S24]], -8
; MASK-NEXT:    [[LIM24:%.*]] = trunc i64 [[AL24]] to i32
; MASK:       atoll.body:
; MASK-NEXT:    [[LF1:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MASK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[LF1]], i64 %atoll.arena.window)
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr addrspace(1) %buf to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a8
; MASK-NEXT:    [[S0:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[LIM0:%.*]] = and i64 [[S0]], -8
; MASK-NEXT:    [[LIM032:%.*]] = trunc i64 [[LIM0]] to i32
; MASK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIM032]])
; MASK-NEXT:    [[ZC0:%.*]] = zext i32 [[C0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZC0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 [[G0]], i8 %v, i64 [[L]], i1 false)
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %buf to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a8
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIM24]])
; MASK-NEXT:    [[ZC1:%.*]] = zext i32 [[C1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZC1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 [[G1]], i8 0, i64 24, i1 true)

; MOD-LABEL: define ptx_kernel void @move(
; MOD:         [[L:%.*]] = call i64 @llvm.umin.i64(i64 %atoll.len, i64 %__atoll_arena_size)
; MOD:         [[LIM0:%.*]] = sub i64 %__atoll_arena_size, [[L]]
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 {{%.*}}, i64 [[LIM0]])
; MOD-NEXT:    and i64 [[C0]], -2
; MOD:         call void @llvm.memmove.p0.p0.i64(ptr align 2 {{%.*}}, ptr align 2 {{%.*}}, i64 [[L]], i1 false)
; MOD-LABEL: define ptx_kernel void @fill(
; MOD:         [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MOD-NEXT:         [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 %__atoll_arena_size)
; MOD:         [[LIM0:%.*]] = sub i64 %__atoll_arena_size, [[L]]
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 {{%.*}}, i64 [[LIM0]])
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -8
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 [[G0]], i8 %v, i64 [[L]], i1 false)
; MOD:         call void @llvm.memset.p1.i64(ptr addrspace(1) align 8 {{%.*}}, i8 0, i64 24, i1 true)
