; llvm.nvvm.ldu.global.*: ldu reads the global state space, so its operand is
; always confined to the arena, even when it was computed from a stack or shared
; address (ldu on those would fault); its alignment is at least its size (one
; ldu instruction needs a naturally aligned address whatever the operand says).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null


target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ldu(ptr %p, ptr addrspace(1) %q, i64 %i, ptr %out) {
  %a = getelementptr float, ptr %p, i64 %i
  %v = call float @llvm.nvvm.ldu.global.f.f32.p0(ptr %a, i32 4)
  %w = call <2 x i64> @llvm.nvvm.ldu.global.i.v2i64.p1(ptr addrspace(1) %q, i32 1)
  %stack = alloca [4 x i32], align 4
  %s = getelementptr i32, ptr %stack, i64 %i
  %x = call i32 @llvm.nvvm.ldu.global.i.i32.p0(ptr %s, i32 4)
  store float %v, ptr %out, align 4
  %wx = extractelement <2 x i64> %w, i32 1
  %wy = trunc i64 %wx to i32
  %sum = add i32 %wy, %x
  store i32 %sum, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @ldu(
; CHECK:         %a = getelementptr float, ptr %p, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; CHECK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[ZO0:%.*]] = zext i32 [[O0]] to i64
; CHECK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZO0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %v = call float @llvm.nvvm.ldu.global.f.f32.p0(ptr [[X0]], i32 4)
; align 1 on a 16-byte ldu: confined as 16-aligned.
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %q to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a16
; CHECK-NEXT:    [[ZO1:%.*]] = zext i32 [[O1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZO1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    %w = call <2 x i64> @llvm.nvvm.ldu.global.i.v2i64.p1(ptr addrspace(1) [[G1]], i32 1)
; A stack address given to ldu: confined to the arena, not to the stack object.
; CHECK-NEXT:    %s = getelementptr i32, ptr %stack, i64 %i
; CHECK-NEXT:    [[P2:%.*]] = ptrtoint ptr %s to i64
; CHECK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; CHECK-NEXT:    [[TO2:%.*]] = trunc i64 [[P2F]] to i32
; CHECK-NEXT:    [[O2:%.*]] = and i32 [[TO2]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[ZO2:%.*]] = zext i32 [[O2]] to i64
; CHECK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[ZO2]]
; CHECK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; CHECK-NEXT:    [[X2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; CHECK-NEXT:    %x = call i32 @llvm.nvvm.ldu.global.i.i32.p0(ptr [[X2]], i32 4)

; MOD-LABEL: define ptx_kernel void @ldu(
; MOD:         [[LIM0:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; MOD-NEXT:    [[LIM1:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 16
; MOD:         [[P0:%.*]] = ptrtoint ptr %a to i64
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
; MOD-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 [[LIM0]])
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD:         %v = call float @llvm.nvvm.ldu.global.f.f32.p0(
; MOD-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %q to i64
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
; MOD-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[M1]], i64 [[LIM1]])
; MOD-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -16
; MOD:         %w = call <2 x i64> @llvm.nvvm.ldu.global.i.v2i64.p1(

; PTX-LABEL: .entry ldu(
; PTX:         or.b64 [[A0:%rd[0-9]+]],
; PTX-NEXT:    cvta.global.u64 [[X0:%rd[0-9]+]], [[A0]];
; PTX-NEXT:    ldu.global.b32 {{%r[0-9]+}}, {{\[}}[[X0]]{{\]}};
; PTX:         or.b64 [[A1:%rd[0-9]+]],
; PTX-NEXT:    ldu.global.v2.b64 {{.*}}, {{\[}}[[A1]]{{\]}};
; PTX:         or.b64 [[A2:%rd[0-9]+]],
; PTX-NEXT:    cvta.global.u64 [[X2:%rd[0-9]+]], [[A2]];
; PTX-NEXT:    ldu.global.b32 {{%r[0-9]+}}, {{\[}}[[X2]]{{\]}};
