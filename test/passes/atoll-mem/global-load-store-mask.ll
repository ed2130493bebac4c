; Global accesses in the default mask-based mode: every load and store through a
; kernel pointer parameter (generic or addrspace(1)) becomes
;   base | zext(trunc32(addr) & (mask32 & ~(A-1)))
; with mask = umin(size-1, 4 GiB-1), base = arena base aligned down to 2 MiB, and
; the 32-bit masked mask computed once per alignment in the entry block.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
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

; CHECK-LABEL: define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK-NEXT:    [[SM1:%.*]] = sub i64 %__atoll_arena_size, 1
; CHECK-NEXT:    %atoll.arena.mask = call i64 @llvm.umin.i64(i64 [[SM1]], i64 4294967295)
; CHECK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; CHECK-NEXT:    %atoll.arena.base = and i64 %__atoll_arena_base, -2097152
; CHECK-NEXT:    %atoll.arena.mask32 = trunc i64 %atoll.arena.mask to i32
; CHECK-NEXT:    %atoll.arena.mask.a4 = and i32 %atoll.arena.mask32, -4
; CHECK-NEXT:    %atoll.arena.mask.a8 = and i32 %atoll.arena.mask32, -8
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %src = getelementptr float, ptr %in, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %src to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[P0F]] to i32
; CHECK-NEXT:    [[O0:%.*]] = and i32 [[T0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[O0]] to i64
; CHECK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[Z0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[C0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %v = load float, ptr [[C0]], align 4
; CHECK-NEXT:    %dst = getelementptr float, ptr addrspace(1) %out, i64 %i
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[P1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[O1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    store float %v, ptr addrspace(1) [[G1]], align 4
; CHECK-NEXT:    %src8 = getelementptr i64, ptr %in, i64 %i
; CHECK-NEXT:    [[P2:%.*]] = ptrtoint ptr %src8 to i64
; CHECK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[P2F]] to i32
; CHECK-NEXT:    [[O2:%.*]] = and i32 [[T2]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[O2]] to i64
; CHECK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[Z2]]
; CHECK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; CHECK-NEXT:    [[C2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; CHECK-NEXT:    %w = load i64, ptr [[C2]], align 8
; CHECK-NEXT:    [[P3:%.*]] = ptrtoint ptr addrspace(1) %out to i64
; CHECK-NEXT:    [[P3F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P3]]
; CHECK-NEXT:    [[T3:%.*]] = trunc i64 [[P3F]] to i32
; CHECK-NEXT:    [[O3:%.*]] = and i32 [[T3]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[Z3:%.*]] = zext i32 [[O3]] to i64
; CHECK-NEXT:    [[A3:%.*]] = or i64 %atoll.arena.base, [[Z3]]
; CHECK-NEXT:    [[G3:%.*]] = inttoptr i64 [[A3]] to ptr addrspace(1)
; CHECK-NEXT:    store i64 %w, ptr addrspace(1) [[G3]], align 8
; CHECK-NEXT:    ret void

; In the PTX output: the hidden parameters, the 32-bit mask (size-1 saturated at
; 4 GiB-1) and the 2 MiB-aligned base, then per access one 32-bit and.b32 with the
; per-alignment mask, widened and or.b64-ed with the base, feeding a global (not
; generic) load or store.
; PTX-LABEL: .entry copy(
; PTX:         .param .u64 copy_param_3,
; PTX-NEXT:    .param .u64 copy_param_4
; PTX:         ld.param.b64 [[SIZE:%rd[0-9]+]], [copy_param_4];
; PTX-NEXT:    add.s64 [[SM1:%rd[0-9]+]], [[SIZE]], -1;
; PTX-NEXT:    min.u64 [[MASK:%rd[0-9]+]], [[SM1]], 4294967295;
; PTX-NEXT:    ld.param.b64 [[RAWBASE:%rd[0-9]+]], [copy_param_3];
; PTX-NEXT:    and.b64 [[BASE:%rd[0-9]+]], [[RAWBASE]], -2097152;
; PTX-NEXT:    cvt.u32.u64 [[MASK32:%r[0-9]+]], [[MASK]];
; PTX-NEXT:    and.b32 [[M4:%r[0-9]+]], [[MASK32]], -4;
; PTX-NEXT:    and.b32 [[M8:%r[0-9]+]], [[MASK32]], -8;
; PTX:         cvt.u32.u64 [[T0:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    and.b32 [[O0:%r[0-9]+]], [[T0]], [[M4]];
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[O0]];
; PTX-NEXT:    or.b64 [[A0:%rd[0-9]+]], [[BASE]], [[Z0]];
; PTX-NEXT:    ld.global.b32 [[V:%r[0-9]+]], {{\[}}[[A0]]{{\]}};
; PTX:         cvt.u32.u64 [[T1:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    and.b32 [[O1:%r[0-9]+]], [[T1]], [[M4]];
; PTX-NEXT:    cvt.u64.u32 [[Z1:%rd[0-9]+]], [[O1]];
; PTX-NEXT:    or.b64 [[A1:%rd[0-9]+]], [[BASE]], [[Z1]];
; PTX-NEXT:    st.global.b32 {{\[}}[[A1]]{{\]}}, [[V]];
; PTX:         cvt.u32.u64 [[T2:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    and.b32 [[O2:%r[0-9]+]], [[T2]], [[M8]];
; PTX-NEXT:    cvt.u64.u32 [[Z2:%rd[0-9]+]], [[O2]];
; PTX-NEXT:    or.b64 [[A2:%rd[0-9]+]], [[BASE]], [[Z2]];
; PTX-NEXT:    ld.global.b64 [[W:%rd[0-9]+]], {{\[}}[[A2]]{{\]}};
; PTX-NEXT:    cvt.u32.u64 [[T3:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    and.b32 [[O3:%r[0-9]+]], [[T3]], [[M8]];
; PTX-NEXT:    cvt.u64.u32 [[Z3:%rd[0-9]+]], [[O3]];
; PTX-NEXT:    or.b64 [[A3:%rd[0-9]+]], [[BASE]], [[Z3]];
; PTX-NEXT:    st.global.b64 {{\[}}[[A3]]{{\]}}, [[W]];
