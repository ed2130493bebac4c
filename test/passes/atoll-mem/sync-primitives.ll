; Synchronisation primitives (docs/passes.md, "Synchronisation primitives"): a
; barrier becomes the whole-CTA barrier 0 (non-.aligned), and every warp member
; mask becomes match.any.sync(%activemask, (mask | %lanemask_eq) & %activemask):
; on sm_90 a mask without the caller is an illegal-instruction fault, and a mask
; naming a lane that is not at the primitive, or one whose own mask differs,
; waits forever. Nanosleep is left as it is (explicit thread
; counts, elect.sync and the cluster registers are refused: sync-refusals.ll).
; Operands are frozen first (a poison mask or id would otherwise stay poison),
; and undef, poison and constant expressions are confined like run-time values.
; Legacy barrier names (llvm.nvvm.bar.sync, barrier.n, ...) are upgraded to
; barrier.cta.* by the IR reader and take the same rules.
; The entry checks (R6-F3) are left out here (preempt-entry-drain.ll tests them; a
; check may land between a mask and its collective, which is harmless: collectives
; wait only for lanes that have not exited, and the entry read is one warp-wide load).
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=16384 -S %s | FileCheck %s
; elect.sync needs PTX ISA 8.0 (the runtime sets RuntimeOptions::ptxVersion).
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=16384 %s -o - | %llc-sm90 -mattr=+ptx80 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @barriers(i32 %id, ptr %out) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %id)
  call void @llvm.nvvm.bar.sync(i32 %id)
  call void @llvm.nvvm.barrier.cta.sync.all(i32 15)
  call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
  store i32 %id, ptr %out, align 4
  ret void
}

