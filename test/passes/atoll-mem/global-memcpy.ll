; llvm.memcpy between global buffers. A run-time length is first cut to the arena
; window (umin with min(size, 4 GiB) in mask mode, size in modulo mode), and both
; pointers are clamped so that [p, p + len) stays in the arena; a constant length
; of at most 256 bytes (which every window holds) stays a constant, a longer one
; is cut like a run-time length.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @runtime_len(ptr %dst, ptr addrspace(1) %src, i64 %n) {
  call void @llvm.memcpy.p0.p1.i64(ptr align 4 %dst, ptr addrspace(1) align 8 %src, i64 %n, i1 false)
  ret void
}

define ptx_kernel void @len32(ptr %dst, ptr %src, i32 %n) {
  call void @llvm.memcpy.p0.p0.i32(ptr align 1 %dst, ptr align 1 %src, i32 %n, i1 false)
  ret void
}

define ptx_kernel void @const_small(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 64, i1 false)
  ret void
}

define ptx_kernel void @const_huge(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 8388608, i1 false)
  ret void
}

; MASK-LABEL: define ptx_kernel void @runtime_len(
; MASK:         [[LF0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MASK-NEXT:         [[L0:%atoll.len]] = call i64 @llvm.umin.i64(i64 [[LF0]], i64 %atoll.arena.window)
; MASK-NEXT:    [[L:%atoll.len1]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %dst to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[T0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[T0]], %atoll.arena.mask.a4
; MASK-NEXT:    [[S0:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[AL0:%.*]] = and i64 [[S0]], -4
; MASK-NEXT:    [[LIM0:%.*]] = trunc i64 [[AL0]] to i32
; MASK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIM0]])
; MASK-NEXT:    [[Z0:%.*]] = zext i32 [[C0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[Z0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[D:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %src to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[T1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a8
; MASK-NEXT:    [[S1:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[AL1:%.*]] = and i64 [[S1]], -8
; MASK-NEXT:    [[LIM1:%.*]] = trunc i64 [[AL1]] to i32
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIM1]])
; MASK-NEXT:    [[Z1:%.*]] = zext i32 [[C1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; MASK-NEXT:    [[S:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    call void @llvm.memcpy.p0.p1.i64(ptr align 4 [[D]], ptr addrspace(1) align 8 [[S]], i64 [[L]], i1 false)

; An i32 length is widened, cut, and narrowed back.
; MASK-LABEL: define ptx_kernel void @len32(
; MASK:         [[W:%.*]] = zext i32 %n to i64
; MASK-NEXT:    [[LF1:%atoll.len.fr[0-9]*]] = freeze i64 [[W]]
; MASK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LF1]], i64 %atoll.arena.window)
; MASK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; MASK-NEXT:    [[N:%.*]] = trunc i64 [[L]] to i32
; MASK:         [[LIM:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[LIM32:%.*]] = trunc i64 [[LIM]] to i32
; MASK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[LIM32]])
; MASK:         call void @llvm.memcpy.p0.p0.i32(ptr align 1 {{%.*}}, ptr align 1 {{%.*}}, i32 [[N]], i1 false)

; 64 constant bytes: the length stays 64 (an unrolled copy), the limit is window - 64.
; MASK-LABEL: define ptx_kernel void @const_small(
; MASK:         [[S0:%.*]] = sub i64 %atoll.arena.window, 64
; MASK-NEXT:    [[AL0:%atoll.align]] = and i64 [[S0]], -16
; MASK-NEXT:    [[LIM0:%.*]] = trunc i64 [[AL0]] to i32
; MASK:         [[O0:%.*]] = and i32 {{%.*}}, %atoll.arena.mask.a16
; MASK-NEXT:    call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIM0]])
; MASK:         call void @llvm.memcpy.p0.p0.i64(ptr align 16 {{%.*}}, ptr align 16 {{%.*}}, i64 64, i1 false)

; 8 MiB constant bytes (more than the smallest arena): cut at run time.
; MASK-LABEL: define ptx_kernel void @const_huge(
; MASK:         [[L0:%.*]] = call i64 @llvm.umin.i64(i64 8388608, i64 %atoll.arena.window)
; MASK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; MASK:         sub i64 %atoll.arena.window, [[L]]
; MASK:         call void @llvm.memcpy.p0.p0.i64(ptr align 4 {{%.*}}, ptr align 4 {{%.*}}, i64 [[L]], i1 false)

; MOD-LABEL: define ptx_kernel void @runtime_len(
; MOD:         [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; MOD-NEXT:         [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 %__atoll_arena_size)
; MOD-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %__atoll_arena_size)
; MOD-NEXT:    [[P0:%.*]] = ptrtoint ptr %dst to i64
; MOD-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MOD-NEXT:    [[R0:%atoll.rel[0-9]*]] = sub i64 [[P0F]], %__atoll_arena_base
; MOD-NEXT:    [[W0:%atoll.wild[0-9]*]] = icmp uge i64 [[R0]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W0]], label %[[WRAP0:atoll.wrap[0-9]*]], label %[[TAIL0:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP0]]:
; MOD-NEXT:    [[U0:%atoll.wrapped[0-9]*]] = urem i64 [[R0]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL0]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL0]]:
; MOD-NEXT:    [[M0:%atoll.off[0-9]*]] = phi i64 [ [[R0]], %atoll.body ], [ [[U0]], %[[WRAP0]] ]
; MOD-NEXT:    [[LIM0:%.*]] = sub i64 %__atoll_arena_size, [[L]]
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 [[LIM0]])
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    [[D:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MOD-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %src to i64
; MOD-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MOD-NEXT:    [[R1:%atoll.rel[0-9]*]] = sub i64 [[P1F]], %__atoll_arena_base
; MOD-NEXT:    [[W1:%atoll.wild[0-9]*]] = icmp uge i64 [[R1]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W1]], label %[[WRAP1:atoll.wrap[0-9]*]], label %[[TAIL1:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP1]]:
; MOD-NEXT:    [[U1:%atoll.wrapped[0-9]*]] = urem i64 [[R1]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL1]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL1]]:
; MOD-NEXT:    [[M1:%atoll.off[0-9]*]] = phi i64 [ [[R1]], %[[TAIL0]] ], [ [[U1]], %[[WRAP1]] ]
; MOD-NEXT:    [[LIM1:%.*]] = sub i64 %__atoll_arena_size, [[L]]
; MOD-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[M1]], i64 [[LIM1]])
; MOD-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; MOD-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; MOD-NEXT:    [[S:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MOD-NEXT:    call void @llvm.memcpy.p0.p1.i64(ptr align 4 [[D]], ptr addrspace(1) align 8 [[S]], i64 [[L]], i1 false)
; MOD-LABEL: define ptx_kernel void @const_small(
; MOD-NEXT:    %atoll.lim = sub i64 %__atoll_arena_size, 64
; MOD:         call void @llvm.memcpy.p0.p0.i64(ptr align 16 {{%.*}}, ptr align 16 {{%.*}}, i64 64, i1 false)
; MOD-LABEL: define ptx_kernel void @const_huge(
; MOD:         [[L0:%.*]] = call i64 @llvm.umin.i64(i64 8388608, i64 %__atoll_arena_size)
; MOD:         call void @llvm.memcpy.p0.p0.i64(ptr align 4 {{%.*}}, ptr align 4 {{%.*}}, i64 {{%.*}}, i1 false)
