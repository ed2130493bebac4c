; atomicrmw on global memory (generic kernel pointer and addrspace(1)) in both
; modes: the pointer operand is confined like a store of the value's size, the
; atomic keeps its operation, ordering and scope.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @counters(ptr %c, ptr addrspace(1) %f, i64 %i) {
  %slot = getelementptr i32, ptr %c, i64 %i
  %old = atomicrmw add ptr %slot, i32 1 syncscope("device") monotonic, align 4
  %fs = getelementptr float, ptr addrspace(1) %f, i64 %i
  %oldf = atomicrmw fadd ptr addrspace(1) %fs, float 1.0 seq_cst, align 4
  %big = atomicrmw xchg ptr %c, i64 7 acq_rel, align 8
  ret void
}

; MASK-LABEL: define ptx_kernel void @counters(
; MASK:         %slot = getelementptr i32, ptr %c, i64 %i
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %slot to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a4
; MASK-NEXT:    [[ZO0:%.*]] = zext i32 [[O0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZO0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    %old = atomicrmw add ptr [[X0]], i32 1 syncscope("device") monotonic, align 4
; MASK-NEXT:    %fs = getelementptr float, ptr addrspace(1) %f, i64 %i
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %fs to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a4
; MASK-NEXT:    [[ZO1:%.*]] = zext i32 [[O1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZO1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    %oldf = atomicrmw fadd ptr addrspace(1) [[G1]], float 1.000000e+00 seq_cst, align 4
; MASK-NEXT:    [[P2:%.*]] = ptrtoint ptr %c to i64
; MASK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; MASK-NEXT:    [[TO2:%.*]] = trunc i64 [[P2F]] to i32
; MASK-NEXT:    [[O2:%.*]] = and i32 [[TO2]], %atoll.arena.mask.a8
; MASK-NEXT:    [[ZO2:%.*]] = zext i32 [[O2]] to i64
; MASK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[ZO2]]
; MASK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; MASK-NEXT:    [[X2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; MASK-NEXT:    %big = atomicrmw xchg ptr [[X2]], i64 7 acq_rel, align 8

; MOD-LABEL: define ptx_kernel void @counters(
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
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 %atoll.lim)
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MOD-NEXT:    %old = atomicrmw add ptr [[X0]], i32 1 syncscope("device") monotonic, align 4
; MOD:         %big = atomicrmw xchg ptr {{%.*}}, i64 7 acq_rel, align 8

; PTX-LABEL: .entry counters(
; PTX:         or.b64 [[A0:%rd[0-9]+]],
; PTX-NEXT:    atom.global.add.u32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}}, 1;
; PTX:         or.b64 [[A1:%rd[0-9]+]],
; PTX-NEXT:    atom.global.add.f32 {{%r[0-9]+}}, {{\[}}[[A1]]{{\]}}, 0f3F800000;
; PTX:         or.b64 [[A2:%rd[0-9]+]],
; PTX-NEXT:    atom.global.exch.b64 {{%rd[0-9]+}}, {{\[}}[[A2]]{{\]}}, 7;
