; memcpy/memset touching shared memory: a run-time length is cut to the smallest
; window involved (the static object's size, the shared window's bytes, the arena),
; then each pointer is confined for that length.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x i8] undef, align 16
@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @stage(ptr %src, i64 %off, i64 %n) {
  %d = getelementptr i8, ptr addrspace(3) @tile, i64 %off
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 4 %d, ptr align 4 %src, i64 %n, i1 false)
  %w = getelementptr i8, ptr addrspace(3) @dyn, i64 %off
  call void @llvm.memset.p3.i64(ptr addrspace(3) align 1 %w, i8 0, i64 %n, i1 false)
  call void @llvm.memset.p3.i64(ptr addrspace(3) align 16 @tile, i8 7, i64 300, i1 false)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @stage(
; CHECK:       atoll.body:
; memcpy into @tile (128 bytes) from the arena: len = umin(umin(n, 128), window).
; CHECK-NEXT:    %d = getelementptr i8, ptr addrspace(3) @tile, i64 [[OFF:%[^ ]+]]
; CHECK-NEXT:    [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 128)
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; CHECK-NEXT:    [[LIM0:%.*]] = sub i64 128, [[L]]
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[Q0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[LT0:%.*]] = trunc i64 [[LIM0]] to i32
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[Q0]], i32 [[LT0]])
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[D:%.*]] = getelementptr i8, ptr addrspace(3) @tile, i64 [[Z0]]
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr %src to i64
; CHECK-NEXT:    [[R1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[R1]]
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[R1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[S1:%.*]] = sub i64 %atoll.arena.window, [[L]]
; CHECK-NEXT:    [[AL1:%.*]] = and i64 [[S1]], -4
; CHECK-NEXT:    [[LIM1:%.*]] = trunc i64 [[AL1]] to i32
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIM1]])
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[C1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    [[S:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; CHECK-NEXT:    call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 4 [[D]], ptr align 4 [[S]], i64 [[L]], i1 false)
; memset into the dynamic window: len = umin(n, bytes), limit bytes - len.
; CHECK-NEXT:    %w = getelementptr i8, ptr addrspace(3) @dyn, i64 [[OFF]]
; CHECK-NEXT:    [[LF0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L2:%.*]] = call i64 @llvm.umin.i64(i64 [[LF0]], i64 %atoll.smem.bytes)
; CHECK-NEXT:    [[R2:%.*]] = ptrtoint ptr addrspace(3) %w to i64
; CHECK-NEXT:    [[LIM2:%.*]] = sub i64 %atoll.smem.bytes, [[L2]]
; CHECK-NEXT:    [[R2F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R2]]
; CHECK-NEXT:    [[O2:%.*]] = sub i64 [[R2F]], %atoll.smem.lo
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[LT2:%.*]] = trunc i64 [[LIM2]] to i32
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[T2]], i32 [[LT2]])
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[C2]] to i64
; CHECK-NEXT:    [[W2:%.*]] = add i64 %atoll.smem.lo, [[Z2]]
; CHECK-NEXT:    [[P2:%.*]] = inttoptr i64 [[W2]] to ptr addrspace(3)
; CHECK-NEXT:    call void @llvm.memset.p3.i64(ptr addrspace(3) align 1 [[P2]], i8 0, i64 [[L2]], i1 false)
; A constant 300 bytes into the 128-byte @tile: cut to 128 (no overflow past it).
; CHECK-NEXT:    [[L3:%.*]] = call i64 @llvm.umin.i64(i64 300, i64 128)
; CHECK:         call void @llvm.memset.p3.i64(ptr addrspace(3) align 16 {{%.*}}, i8 7, i64 [[L3]], i1 false)
