; cmpxchg on global memory: the pointer is confined (size of the compared value,
; the instruction's alignment); the pair result is unchanged.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @lock(ptr %l, ptr addrspace(1) %w, i64 %i) {
  %slot = getelementptr i32, ptr %l, i64 %i
  %r = cmpxchg ptr %slot, i32 0, i32 1 acquire monotonic, align 4
  %ok = extractvalue { i32, i1 } %r, 1
  %r64 = cmpxchg weak ptr addrspace(1) %w, i64 %i, i64 0 seq_cst seq_cst, align 8
  ret void
}

; MASK-LABEL: define ptx_kernel void @lock(ptr %l, ptr addrspace(1) %w, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; MASK:         %slot = getelementptr i32, ptr %l, i64 %i
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %slot to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a4
; MASK-NEXT:    [[ZO0:%.*]] = zext i32 [[O0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZO0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    %r = cmpxchg ptr [[X0]], i32 0, i32 1 acquire monotonic, align 4
; MASK-NEXT:    %ok = extractvalue { i32, i1 } %r, 1
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %w to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a8
; MASK-NEXT:    [[ZO1:%.*]] = zext i32 [[O1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZO1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    %r64 = cmpxchg weak ptr addrspace(1) [[G1]], i64 %i, i64 0 seq_cst seq_cst, align 8

; MOD-LABEL: define ptx_kernel void @lock(
; MOD-NEXT:    [[LIM4:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; MOD-NEXT:    [[LIM8:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
; MOD:         [[P0:%.*]] = ptrtoint ptr %slot to i64
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
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 [[LIM4]])
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MOD-NEXT:    %r = cmpxchg ptr [[X0]], i32 0, i32 1 acquire monotonic, align 4
; MOD-NEXT:    %ok = extractvalue { i32, i1 } %r, 1
; MOD-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %w to i64
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
; MOD-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[M1]], i64 [[LIM8]])
; MOD-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; MOD-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; MOD-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MOD-NEXT:    %r64 = cmpxchg weak ptr addrspace(1) [[G1]], i64 %i, i64 0 seq_cst seq_cst, align 8

; PTX-LABEL: .entry lock(
; PTX:         or.b64 [[A0:%rd[0-9]+]],
; PTX-NEXT:    atom.acquire.sys.global.cas.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}}, 0, 1;
; PTX:         or.b64 [[A1:%rd[0-9]+]],
; PTX:         atom.acquire.sys.global.cas.b64 {{%rd[0-9]+}}, {{\[}}[[A1]]{{\]}},