; Every barrier becomes the non-.aligned whole-CTA barrier 0 (found by review: warps
; at barriers of different ids wait for each other forever, and no thread at a
; barrier sees a cancel; .aligned is undefined when a warp's threads reach different
; barrier instructions).
; CHECK-LABEL: define ptx_kernel void @barriers(
; CHECK:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NOT:     aligned

; PTX-LABEL: .entry barriers(
; PTX:         barrier.sync 0;
; PTX-NEXT:    barrier.sync 0;
; PTX-NEXT:    barrier.sync 0;
; PTX-NEXT:    barrier.sync 0;

define ptx_kernel void @warp(i32 %mask, i32 %v, i64 %w, ptr %out) {
  %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %v, i32 %v, i32 %v)
  %b = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float 1.0, i32 1, i32 31)
  %c = call i32 @llvm.nvvm.vote.ballot.sync(i32 %mask, i1 true)
  %d = call i32 @llvm.nvvm.match.any.sync.i64(i32 %mask, i64 %w)
  %e = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 %mask)
  call void @llvm.nvvm.bar.warp.sync(i32 %mask)
  call void @llvm.nvvm.nanosleep(i32 %v)
  %s0 = add i32 %a, %c
  %s1 = add i32 %s0, %d
  %s2 = add i32 %s1, %e
  %s3 = add i32 %s2, 0
  %fb = bitcast float %b to i32
  %s4 = add i32 %s3, %fb
  store i32 %s4, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @warp(
; CHECK:         [[A0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L0:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FM0:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[O0:%.*]] = or i32 [[FM0]], [[L0]]
; CHECK-NEXT:    [[MA0:%.*]] = and i32 [[O0]], [[A0]]
; CHECK-NEXT:    [[M0:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A0]], i32 [[MA0]])
; CHECK-NEXT:    %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 [[M0]], i32 %v, i32 %v, i32 %v)
; CHECK-NEXT:    [[AF:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    %b = call float @llvm.nvvm.shfl.sync.down.f32(i32 [[AF]], float 1.000000e+00, i32 1, i32 31)
; CHECK-NEXT:    [[A1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L1:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FM1:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[O1:%.*]] = or i32 [[FM1]], [[L1]]
; CHECK-NEXT:    [[MA1:%.*]] = and i32 [[O1]], [[A1]]
; CHECK-NEXT:    [[M1:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A1]], i32 [[MA1]])
; CHECK-NEXT:    %c = call i32 @llvm.nvvm.vote.ballot.sync(i32 [[M1]], i1 true)
; CHECK-NEXT:    [[A2:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L2:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FM2:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[O2:%.*]] = or i32 [[FM2]], [[L2]]
; CHECK-NEXT:    [[MA2:%.*]] = and i32 [[O2]], [[A2]]
; CHECK-NEXT:    [[M2:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A2]], i32 [[MA2]])
; CHECK-NEXT:    %d = call i32 @llvm.nvvm.match.any.sync.i64(i32 [[M2]], i64 %w)
; CHECK-NEXT:    [[A3:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L3:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FM3:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[O3:%.*]] = or i32 [[FM3]], [[L3]]
; CHECK-NEXT:    [[MA3:%.*]] = and i32 [[O3]], [[A3]]
; CHECK-NEXT:    [[M3:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A3]], i32 [[MA3]])
; CHECK-NEXT:    %e = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 [[M3]])
; CHECK-NEXT:    [[A4:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L4:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FM4:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[O4:%.*]] = or i32 [[FM4]], [[L4]]
; CHECK-NEXT:    [[MA4:%.*]] = and i32 [[O4]], [[A4]]
; CHECK-NEXT:    [[M4:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A4]], i32 [[MA4]])
; CHECK-NEXT:    call void @llvm.nvvm.bar.warp.sync(i32 [[M4]])
; CHECK-NEXT:    %atoll.cancel = load volatile i32
; CHECK:         call void @llvm.nvvm.nanosleep(i32 %v)

; Every mask the PTX hands a warp primitive is match.any.sync(%activemask,
; (mask | %lanemask_eq) & %activemask): it names the caller, only lanes executing
; the primitive with it, and every lane it names has the same mask (found by
; review, R3-F1: lanes at different primitives or with masks that disagree wait
; forever inside the instruction, where no cancel reaches them). The full mask
; becomes %activemask.
; PTX-LABEL: .entry warp(
; PTX:         activemask.b32 [[AM:%r[0-9]+]];
; PTX:         mov.u32 [[LM:%r[0-9]+]], %lanemask_eq;
; PTX:         or.b32 [[OR:%r[0-9]+]], {{%r[0-9]+}}, [[LM]];
; PTX:         and.b32 [[MN:%r[0-9]+]], [[OR]], [[AM]];
; PTX:         match.any.sync.b32 [[MK:%r[0-9]+]], [[MN]], [[AM]];
; PTX:         shfl.sync.idx.b32 {{.*}}, [[MK]];
; PTX:         activemask.b32 [[AM2:%r[0-9]+]];
; PTX:         shfl.sync.down.b32 {{.*}}, [[AM2]];
; PTX-NOT:     shfl.sync.down.b32 {{.*}}, -1;
; PTX:         vote.sync.ballot.b32
; PTX:         match.any.sync.b64
; PTX:         redux.sync.add.s32
; PTX:         bar.warp.sync
; PTX:         nanosleep.u32

@g = external addrspace(3) global i32

define ptx_kernel void @odd_constants(ptr %out) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 poison)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 ptrtoint (ptr addrspace(3) @g to i32))
  %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 poison, i32 1, i32 0, i32 31)
  store i32 %a, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @odd_constants(
; CHECK:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    [[A:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[L:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[P2:%.*]] = freeze i32 0
; CHECK-NEXT:    [[O:%.*]] = or i32 [[P2]], [[L]]
; CHECK-NEXT:    [[MA:%.*]] = and i32 [[O]], [[A]]
; CHECK-NEXT:    [[M:%.*]] = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A]], i32 [[MA]])
; CHECK-NEXT:    %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 [[M]], i32 1, i32 0, i32 31)

; The poison mask becomes zero (DefinedValues): the mask folds to
; %lanemask_eq & %activemask.
; PTX-LABEL: .entry odd_constants(
; PTX:         barrier.sync 0;
; PTX-NEXT:    barrier.sync 0;
; PTX-DAG:     activemask.b32 [[AM3:%r[0-9]+]];
; PTX-DAG:     mov.u32 [[LM2:%r[0-9]+]], %lanemask_eq;
; PTX:         and.b32 [[MN2:%r[0-9]+]], [[LM2]], [[AM3]];
; PTX:         match.any.sync.b32 [[MK2:%r[0-9]+]], [[MN2]], [[AM3]];
; PTX:         shfl.sync.idx.b32 {{.*}}, [[MK2]];

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.arrive.count(i32, i32)
declare i32 @llvm.nvvm.barrier.cta.red.popc.all(i32, i1)
declare void @llvm.nvvm.barrier.cta.sync.all(i32)
declare void @llvm.nvvm.bar.sync(i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare void @llvm.nvvm.nanosleep(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
