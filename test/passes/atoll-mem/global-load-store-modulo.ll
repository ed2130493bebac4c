; Global accesses in modulo-based mode (arenas of any size):
;   base + (umin((addr - base) urem size, size - S) & ~(A-1))
; The limit size - S is computed once in the entry block per access.
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i) {
  %src = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %src, align 4
  %dst = getelementptr double, ptr addrspace(1) %out, i64 %i
  %d = fpext float %v to double
  store double %d, ptr addrspace(1) %dst, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size) #0
; CHECK-NEXT:    [[LIM4:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[LIM8:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %src = getelementptr float, ptr %in, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %src to i64
; CHECK-NEXT:    [[R0:%.*]] = sub i64 [[P0]], %__atoll_arena_base
; CHECK-NEXT:    [[M0:%.*]] = urem i64 [[R0]], %__atoll_arena_size
; CHECK-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 [[LIM4]])
; CHECK-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; CHECK-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %v = load float, ptr [[X0]], align 4
; CHECK-NEXT:    %dst = getelementptr double, ptr addrspace(1) %out, i64 %i
; CHECK-NEXT:    %d = fpext float %v to double
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT:    [[R1:%.*]] = sub i64 [[P1]], %__atoll_arena_base
; CHECK-NEXT:    [[M1:%.*]] = urem i64 [[R1]], %__atoll_arena_size
; CHECK-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[M1]], i64 [[LIM8]])
; CHECK-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; CHECK-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    store double %d, ptr addrspace(1) [[G1]], align 8
; CHECK-NEXT:    ret void
; CHECK: attributes #0 = { "atoll-hardened"="modulo-based" }

; In the PTX output: sub, rem.u64 (or its 32-bit fast path), min.u64, and.b64, add, then a
; global access.
; PTX-LABEL: .entry copy(
; PTX:         ld.param.b64 [[BASE:%rd[0-9]+]], [copy_param_3];
; PTX:         sub.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[BASE]];
; PTX:         rem.u64
; PTX:         min.u64 [[C0:%rd[0-9]+]],
; PTX-NEXT:    and.b64 [[AL0:%rd[0-9]+]], [[C0]], -4;
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], [[BASE]], [[AL0]];
; PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}};
; PTX:         min.u64 [[C1:%rd[0-9]+]],
; PTX-NEXT:    and.b64 [[AL1:%rd[0-9]+]], [[C1]], -8;
; PTX-NEXT:    add.s64 [[A1:%rd[0-9]+]], [[BASE]], [[AL1]];
; PTX-NEXT:    st.global.b64 {{\[}}[[A1]]{{\]}}, {{%rd[0-9]+}};
