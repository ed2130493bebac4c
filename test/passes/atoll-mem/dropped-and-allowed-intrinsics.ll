; Intrinsics without a memory access to confine: prefetches and lifetime markers
; are dropped (a prefetch of a forged address is pointless, a lifetime marker
; would let LLVM treat the zeroed stack as undefined); barriers, fences, warp
; primitives (their full member masks become %activemask: sync-primitives.ll),
; special registers, isspacep and pure math are kept unchanged.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @intrinsics(ptr %p, i32 %x, ptr %out) {
  %a = alloca [4 x i32], align 4
  call void @llvm.lifetime.start.p0(ptr %a)
  call void @llvm.prefetch.p0(ptr %p, i32 0, i32 3, i32 1)
  call void @llvm.nvvm.prefetch.global.L2(ptr addrspace(1) null)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sh = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 1, i32 31)
  %vote = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  fence syncscope("block") seq_cst
  %isg = call i1 @llvm.nvvm.isspacep.global(ptr %p)
  %m = call i32 @llvm.umax.i32(i32 %sh, i32 %vote)
  %s = select i1 %isg, i32 %m, i32 %tid
  store i32 %s, ptr %out, align 4
  call void @llvm.lifetime.end.p0(ptr %a)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @intrinsics(
; CHECK-NOT:     lifetime
; CHECK-NOT:     prefetch
; CHECK:         %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    [[A0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    %sh = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 [[A0]], i32 %x, i32 1, i32 31)
; CHECK-NEXT:    [[A1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    %vote = call i32 @llvm.nvvm.vote.ballot.sync(i32 [[A1]], i1 true)
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    fence syncscope("block") seq_cst
; CHECK-NEXT:    %isg = call i1 @llvm.nvvm.isspacep.global(ptr %p)
; CHECK-NEXT:    %m = call i32 @llvm.umax.i32(i32 %sh, i32 %vote)
; CHECK-NOT:     lifetime
; CHECK-NOT:     prefetch
; CHECK:         ret void
