; A generic pointer loaded from memory has an unknown state space: it is confined
; by a run-time test, isspacep.shared(p) ? window(p) : arena(p). Shared addresses
; stay in the shared window, anything else (global, or a stack or constant address
; smuggled through memory) lands in the arena. Never a fault, never outside.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @chase(ptr %table, i64 %i) {
  %slot = getelementptr ptr, ptr %table, i64 %i
  %p = load ptr, ptr %slot, align 8
  %v = load i32, ptr %p, align 4
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p, align 4
  ret void
}

; The slot itself is in a kernel buffer: the arena.
; MASK-LABEL: define ptx_kernel void @chase(
; MASK:         [[LIM:%atoll.smem.lim]] = sub i64 %atoll.smem.bytes, 4
; MASK:       atoll.body:
; MASK:         %p = load ptr, ptr {{%.*}}, align 8
; MASK-NEXT:    [[PF0:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; MASK-NEXT:    [[IS:%atoll.is.shared]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; MASK-NEXT:    [[S:%.*]] = addrspacecast ptr [[PF0]] to ptr addrspace(3)
; MASK-NEXT:    [[SR:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
; MASK-NEXT:    [[SRF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[SR]]
; MASK-NEXT:    [[SO:%.*]] = sub i64 [[SRF]], %atoll.smem.lo
; MASK-NEXT:    [[TSC:%.*]] = trunc i64 [[SO]] to i32
; MASK-NEXT:    [[LSC:%.*]] = trunc i64 [[LIM]] to i32
; MASK-NEXT:    [[SC:%.*]] = call i32 @llvm.umin.i32(i32 [[TSC]], i32 [[LSC]])
; MASK-NEXT:    [[SA:%.*]] = and i32 [[SC]], -4
; MASK-NEXT:    [[ZSC:%.*]] = zext i32 [[SA]] to i64
; MASK-NEXT:    [[SW:%.*]] = add i64 %atoll.smem.lo, [[ZSC]]
; MASK-NEXT:    [[SP:%.*]] = inttoptr i64 [[SW]] to ptr addrspace(3)
; MASK-NEXT:    [[SG:%.*]] = addrspacecast ptr addrspace(3) [[SP]] to ptr
; MASK-NEXT:    [[GR:%.*]] = ptrtoint ptr [[PF0]] to i64
; MASK-NEXT:    [[GRF:%atoll.addr.fr[0-9]*]] = freeze i64 [[GR]]
; MASK-NEXT:    [[TGO:%.*]] = trunc i64 [[GRF]] to i32
; MASK-NEXT:    [[GO:%.*]] = and i32 [[TGO]], %atoll.arena.mask.a4
; MASK-NEXT:    [[ZGO:%.*]] = zext i32 [[GO]] to i64
; MASK-NEXT:    [[GA:%.*]] = or i64 %atoll.arena.base, [[ZGO]]
; MASK-NEXT:    [[GP:%.*]] = inttoptr i64 [[GA]] to ptr addrspace(1)
; MASK-NEXT:    [[GG:%.*]] = addrspacecast ptr addrspace(1) [[GP]] to ptr
; MASK-NEXT:    [[SEL:%atoll.generic]] = select i1 [[IS]], ptr [[SG]], ptr [[GG]]
; MASK-NEXT:    %v = load i32, ptr [[SEL]], align 4
; MASK-NEXT:    %v1 = add i32 %v, 1
; MASK-NEXT:    [[PF1:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; MASK-NEXT:    [[IS2:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF1]])
; MASK:         [[SEL2:%.*]] = select i1 [[IS2]], ptr {{%.*}}, ptr {{%.*}}
; MASK-NEXT:    store i32 %v1, ptr [[SEL2]], align 4

; MOD-LABEL: define ptx_kernel void @chase(
; MOD:         %p = load ptr, ptr {{%.*}}, align 8
; MOD-NEXT:    [[PF1:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; MOD-NEXT:    [[IS:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF1]])
; MOD:         [[SG:%.*]] = addrspacecast ptr addrspace(3) {{%.*}} to ptr
; MOD-NEXT:    [[GR:%.*]] = ptrtoint ptr [[PF1]] to i64
; MOD-NEXT:    [[GRF:%atoll.addr.fr[0-9]*]] = freeze i64 [[GR]]
; MOD-NEXT:    [[GD:%atoll.rel[0-9]*]] = sub i64 [[GRF]], %__atoll_arena_base
; MOD-NEXT:    [[WG:%atoll.wild[0-9]*]] = icmp uge i64 [[GD]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[WG]], label %[[WRAPG:atoll.wrap[0-9]*]], label %[[TAILG:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAPG]]:
; MOD-NEXT:    [[UG:%atoll.wrapped[0-9]*]] = urem i64 [[GD]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAILG]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAILG]]:
; MOD-NEXT:    [[GM:%atoll.off[0-9]*]] = phi i64 [ [[GD]], %{{[0-9]+}} ], [ [[UG]], %[[WRAPG]] ]
; MOD-NEXT:    [[GC:%.*]] = call i64 @llvm.umin.i64(i64 [[GM]], i64 %atoll.lim{{[0-9]*}})
; MOD-NEXT:    [[GAL:%.*]] = and i64 [[GC]], -4
; MOD-NEXT:    [[GA:%.*]] = add i64 %__atoll_arena_base, [[GAL]]
; MOD-NEXT:    [[GP:%.*]] = inttoptr i64 [[GA]] to ptr addrspace(1)
; MOD-NEXT:    [[GG:%.*]] = addrspacecast ptr addrspace(1) [[GP]] to ptr
; MOD-NEXT:    [[SEL:%.*]] = select i1 [[IS]], ptr [[SG]], ptr [[GG]]
; MOD-NEXT:    %v = load i32, ptr [[SEL]], align 4

; PTX-LABEL: .entry chase(
; PTX:         ld.global.b64 [[P:%rd[0-9]+]],
; PTX:         isspacep.shared [[PR:%p[0-9]+]], [[P]];
; PTX:         selp.b64 [[A:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[PR]];
; PTX-NEXT:    ld.b32 {{%r[0-9]+}}, {{\[}}[[A]]{{\]}};
; PTX:         st.b32 {{\[}}[[A]]{{\]}},
