; Mask mode computes arena offsets in 32 bits: mask-mode arenas are at most 4 GiB
; (ATOLL_MAX_MASK_ARENA_BYTES), so the entry block saturates the mask at 4 GiB - 1
; (a larger arena handed to a mask-mode kernel is used only up to its first 4 GiB),
; aligns the base down to the 2 MiB arena granularity, and each access becomes
;   base | zext(trunc32(addr) & mask_A)         (mask_A = mask32 & ~(A-1))
; with, for an access wider than its alignment, a 32-bit umin with
; trunc32((window - S) & ~(A-1)) before the zext. No 64-bit and of the address
; with the mask remains (one 32-bit LOP3 per access in SASS). Modulo mode keeps
; its 64-bit form (the urem behind a branch, for a wild address only).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX-MOD

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale(ptr addrspace(1) %in, ptr %out, i64 %i, float %s) {
  %src = getelementptr float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %src, align 4
  %w = fmul float %v, %s
  %dst = getelementptr float, ptr %out, i64 %i
  store float %w, ptr %dst, align 4
  %vsrc = getelementptr i8, ptr addrspace(1) %in, i64 %i
  %vv = load <4 x float>, ptr addrspace(1) %vsrc, align 4
  %vdst = getelementptr <4 x float>, ptr %out, i64 %i
  store <4 x float> %vv, ptr %vdst, align 16
  ret void
}

; Entry block: the mask saturated at 0xFFFFFFFF, the window (mask + 1), the
; 2 MiB-aligned base, the 32-bit mask and its per-alignment variants, and the
; 32-bit limit of the 16-byte align-4 load.
; CHECK-LABEL: define ptx_kernel void @scale(ptr addrspace(1) %in, ptr %out, i64 %i, float %s, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK-NEXT:    [[SM1:%.*]] = sub i64 %__atoll_arena_size, 1
; CHECK-NEXT:    %atoll.arena.mask = call i64 @llvm.umin.i64(i64 [[SM1]], i64 4294967295)
; CHECK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; CHECK-NEXT:    %atoll.arena.base = and i64 %__atoll_arena_base, -2097152
; CHECK-NEXT:    %atoll.arena.mask32 = trunc i64 %atoll.arena.mask to i32
; CHECK-NEXT:    %atoll.arena.mask.a4 = and i32 %atoll.arena.mask32, -4
; CHECK-NEXT:    [[S16:%.*]] = sub i64 %atoll.arena.window, 16
; CHECK-NEXT:    [[AL16:%.*]] = and i64 [[S16]], -4
; CHECK-NEXT:    [[LIM16:%.*]] = trunc i64 [[AL16]] to i32
; CHECK-NEXT:    %atoll.arena.mask.a16 = and i32 %atoll.arena.mask32, -16
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; No 64-bit and with the mask, no or with the unaligned base parameter, anywhere.
; CHECK-NOT:     and i64 {{.*}}%atoll.arena.mask
; CHECK-NOT:     or i64 {{.*}}%__atoll_arena_base
; The global load: 32-bit and, widened, or-ed into the aligned base.
; CHECK:         %src = getelementptr float, ptr addrspace(1) %in, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr addrspace(1) %src to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[P0F]] to i32
; CHECK-NEXT:    [[O0:%.*]] = and i32 [[T0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[O0]] to i64
; CHECK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[Z0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    %v = load float, ptr addrspace(1) [[G0]], align 4
; CHECK-NOT:     and i64 {{.*}}%atoll.arena.mask
; CHECK-NOT:     or i64 {{.*}}%__atoll_arena_base
; The store through a generic kernel pointer: the same form.
; CHECK:         %dst = getelementptr float, ptr %out, i64 %i
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr %dst to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[P1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[O1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    [[X1:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; CHECK-NEXT:    store float %w, ptr [[X1]], align 4
; CHECK-NOT:     and i64 {{.*}}%atoll.arena.mask
; CHECK-NOT:     or i64 {{.*}}%__atoll_arena_base
; 16 bytes at align 4: the 32-bit offset is also clamped to the 32-bit limit.
; CHECK:         %vsrc = getelementptr i8, ptr addrspace(1) %in, i64 %i
; CHECK-NEXT:    [[P2:%.*]] = ptrtoint ptr addrspace(1) %vsrc to i64
; CHECK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[P2F]] to i32
; CHECK-NEXT:    [[O2:%.*]] = and i32 [[T2]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[O2]], i32 [[LIM16]])
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[C2]] to i64
; CHECK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[Z2]]
; CHECK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; CHECK-NEXT:    %vv = load <4 x float>, ptr addrspace(1) [[G2]], align 4
; CHECK-NOT:     and i64 {{.*}}%atoll.arena.mask
; CHECK-NOT:     or i64 {{.*}}%__atoll_arena_base
; CHECK:         [[O3:%.*]] = and i32 {{%.*}}, %atoll.arena.mask.a16
; CHECK-NEXT:    [[Z3:%.*]] = zext i32 [[O3]] to i64
; CHECK-NEXT:    or i64 %atoll.arena.base, [[Z3]]
; CHECK-NOT:     and i64 {{.*}}%atoll.arena.mask
; CHECK-NOT:     or i64 {{.*}}%__atoll_arena_base
; CHECK:         store <4 x float> %vv, ptr {{%.*}}, align 16
; CHECK-NEXT:    ret void

; Modulo mode: the 64-bit form, relative to the raw base, none of the 32-bit
; mask-mode values.
; MOD-LABEL: define ptx_kernel void @scale(
; MOD-NOT:     %atoll.arena.
; MOD:         [[P0:%.*]] = ptrtoint ptr addrspace(1) %src to i64
; MOD-NEXT:         [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MOD-NEXT:    [[R0:%atoll.rel[0-9]*]] = sub i64 [[P0F]], %__atoll_arena_base
; MOD-NEXT:    [[W0:%atoll.wild[0-9]*]] = icmp uge i64 [[R0]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W0]], label %[[WRAP0:atoll.wrap[0-9]*]], label %[[TAIL0:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP0]]:
; MOD-NEXT:    [[M0:%atoll.wrapped[0-9]*]] = urem i64 [[R0]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL0]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL0]]:
; MOD-NEXT:    [[O0:%atoll.off[0-9]*]] = phi i64 [ [[R0]], %atoll.body ], [ [[M0]], %[[WRAP0]] ]
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[O0]], i64 %atoll.lim)
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    %v = load float, ptr addrspace(1) [[G0]], align 4
; MOD-NOT:     %atoll.arena.
; MOD:         [[R1:%atoll.rel[0-9]*]] = sub i64 {{%.*}}, %__atoll_arena_base
; MOD-NEXT:    [[W1:%atoll.wild[0-9]*]] = icmp uge i64 [[R1]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W1]], label %[[WRAP1:atoll.wrap[0-9]*]], label %{{[0-9]+}}, !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP1]]:
; MOD-NEXT:    urem i64 [[R1]], %__atoll_arena_size
; MOD:         store float %w,
; MOD-NOT:     %atoll.arena.
; MOD:         ret void

