; Global accesses in modulo-based mode (arenas of any size):
;   base + (umin((addr - base) urem size, size - S) & ~(A-1))
; where the 64-bit urem runs only for a wild address (rel = addr - base >= size),
; in a block of its own behind an unlikely branch; an address inside the arena
; is its own remainder:
;   rel = addr - base; off = rel < size ? rel : rel urem size (a phi)
; The limit size - S is computed once in the entry block per access.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s
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

; CHECK-LABEL: define ptx_kernel void @copy(ptr %in, ptr addrspace(1) %out, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #0
; CHECK-NEXT:    [[LIM4:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[LIM8:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %src = getelementptr float, ptr %in, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %src to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[R0:%atoll.rel[0-9]*]] = sub i64 [[P0F]], %__atoll_arena_base
; CHECK-NEXT:    [[W0:%atoll.wild[0-9]*]] = icmp uge i64 [[R0]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[W0]], label %[[WRAP0:atoll.wrap[0-9]*]], label %[[TAIL0:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAP0]]:
; CHECK-NEXT:    [[M0:%atoll.wrapped[0-9]*]] = urem i64 [[R0]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAIL0]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAIL0]]:
; CHECK-NEXT:    [[O0:%atoll.off[0-9]*]] = phi i64 [ [[R0]], %atoll.body ], [ [[M0]], %[[WRAP0]] ]
; CHECK-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[O0]], i64 [[LIM4]])
; CHECK-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; CHECK-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %v = load float, ptr [[X0]], align 4
; CHECK-NEXT:    %dst = getelementptr double, ptr addrspace(1) %out, i64 %i
; CHECK-NEXT:    %d = fpext float %v to double
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[R1:%atoll.rel[0-9]*]] = sub i64 [[P1F]], %__atoll_arena_base
; CHECK-NEXT:    [[W1:%atoll.wild[0-9]*]] = icmp uge i64 [[R1]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[W1]], label %[[WRAP1:atoll.wrap[0-9]*]], label %[[TAIL1:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAP1]]:
; CHECK-NEXT:    [[M1:%atoll.wrapped[0-9]*]] = urem i64 [[R1]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAIL1]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAIL1]]:
; CHECK-NEXT:    [[O1:%atoll.off[0-9]*]] = phi i64 [ [[R1]], %[[TAIL0]] ], [ [[M1]], %[[WRAP1]] ]
; CHECK-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[O1]], i64 [[LIM8]])
; CHECK-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; CHECK-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    store double %d, ptr addrspace(1) [[G1]], align 8
; CHECK-NEXT:    ret void
; CHECK: attributes #0 = { "atoll-hardened"="modulo-based" }
; The wrap path is marked unlikely (createUnlikelyBranchWeights: 1 : 2^20 - 1).
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

; In the PTX output: sub, a compare of rel with size and a branch over the
; out-of-line remainder (rem.u64, or its 32-bit fast path), then on the
; straight-line path min.u64, and.b64, add and the global access: no rem on it.
; PTX-LABEL: .entry copy(
; PTX-DAG:     ld.param.b64 [[SIZE:%rd[0-9]+]], [copy_param_4];
; PTX-DAG:     ld.param.b64 [[BASE:%rd[0-9]+]], [copy_param_3];
; PTX:         sub.s64 [[R0:%rd[0-9]+]], {{%rd[0-9]+}}, [[BASE]];
; PTX-NEXT:    setp.lt.u64 [[P0:%p[0-9]+]], [[R0]], [[SIZE]];
; PTX-NEXT:    @[[P0]] bra [[TAIL0:\$L__BB0_[0-9]+]];
; PTX-NEXT:    bra.uni [[WRAP0:\$L__BB0_[0-9]+]];
; PTX-NEXT:  [[TAIL0]]:
; PTX-NOT:     rem.u
; PTX:         min.u64 [[C0:%rd[0-9]+]],
; PTX-NEXT:    and.b64 [[AL0:%rd[0-9]+]], [[C0]], -4;
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], [[BASE]], [[AL0]];
; PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}};
; PTX-NOT:     rem.u
; PTX:         sub.s64 [[R1:%rd[0-9]+]], {{%rd[0-9]+}}, [[BASE]];
; PTX-NEXT:    setp.lt.u64 [[P1:%p[0-9]+]], [[R1]], [[SIZE]];
; PTX-NEXT:    @[[P1]] bra [[TAIL1:\$L__BB0_[0-9]+]];
; PTX-NEXT:    bra.uni [[WRAP1:\$L__BB0_[0-9]+]];
; PTX-NEXT:  [[TAIL1]]:
; PTX-NOT:     rem.u
; PTX:         min.u64 [[C1:%rd[0-9]+]],
; PTX-NEXT:    and.b64 [[AL1:%rd[0-9]+]], [[C1]], -8;
; PTX-NEXT:    add.s64 [[A1:%rd[0-9]+]], [[BASE]], [[AL1]];
; PTX-NEXT:    st.global.b64 {{\[}}[[A1]]{{\]}}, {{%rd[0-9]+}};
; PTX-NEXT:    ret;
; The remainders, out of line, rejoining the straight-line paths.
; PTX:       [[WRAP0]]:
; PTX:         rem.u64 {{%rd[0-9]+}}, [[R0]], [[SIZE]];
; PTX-NEXT:    bra.uni [[TAIL0]];
; PTX:       [[WRAP1]]:
; PTX:         rem.u64 {{%rd[0-9]+}}, [[R1]], [[SIZE]];
; PTX-NEXT:    bra.uni [[TAIL1]];
