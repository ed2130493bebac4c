; cp.async (4, 8, 16 bytes; .ca and .cg; with and without the src-size operand):
; the shared destination is confined into its static object or the shared window,
; the global source into the arena, each to the copy's size and alignment.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i8] undef, align 16
@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @stage(ptr addrspace(1) %src, i64 %i, i32 %n) {
  %d4 = getelementptr i8, ptr addrspace(3) @tile, i64 %i
  %s4 = getelementptr i8, ptr addrspace(1) %src, i64 %i
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %d4, ptr addrspace(1) %s4)
  call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) %d4, ptr addrspace(1) %s4, i32 4)
  %d16 = getelementptr i8, ptr addrspace(3) @dyn, i64 %i
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %d16, ptr addrspace(1) %s4)
  call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) %d16, ptr addrspace(1) %src, i32 %n)
  call void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3) %d4, ptr addrspace(1) %src, i32 100)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.all()
  ret void
}

; CHECK-LABEL: define ptx_kernel void @stage(
; CHECK:         %atoll.smem.lo = zext i32 %atoll.smem.cap to i64
; CHECK:         %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; CHECK-NEXT:    [[SLIM:%atoll.smem.lim]] = sub i64 %atoll.smem.bytes, 16
; CHECK:       atoll.body:
; 4 bytes into the 256-byte object (offset <= 252, 4-aligned, 32-bit) from the arena.
; CHECK:         [[DT0:%.*]] = trunc i64 {{%.*}} to i32
; CHECK-NEXT:    [[OPQDT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[DT0]])
; CHECK-NEXT:    [[DC0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQDT0]], i32 252)
; CHECK-NEXT:    [[DA0:%.*]] = and i32 [[DC0]], -4
; CHECK-NEXT:    [[DZ0:%.*]] = zext i32 [[DA0]] to i64
; CHECK-NEXT:    [[DP0:%.*]] = getelementptr i8, ptr addrspace(3) @tile, i64 [[DZ0]]
; CHECK-NEXT:    [[S0:%.*]] = ptrtoint ptr addrspace(1) %s4 to i64
; CHECK-NEXT:    [[S0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[S0]]
; CHECK-NEXT:    [[ST0:%.*]] = trunc i64 [[S0F]] to i32
; CHECK-NEXT:    [[SO0:%.*]] = and i32 [[ST0]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[SZ0:%.*]] = zext i32 [[SO0]] to i64
; CHECK-NEXT:    [[SA0:%.*]] = or i64 %atoll.arena.base, [[SZ0]]
; CHECK-NEXT:    [[SP0:%.*]] = inttoptr i64 [[SA0]] to ptr addrspace(1)
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) [[DP0]], ptr addrspace(1) [[SP0]])
; 8 bytes: offset <= 248, 8-aligned; the constant src-size 4 is kept.
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 248)
; CHECK-NEXT:    and i32 {{%.*}}, -8
; CHECK:         and i32 {{%.*}}, %atoll.arena.mask.a8
; CHECK:         call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) {{%.*}}, ptr addrspace(1) {{%.*}}, i32 4)
; 16 bytes into the dynamic window: lo + zext(umin(trunc(p - lo), trunc(bytes - 16)) & -16).
; CHECK:         [[D2:%.*]] = ptrtoint ptr addrspace(3) %d16 to i64
; CHECK-NEXT:         [[D2F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[D2]]
; CHECK-NEXT:    [[DO2:%.*]] = sub i64 [[D2F]], %atoll.smem.lo
; CHECK-NEXT:    [[DT2:%.*]] = trunc i64 [[DO2]] to i32
; CHECK-NEXT:    [[DL2:%.*]] = trunc i64 [[SLIM]] to i32
; CHECK-NEXT:    [[DC2:%.*]] = call i32 @llvm.umin.i32(i32 [[DT2]], i32 [[DL2]])
; CHECK-NEXT:    [[DA2:%.*]] = and i32 [[DC2]], -16
; CHECK-NEXT:    [[DZ2:%.*]] = zext i32 [[DA2]] to i64
; CHECK-NEXT:    [[DS2:%.*]] = add i64 %atoll.smem.lo, [[DZ2]]
; CHECK-NEXT:    [[DP2:%.*]] = inttoptr i64 [[DS2]] to ptr addrspace(3)
; CHECK-NEXT:    [[S2:%.*]] = ptrtoint ptr addrspace(1) %s4 to i64
; CHECK-NEXT:    [[S2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[S2]]
; CHECK-NEXT:    [[ST2:%.*]] = trunc i64 [[S2F]] to i32
; CHECK-NEXT:    [[SO2:%.*]] = and i32 [[ST2]], %atoll.arena.mask.a16
; CHECK-NEXT:    [[SZ2:%.*]] = zext i32 [[SO2]] to i64
; CHECK-NEXT:    [[SA2:%.*]] = or i64 %atoll.arena.base, [[SZ2]]
; CHECK-NEXT:    [[SP2:%.*]] = inttoptr i64 [[SA2]] to ptr addrspace(1)
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) [[DP2]], ptr addrspace(1) [[SP2]])
; A run-time src-size: umin with 16.
; CHECK-NEXT:    [[SF0:%[0-9]+]] = freeze i32 %n
; CHECK-NEXT:    [[N:%atoll.src.size[0-9]*]] = call i32 @llvm.umin.i32(i32 [[SF0]], i32 16)
; CHECK:         call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) {{%.*}}, ptr addrspace(1) {{%.*}}, i32 [[N]])
; A constant src-size of 100 on a 4-byte copy becomes 4.
; CHECK:         call void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3) {{%.*}}, ptr addrspace(1) {{%.*}}, i32 4)
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.commit.group()
; CHECK-NEXT:    call void @llvm.nvvm.cp.async.wait.all()

