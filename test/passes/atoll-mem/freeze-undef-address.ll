; R2-F5: no clamp reads poison or undef. Instruction selection folds an address
; it can see is undefined (here `udiv x, 0`, immediate UB) into undef, and the
; clamp's arithmetic with it: before the freeze, each of these kernels stored to
; a PTX register that was never written (`st.global.b32 [%rd1], 7`, any
; address). The address each clamp reads is frozen (one fixed value), so the
; mask/limit stays in the PTX. Object clamps read their offset through an opaque
; asm, which does the same.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=MOD

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i32], align 4

define ptx_kernel void @arena_udiv0(ptr addrspace(1) %p, i64 %i) {
  %o = udiv i64 %i, 0
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %o
  store i32 7, ptr addrspace(1) %q, align 4
  ret void
}

define ptx_kernel void @shared_udiv0(i32 %i) {
  %o = udiv i32 %i, 0
  %q = getelementptr i32, ptr addrspace(3) @dyn, i32 %o
  store i32 7, ptr addrspace(3) %q, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @arena_udiv0(
; CHECK:         %q = getelementptr i8, ptr addrspace(1) %p, i64 %o
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(1) %q to i64
; CHECK-NEXT:    [[F:%atoll.addr.fr]] = freeze i64 [[A]]
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[F]] to i32
; CHECK-NEXT:    %atoll.off = and i32 [[T]], %atoll.arena.mask.a4
; CHECK-LABEL: define ptx_kernel void @shared_udiv0(
; CHECK:         [[S:%.*]] = ptrtoint ptr addrspace(3) %q to i64
; CHECK-NEXT:    [[SF:%atoll.smem.addr.fr]] = freeze i64 [[S]]
; CHECK-NEXT:    sub i64 [[SF]], %atoll.smem.lo

; The store's address is the arena base | (32-bit value & mask): confined
; whatever register value the frozen undef became.
; PTX-LABEL: .entry arena_udiv0(
; PTX:         and.b64 [[BASE:%rd[0-9]+]], {{%rd[0-9]+}}, -2097152;
; PTX:         and.b32 [[OFF:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[OFF64:%rd[0-9]+]], [[OFF]];
; PTX-NEXT:    or.b64 [[ADDR:%rd[0-9]+]], [[BASE]], [[OFF64]];
; PTX-NEXT:    st.global.b32 [[[ADDR]]], 7;
; PTX-LABEL: .entry shared_udiv0(
; PTX:         barrier.sync 0;
; PTX-NEXT:    sub.s64
; PTX-NEXT:    cvt.u32.u64 [[SO:%r[0-9]+]],
; PTX-NEXT:    cvt.u32.u64 [[SL:%r[0-9]+]],
; PTX-NEXT:    min.u32 [[SC:%r[0-9]+]], [[SO]], [[SL]];
; PTX-NEXT:    and.b32 [[SA:%r[0-9]+]], [[SC]], -4;
; PTX-NEXT:    cvt.u64.u32 [[SA64:%rd[0-9]+]], [[SA]];
; PTX-NEXT:    add.s64 [[SADDR:%rd[0-9]+]], {{%rd[0-9]+}}, [[SA64]];
; PTX-NEXT:    st.shared.b32 [[[SADDR]]], 7;

; Modulo mode: base + umin(offset, size - 4) & -4.
; MOD-LABEL: .entry arena_udiv0(
; MOD:         min.u64 [[M:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}};
; MOD-NEXT:    and.b64 [[MA:%rd[0-9]+]], [[M]], -4;
; MOD-NEXT:    add.s64 [[MADDR:%rd[0-9]+]], {{%rd[0-9]+}}, [[MA]];
; MOD-NEXT:    st.global.b32 [[[MADDR]]], 7;
