; Forged pointers: int-to-ptr in the generic space has an unknown state space (run-
; time space test); in addrspace(1) it is a global address (arena); an odd
; constant address used for an aligned access gets its low bits cleared, so it can
; never raise a misaligned-address fault.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @forge(i64 %addr, ptr %out) {
  %p = inttoptr i64 %addr to ptr
  %v = load i32, ptr %p, align 4
  %g = inttoptr i64 %addr to ptr addrspace(1)
  %w = load i64, ptr addrspace(1) %g, align 8
  %odd = load <2 x i32>, ptr addrspace(1) inttoptr (i64 7 to ptr addrspace(1)), align 8
  %x = extractelement <2 x i32> %odd, i32 0
  %s = add i32 %v, %x
  store i32 %s, ptr %out, align 4
  store i64 %w, ptr %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @forge(
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = inttoptr i64 %addr to ptr
; CHECK-NEXT:    [[PF0:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[IS:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; CHECK:         [[SEL:%.*]] = select i1 [[IS]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    %v = load i32, ptr [[SEL]], align 4
; CHECK-NEXT:    %g = inttoptr i64 %addr to ptr addrspace(1)
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr addrspace(1) %g to i64
; CHECK-NEXT:    [[R1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[R1]]
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[R1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[T1]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[O1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[Z1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    %w = load i64, ptr addrspace(1) [[G1]], align 8
; The constant 7 (its low 32 bits) is masked with mask32 & -8: the result is 8-aligned.
; CHECK-NEXT:    [[F2:%atoll.addr.fr[0-9]*]] = freeze i64 ptrtoint (ptr addrspace(1) inttoptr (i64 7 to ptr addrspace(1)) to i64)
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[F2]] to i32
; CHECK-NEXT:    [[O2:%.*]] = and i32 [[T2]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[O2]] to i64
; CHECK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[Z2]]
; CHECK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; CHECK-NEXT:    %odd = load <2 x i32>, ptr addrspace(1) [[G2]], align 8

; MOD-LABEL: define ptx_kernel void @forge(
; MOD:         %w = load i64, ptr addrspace(1) {{%.*}}, align 8
; MOD-NEXT:    [[F2:%atoll.addr.fr[0-9]*]] = freeze i64 ptrtoint (ptr addrspace(1) inttoptr (i64 7 to ptr addrspace(1)) to i64)
; MOD-NEXT:    [[D2:%atoll.rel[0-9]*]] = sub i64 [[F2]], %__atoll_arena_base
; MOD-NEXT:    [[W2:%atoll.wild[0-9]*]] = icmp uge i64 [[D2]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W2]], label %[[WRAP2:atoll.wrap[0-9]*]], label %[[TAIL2:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP2]]:
; MOD-NEXT:    [[U2:%atoll.wrapped[0-9]*]] = urem i64 [[D2]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL2]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL2]]:
; MOD-NEXT:    [[M2:%atoll.off[0-9]*]] = phi i64 [ [[D2]], %{{[0-9]+}} ], [ [[U2]], %[[WRAP2]] ]
; MOD-NEXT:    [[C2:%.*]] = call i64 @llvm.umin.i64(i64 [[M2]], i64 %atoll.lim{{[0-9]*}})
; MOD-NEXT:    [[AL2:%.*]] = and i64 [[C2]], -8
; MOD-NEXT:    [[A2:%.*]] = add i64 %__atoll_arena_base, [[AL2]]
; MOD-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; MOD-NEXT:    %odd = load <2 x i32>, ptr addrspace(1) [[G2]], align 8
