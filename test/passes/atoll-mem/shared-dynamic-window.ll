; extern __shared__ (dynamic shared memory, sized at launch) and shared pointers
; whose object is unknown (a generic kernel pointer cast to addrspace(3)) are confined into
; the CTA's user shared window [lo, lo + bytes):
;   lo = %reserved_smem_offset_cap, bytes = __atoll_dyn_smem + %dynamic_smem_size - lo,
;   addr = lo + zext(umin(trunc32(p - lo), trunc32(bytes - S)) & ~(A-1)),
; with lo, bytes and each bytes - S computed once in the entry block. The pad
; __atoll_smem_pad (256 bytes) keeps bytes >= S.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x float], align 16

define ptx_kernel void @window(i64 %i, ptr %gp, float %x) {
  %sp = addrspacecast ptr %gp to ptr addrspace(3)
  %p = getelementptr float, ptr addrspace(3) @dyn, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  %g = addrspacecast ptr addrspace(3) %p to ptr
  %old = atomicrmw fadd ptr %g, float %x monotonic, align 4
  %q = getelementptr <4 x float>, ptr addrspace(3) %sp, i64 %i
  %v = load <4 x float>, ptr addrspace(3) %q, align 16
  ret void
}

; CHECK: @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
; CHECK-LABEL: define ptx_kernel void @window(i64 %i, ptr %gp, float %x, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK:         %atoll.smem.cap = call i32 asm "mov.u32 $0, %reserved_smem_offset_cap;", "=r"()
; CHECK-NEXT:    %atoll.smem.lo = zext i32 %atoll.smem.cap to i64
; CHECK-NEXT:    [[DSZ:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
; CHECK-NEXT:    [[DSZ64:%.*]] = zext i32 [[DSZ]] to i64
; CHECK-NEXT:    %atoll.smem.end = add i64 ptrtoint (ptr addrspace(3) @__atoll_dyn_smem to i64), [[DSZ64]]
; CHECK-NEXT:    %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; CHECK-NEXT:    [[LIM0:%atoll.smem.lim]] = sub i64 %atoll.smem.bytes, 4
; CHECK-NEXT:    [[LIM1:%atoll.smem.lim[0-9]+]] = sub i64 %atoll.smem.bytes, 4
; CHECK-NEXT:    [[LIM2:%atoll.smem.lim[0-9]+]] = sub i64 %atoll.smem.bytes, 16
; CHECK-NEXT:    store volatile i8 0, ptr addrspace(3) @__atoll_smem_pad, align 1
; CHECK:       atoll.body:
; CHECK-NEXT:    %sp = addrspacecast ptr %gp to ptr addrspace(3)
; CHECK-NEXT:    %p = getelementptr float, ptr addrspace(3) @dyn, i64 %i
; CHECK-NEXT:    [[R0:%.*]] = ptrtoint ptr addrspace(3) %p to i64
; CHECK-NEXT:    [[R0F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R0]]
; CHECK-NEXT:    [[O0:%.*]] = sub i64 [[R0F]], %atoll.smem.lo
; CHECK-NEXT:    [[TC0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[LC0:%.*]] = trunc i64 [[LIM0]] to i32
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[TC0]], i32 [[LC0]])
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[ZC0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[W0:%.*]] = add i64 %atoll.smem.lo, [[ZC0]]
; CHECK-NEXT:    [[P0:%.*]] = inttoptr i64 [[W0]] to ptr addrspace(3)
; CHECK-NEXT:    store float %x, ptr addrspace(3) [[P0]], align 4
; A generic pointer into the window: cast to shared, confined, cast back.
; CHECK-NEXT:    %g = addrspacecast ptr addrspace(3) %p to ptr
; CHECK-NEXT:    [[S1:%.*]] = addrspacecast ptr %g to ptr addrspace(3)
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr addrspace(3) [[S1]] to i64
; CHECK-NEXT:    [[R1F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R1]]
; CHECK-NEXT:    [[O1:%.*]] = sub i64 [[R1F]], %atoll.smem.lo
; CHECK-NEXT:    [[TC1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[LC1:%.*]] = trunc i64 [[LIM1]] to i32
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[TC1]], i32 [[LC1]])
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -4
; CHECK-NEXT:    [[ZC1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[W1:%.*]] = add i64 %atoll.smem.lo, [[ZC1]]
; CHECK-NEXT:    [[P1:%.*]] = inttoptr i64 [[W1]] to ptr addrspace(3)
; CHECK-NEXT:    [[G1:%.*]] = addrspacecast ptr addrspace(3) [[P1]] to ptr
; CHECK-NEXT:    %old = atomicrmw fadd ptr [[G1]], float %x monotonic, align 4
; A shared pointer of unknown object, 16 bytes align 16.
; CHECK-NEXT:    %q = getelementptr <4 x float>, ptr addrspace(3) %sp, i64 %i
; CHECK-NEXT:    [[R2:%.*]] = ptrtoint ptr addrspace(3) %q to i64
; CHECK-NEXT:    [[R2F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R2]]
; CHECK-NEXT:    [[O2:%.*]] = sub i64 [[R2F]], %atoll.smem.lo
; CHECK-NEXT:    [[TC2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[LC2:%.*]] = trunc i64 [[LIM2]] to i32
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[TC2]], i32 [[LC2]])
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -16
; CHECK-NEXT:    [[ZC2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[W2:%.*]] = add i64 %atoll.smem.lo, [[ZC2]]
; CHECK-NEXT:    [[P2:%.*]] = inttoptr i64 [[W2]] to ptr addrspace(3)
; CHECK-NEXT:    %v = load <4 x float>, ptr addrspace(3) [[P2]], align 16
; CHECK-NEXT:    ret void

; PTX-LABEL: .entry window(
; PTX:         mov.u32 [[CAP:%r[0-9]+]], %reserved_smem_offset_cap;
; PTX:         mov.u32 {{%r[0-9]+}}, %dynamic_smem_size;
; PTX:         min.u32 [[C0:%r[0-9]+]],
; PTX-NEXT:    and.b32 [[A0:%r[0-9]+]], [[C0]], -4;
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[A0]];
; PTX-NEXT:    add.s64 [[W0:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z0]];
; PTX-NEXT:    st.shared.b32 {{\[}}[[W0]]{{\]}},
; The generic float add on a shared address is a CAS loop in SASS (R7-F2): atoll-mem's
; own, checked, on the shared pointer the window confinement gave (atomics-non-native.ll).
; PTX:       {{^}}$L__BB0_{{[0-9]+}}: // %atomicrmw.start
; PTX:         atom.relaxed.sys.shared.cas.b32 {{%r[0-9]+}}, {{\[}}{{%rd[0-9]+}}{{\]}},