; MOD-LABEL: define ptx_kernel void @stage(
; MOD:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 252)
; MOD:         [[P:%.*]] = ptrtoint ptr addrspace(1) %s4 to i64
; MOD-NEXT:         [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; MOD-NEXT:    [[REL:%atoll.rel[0-9]*]] = sub i64 [[PF]], %__atoll_arena_base
; MOD-NEXT:    [[W:%atoll.wild[0-9]*]] = icmp uge i64 [[REL]], %__atoll_arena_size
; MOD-NEXT:    br i1 [[W]], label %[[WRAP:atoll.wrap[0-9]*]], label %[[TAIL:[0-9]+]], !prof
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[WRAP]]:
; MOD-NEXT:    [[M:%atoll.wrapped[0-9]*]] = urem i64 [[REL]], %__atoll_arena_size
; MOD-NEXT:    br label %[[TAIL]]
; MOD-EMPTY:
; MOD-NEXT:  {{^}}[[TAIL]]:
; MOD-NEXT:    [[R:%atoll.off[0-9]*]] = phi i64 [ [[REL]], %atoll.body ], [ [[M]], %[[WRAP]] ]
; MOD-NEXT:    [[C:%.*]] = call i64 @llvm.umin.i64(i64 [[R]], i64 %atoll.lim)
; MOD-NEXT:    [[AL:%.*]] = and i64 [[C]], -4
; MOD-NEXT:    [[A:%.*]] = add i64 %__atoll_arena_base, [[AL]]
; MOD-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; MOD-NEXT:    call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) {{%.*}}, ptr addrspace(1) [[G]])

; PTX-LABEL: .entry stage(
; PTX:         or.b64 [[S0:%rd[0-9]+]],
; PTX-NEXT:    cp.async.ca.shared.global [{{%rd[0-9]+}}], {{\[}}[[S0]]{{\]}}, 4;
; PTX:         or.b64 [[S1:%rd[0-9]+]],
; PTX-NEXT:    cp.async.ca.shared.global [{{%rd[0-9]+}}], {{\[}}[[S1]]{{\]}}, 8, 4;
; PTX:         cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16;
; PTX:         min.u32 [[N:%r[0-9]+]], {{%r[0-9]+}}, 16;
; PTX:         cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16, [[N]];
; PTX:         cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, 4;
