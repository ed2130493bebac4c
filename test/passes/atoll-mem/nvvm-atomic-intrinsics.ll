; Scoped NVVM atomic intrinsics (llvm.nvvm.atomic.*): global operands go to the
; arena, shared ones into their object; their size is the result type's, their
; alignment that size.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@cnt = internal addrspace(3) global [16 x i32] undef, align 4

define ptx_kernel void @scoped(ptr %p, ptr addrspace(1) %g, i64 %i, ptr %out) {
  %a = getelementptr i32, ptr %p, i64 %i
  %r0 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %a, i32 1)
  %r1 = call i64 @llvm.nvvm.atomic.cas.gen.i.sys.i64.p1(ptr addrspace(1) %g, i64 0, i64 1)
  %c = getelementptr i32, ptr addrspace(3) @cnt, i64 %i
  %cg = addrspacecast ptr addrspace(3) %c to ptr
  %r2 = call i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr %cg, i32 %r0)
  %r3 = call float @llvm.nvvm.atomic.add.gen.f.sys.f32.p0(ptr %p, float 1.0)
  store i32 %r2, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @scoped(
; CHECK:         %a = getelementptr i32, ptr %p, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; CHECK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[ZO0:%.*]] = zext i32 [[O0]] to i64
; CHECK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZO0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; CHECK-NEXT:    %r0 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr [[X0]], i32 1)
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %g to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; CHECK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a8
; CHECK-NEXT:    [[ZO1:%.*]] = zext i32 [[O1]] to i64
; CHECK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZO1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    %r1 = call i64 @llvm.nvvm.atomic.cas.gen.i.sys.i64.p1(ptr addrspace(1) [[G1]], i64 0, i64 1)
; A generic pointer into the 64-byte shared object: offset <= 60, in generic space.
; CHECK-NEXT:    %c = getelementptr i32, ptr addrspace(3) @cnt, i64 %i
; CHECK-NEXT:    %cg = addrspacecast ptr addrspace(3) %c to ptr
; CHECK-NEXT:    [[O2:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 60)
; CHECK-NEXT:    [[AL2:%.*]] = and i32 [[C2]], -4
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[AL2]] to i64
; CHECK-NEXT:    [[X2:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @cnt to ptr), i64 [[Z2]]
; CHECK-NEXT:    %r2 = call i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr [[X2]], i32 %r0)
; CHECK-NEXT:    [[P3:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[P3F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P3]]
; CHECK-NEXT:    [[TO3:%.*]] = trunc i64 [[P3F]] to i32
; CHECK-NEXT:    [[O3:%.*]] = and i32 [[TO3]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[ZO3:%.*]] = zext i32 [[O3]] to i64
; CHECK-NEXT:    [[A3:%.*]] = or i64 %atoll.arena.base, [[ZO3]]
; CHECK-NEXT:    [[G3:%.*]] = inttoptr i64 [[A3]] to ptr addrspace(1)
; CHECK-NEXT:    [[X3:%.*]] = addrspacecast ptr addrspace(1) [[G3]] to ptr
; CHECK-NEXT:    %r3 = call float @llvm.nvvm.atomic.add.gen.f.sys.f32.p0(ptr [[X3]], float 1.000000e+00)

; MOD-LABEL: define ptx_kernel void @scoped(
; MOD-NEXT:    [[LIM0:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; MOD-NEXT:    [[LIM1:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
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
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD:         %r0 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(
; MOD-NEXT:    [[P1:%.*]] = ptrtoint ptr addrspace(1) %g to i64
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
; MOD-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; MOD:         %r1 = call i64 @llvm.nvvm.atomic.cas.gen.i.sys.i64.p1(

; PTX-LABEL: .entry scoped(
; PTX:         or.b64 [[A0:%rd[0-9]+]],
; PTX-NEXT:    cvta.global.u64 [[X0:%rd[0-9]+]], [[A0]];
; PTX-NEXT:    atom.cta.add.s32 {{%r[0-9]+}}, {{\[}}[[X0]]{{\]}}, 1;
; PTX:         or.b64 [[A1:%rd[0-9]+]],
; PTX-NEXT:    atom.sys.cas.b64 {{%rd[0-9]+}}, {{\[}}[[A1]]{{\]}}, 0, 1;
; PTX:         min.u32 [[M2:%r[0-9]+]], {{%r[0-9]+}}, 60;
; PTX-NEXT:    and.b32 [[M2A:%r[0-9]+]], [[M2]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[O2:%rd[0-9]+]], [[M2A]];
; PTX:         add.s64 [[A2:%rd[0-9]+]], {{%rd[0-9]+}}, [[O2]];
; PTX-NEXT:    atom.cta.max.s32 {{%r[0-9]+}}, {{\[}}[[A2]]{{\]}},
; The system-scope float add is a generic `atom.sys.add.f32`, a compare-and-swap
; loop in SASS (R7-F2): atoll-mem makes it a checked loop of its own on the same
; confined address, with the same scope (atomics-non-native.ll).
; PTX:         or.b64 [[A3:%rd[0-9]+]],
; PTX:       {{^}}$L__BB0_{{[0-9]+}}: // %atomicrmw.start
; PTX:         add.rn.f32 [[N3:%r[0-9]+]], {{%r[0-9]+}}, 0f3F800000;
; PTX-NEXT:    atom.relaxed.sys.global.cas.b32 {{%r[0-9]+}}, {{\[}}[[A3]]{{\]}}, {{%r[0-9]+}}, [[N3]];
