; Global accesses in the default mask-based mode: every load and store through a
; kernel pointer parameter (generic or addrspace(1)) becomes
;   (addr & ((size-1) & ~(A-1))) | base
; with the masked mask computed once per alignment in the entry block.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -S %s | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i) {
  %src = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %src, align 4
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %v, ptr addrspace(1) %dst, align 4
  %src8 = getelementptr i64, ptr %in, i64 %i
  %w = load i64, ptr %src8, align 8
  store i64 %w, ptr addrspace(1) %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size)
; CHECK-NEXT:    %atoll.arena.mask = sub i64 %__atoll_arena_size, 1
; CHECK-NEXT:    %atoll.arena.mask.a4 = and i64 %atoll.arena.mask, -4
; CHECK-NEXT:    %atoll.arena.mask.a8 = and i64 %atoll.arena.mask, -8
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %src = getelementptr float, ptr %in, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %src to i64
; CHECK-NEXT:    [[O0:%.*]] = and i64 [[P0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[A0:%.*]] = or i64 [[O0]], %__atoll_arena_base
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[C0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %v = load float, ptr [[C0]], align 4
; CHECK-NEXT:    %dst = getelementptr float, ptr addrspace(1) %out, i64 %i
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT:    [[O1:%.*]] = and i64 [[P1]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[A1:%.*]] = or i64 [[O1]], %__atoll_arena_base
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    store float %v, ptr addrspace(1) [[G1]], align 4
; CHECK-NEXT:    %src8 = getelementptr i64, ptr %in, i64 %i
; CHECK-NEXT:    [[P2:%.*]] = ptrtoint ptr %src8 to i64
; CHECK-NEXT:    [[O2:%.*]] = and i64 [[P2]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[A2:%.*]] = or i64 [[O2]], %__atoll_arena_base
; CHECK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; CHECK-NEXT:    [[C2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; CHECK-NEXT:    %w = load i64, ptr [[C2]], align 8
; CHECK-NEXT:    [[P3:%.*]] = ptrtoint ptr addrspace(1) %out to i64
; CHECK-NEXT:    [[O3:%.*]] = and i64 [[P3]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[A3:%.*]] = or i64 [[O3]], %__atoll_arena_base
; CHECK-NEXT:    [[G3:%.*]] = inttoptr i64 [[A3]] to ptr addrspace(1)
; CHECK-NEXT:    store i64 %w, ptr addrspace(1) [[G3]], align 8
; CHECK-NEXT:    ret void

; In the PTX output: the hidden parameters, then per access one and.b64 with the per-alignment
; mask and one or.b64 with the base, feeding a global (not generic) load or store.
; PTX-LABEL: .entry copy(
; PTX:         .param .u64 copy_param_3,
; PTX-NEXT:    .param .u64 copy_param_4
; PTX:         ld.param.b64 [[BASE:%rd[0-9]+]], [copy_param_3];
; PTX:         ld.param.b64 [[SIZE:%rd[0-9]+]], [copy_param_4];
; PTX-NEXT:    add.s64 [[MASK:%rd[0-9]+]], [[SIZE]], -1;
; PTX-NEXT:    and.b64 [[M4:%rd[0-9]+]], [[MASK]], -4;
; PTX-NEXT:    and.b64 [[M8:%rd[0-9]+]], [[MASK]], -8;
; PTX:         and.b64 [[O0:%rd[0-9]+]], {{%rd[0-9]+}}, [[M4]];
; PTX-NEXT:    or.b64 [[A0:%rd[0-9]+]], [[O0]], [[BASE]];
; PTX-NEXT:    ld.global.b32 [[V:%r[0-9]+]], {{\[}}[[A0]]{{\]}};
; PTX:         and.b64 [[O1:%rd[0-9]+]], {{%rd[0-9]+}}, [[M4]];
; PTX-NEXT:    or.b64 [[A1:%rd[0-9]+]], [[O1]], [[BASE]];
; PTX-NEXT:    st.global.b32 {{\[}}[[A1]]{{\]}}, [[V]];
; PTX:         and.b64 [[O2:%rd[0-9]+]], {{%rd[0-9]+}}, [[M8]];
; PTX-NEXT:    or.b64 [[A2:%rd[0-9]+]], [[O2]], [[BASE]];
; PTX-NEXT:    ld.global.b64 [[W:%rd[0-9]+]], {{\[}}[[A2]]{{\]}};
; PTX-NEXT:    and.b64 [[O3:%rd[0-9]+]], {{%rd[0-9]+}}, [[M8]];
; PTX-NEXT:    or.b64 [[A3:%rd[0-9]+]], [[O3]], [[BASE]];
; PTX-NEXT:    st.global.b64 {{\[}}[[A3]]{{\]}}, [[W]];