; In the PTX the mask is saturated with min.u64, the base aligned with one and.b64
; against an immediate, then per access a 32-bit and.b32 (and min.u32 for the
; wide access); no register-register and.b64 (the 64-bit clamp) anywhere.
; PTX-LABEL: .entry scale(
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         min.u64 [[MASK:%rd[0-9]+]], {{%rd[0-9]+}}, 4294967295;
; PTX:         and.b64 [[BASE:%rd[0-9]+]], {{%rd[0-9]+}}, -2097152;
; PTX-NEXT:    cvt.u32.u64 [[MASK32:%r[0-9]+]], [[MASK]];
; PTX-NEXT:    and.b32 [[M4:%r[0-9]+]], [[MASK32]], -4;
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         cvt.u32.u64 [[T0:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    and.b32 [[O0:%r[0-9]+]], [[T0]], [[M4]];
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[O0]];
; PTX-NEXT:    or.b64 [[A0:%rd[0-9]+]], [[BASE]], [[Z0]];
; PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}};
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         st.global.b32
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         and.b32 [[O2:%r[0-9]+]], {{%r[0-9]+}}, [[M4]];
; PTX-NEXT:    min.u32 [[C2:%r[0-9]+]], [[O2]], {{%r[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z2:%rd[0-9]+]], [[C2]];
; PTX-NEXT:    or.b64 {{%rd[0-9]+}}, [[BASE]], [[Z2]];
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         st.global.v4.b32
; PTX-NOT:     and.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
; PTX:         ret;

; Modulo mode: no 32-bit and anywhere; the rem.u64 of a wild address is out of
; line, after the ret.
; PTX-MOD-LABEL: .entry scale(
; PTX-MOD-NOT:   and.b32
; PTX-MOD:       ret;
; PTX-MOD-NOT:   and.b32
; PTX-MOD:       rem.u64
; PTX-MOD-NOT:   and.b32
; PTX-MOD:       // -- End function
