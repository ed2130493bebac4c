; Vector and wide accesses: the alignment the instruction declares decides the mask,
; and an access wider than its alignment is additionally clamped (umin) so that its
; last byte stays inside the arena; align 16 <4 x float> needs no clamp.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; The entry checks (R6-F3) are tested in preempt-entry-drain.ll; here the PTX is
; checked without them so that the access sequence stays contiguous.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=16384 %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @vec(ptr %p, ptr %q, i64 %i) {
  %a = getelementptr <4 x float>, ptr %p, i64 %i
  %v16 = load <4 x float>, ptr %a, align 16
  %b = getelementptr float, ptr %q, i64 %i
  %v4 = load <4 x float>, ptr %b, align 4
  %s = fadd <4 x float> %v16, %v4
  %c = getelementptr i8, ptr %q, i64 %i
  store <4 x float> %s, ptr %c, align 1
  %d = getelementptr i8, ptr %p, i64 %i
  store <2 x double> zeroinitializer, ptr %d, align 8
  ret void
}

; The entry block computes, per alignment, the masked 32-bit mask and, per access
; wider than its alignment, the limit trunc32((window - S) & ~(A-1)).
; MASK-LABEL: define ptx_kernel void @vec(
; MASK-NEXT:    [[SM1:%.*]] = sub i64 %__atoll_arena_size, 1
; MASK-NEXT:    %atoll.arena.mask = call i64 @llvm.umin.i64(i64 [[SM1]], i64 4294967295)
; MASK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; MASK-NEXT:    %atoll.arena.base = and i64 %__atoll_arena_base, -2097152
; MASK-NEXT:    %atoll.arena.mask32 = trunc i64 %atoll.arena.mask to i32
; MASK-NEXT:    %atoll.arena.mask.a16 = and i32 %atoll.arena.mask32, -16
; MASK-NEXT:    %atoll.arena.mask.a4 = and i32 %atoll.arena.mask32, -4
; MASK-NEXT:    [[S4:%.*]] = sub i64 %atoll.arena.window, 16
; MASK-NEXT:    [[AL4:%.*]] = and i64 [[S4]], -4
; MASK-NEXT:    [[LIM4:%.*]] = trunc i64 [[AL4]] to i32
; MASK-NEXT:    [[S1:%.*]] = sub i64 %atoll.arena.window, 16
; MASK-NEXT:    [[LIM1:%.*]] = trunc i64 [[S1]] to i32
; MASK-NEXT:    %atoll.arena.mask.a8 = and i32 %atoll.arena.mask32, -8
; MASK-NEXT:    [[S8:%.*]] = sub i64 %atoll.arena.window, 16
; MASK-NEXT:    [[AL8:%.*]] = and i64 [[S8]], -8
; MASK-NEXT:    [[LIM8:%.*]] = trunc i64 [[AL8]] to i32
; MASK-NEXT:    br label %atoll.body
; align 16, 16 bytes: mask only.
; MASK:         [[P0:%.*]] = ptrtoint ptr %a to i64
; MASK-NEXT:         [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[T0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[T0]], %atoll.arena.mask.a16
; MASK-NEXT:    [[Z0:%.*]] = zext i32 [[O0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[Z0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    %v16 = load <4 x float>, ptr [[X0]], align 16
; align 4, 16 bytes: mask, then umin with (window - 16) & -4.
; MASK:         [[P1:%.*]] = ptrtoint ptr %b to i64
; MASK-NEXT:         [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[T1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a4
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIM4]])
; MASK-NEXT:    [[Z1:%.*]] = zext i32 [[C1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    [[X1:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; MASK-NEXT:    %v4 = load <4 x float>, ptr [[X1]], align 4
; align 1: the plain mask (no low bits cleared), then umin with window - 16.
; MASK:         [[P2:%.*]] = ptrtoint ptr %c to i64
; MASK-NEXT:         [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; MASK-NEXT:    [[T2:%.*]] = trunc i64 [[P2F]] to i32
; MASK-NEXT:    [[O2:%.*]] = and i32 [[T2]], %atoll.arena.mask32{{$}}
; MASK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[O2]], i32 [[LIM1]])
; MASK-NEXT:    [[Z2:%.*]] = zext i32 [[C2]] to i64
; MASK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[Z2]]
; MASK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; MASK-NEXT:    [[X2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; MASK-NEXT:    store <4 x float> %s, ptr [[X2]], align 1
; align 8, 16 bytes.
; MASK:         [[P3:%.*]] = ptrtoint ptr %d to i64
; MASK-NEXT:         [[P3F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P3]]
; MASK-NEXT:    [[T3:%.*]] = trunc i64 [[P3F]] to i32
; MASK-NEXT:    [[O3:%.*]] = and i32 [[T3]], %atoll.arena.mask.a8
; MASK-NEXT:    [[C3:%.*]] = call i32 @llvm.umin.i32(i32 [[O3]], i32 [[LIM8]])
; MASK-NEXT:    [[Z3:%.*]] = zext i32 [[C3]] to i64
; MASK-NEXT:    [[A3:%.*]] = or i64 %atoll.arena.base, [[Z3]]
; MASK-NEXT:    [[G3:%.*]] = inttoptr i64 [[A3]] to ptr addrspace(1)
; MASK-NEXT:    [[X3:%.*]] = addrspacecast ptr addrspace(1) [[G3]] to ptr
; MASK-NEXT:    store <2 x double> zeroinitializer, ptr [[X3]], align 8

; Modulo: limit size - 16 for every 16-byte access, low bits cleared per alignment
; (none for align 1).
; MOD-LABEL: define ptx_kernel void @vec(
; MOD-NEXT:    [[LIM0:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 16
; MOD-NEXT:    [[LIM1:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 16
; MOD-NEXT:    [[LIM2:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 16
; MOD-NEXT:    [[LIM3:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 16
; MOD-NEXT:    br label %atoll.body
; MOD:         [[P0:%.*]] = ptrtoint ptr %a to i64
; MOD-NEXT:         [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
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
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 [[LIM0]])
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -16
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD:         %v16 = load <4 x float>
; MOD:         [[P1:%.*]] = ptrtoint ptr %b to i64
; MOD-NEXT:         [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
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
; MOD-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[M1]], i64 [[LIM1]])
; MOD-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -4
; MOD-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; MOD:         %v4 = load <4 x float>
; MOD:         [[P2:%.*]] = ptrtoint ptr %c to i64
; MOD-NEXT:         [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; MOD-NEXT:    [[R2:%atoll.rel[0-9]*]] = sub i64 [[P2F]], %__atoll_arena_base
; MOD-NEXT:    [[W2:%atoll.wild[0-9]*]] = icmp uge i64 [[R2]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W2]], label %[[WRAP2:atoll.wrap[0-9]*]], label %[[TAIL2:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP2]]:
; MOD-NEXT:    [[U2:%atoll.wrapped[0-9]*]] = urem i64 [[R2]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL2]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL2]]:
; MOD-NEXT:    [[M2:%atoll.off[0-9]*]] = phi i64 [ [[R2]], %[[TAIL1]] ], [ [[U2]], %[[WRAP2]] ]
; MOD-NEXT:    [[C2:%.*]] = call i64 @llvm.umin.i64(i64 [[M2]], i64 [[LIM2]])
; MOD-NEXT:    [[A2:%.*]] = add i64 %__atoll_arena_base, [[C2]]
; MOD:         store <4 x float> %s
; MOD:         [[P3:%.*]] = ptrtoint ptr %d to i64
; MOD-NEXT:         [[P3F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P3]]
; MOD-NEXT:    [[R3:%atoll.rel[0-9]*]] = sub i64 [[P3F]], %__atoll_arena_base
; MOD-NEXT:    [[W3:%atoll.wild[0-9]*]] = icmp uge i64 [[R3]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W3]], label %[[WRAP3:atoll.wrap[0-9]*]], label %[[TAIL3:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP3]]:
; MOD-NEXT:    [[U3:%atoll.wrapped[0-9]*]] = urem i64 [[R3]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL3]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL3]]:
; MOD-NEXT:    [[M3:%atoll.off[0-9]*]] = phi i64 [ [[R3]], %[[TAIL2]] ], [ [[U3]], %[[WRAP3]] ]
; MOD-NEXT:    [[C3:%.*]] = call i64 @llvm.umin.i64(i64 [[M3]], i64 [[LIM3]])
; MOD-NEXT:    [[AL3:%.*]] = and i64 [[C3]], -8
; MOD-NEXT:    [[A3:%.*]] = add i64 %__atoll_arena_base, [[AL3]]
; MOD:         store <2 x double> zeroinitializer

; The align-16 vector load stays one ld.global.v4; the under-aligned ones are split
; by the backend but all their bytes come from the clamped base.
; PTX-LABEL: .entry vec(
; PTX:         or.b64 [[A0:%rd[0-9]+]],
; PTX-NEXT:    ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {{\[}}[[A0]]{{\]}};
; PTX:         min.u32 [[C1:%r[0-9]+]],
; PTX-NEXT:    cvt.u64.u32 [[Z1:%rd[0-9]+]], [[C1]];
; PTX-NEXT:    or.b64 [[A1:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z1]];
; PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A1]]+8{{\]}};
