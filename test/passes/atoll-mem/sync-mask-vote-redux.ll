; Member masks are confined wherever the intrinsic takes them: argument 0 of
; vote.sync and match.sync, argument 1 of redux.sync (the table's MaskArg0 and
; MaskArg1 rows). A constant all-ones mask is left alone.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @masks(ptr %out, i32 %mask, i32 %v) {
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 %mask, i1 true)
  %s = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 %mask)
  %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 %mask, i32 %v)
  %f = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  %t0 = add i32 %b, %s
  %t1 = add i32 %t0, %m
  %t2 = add i32 %t1, %f
  store i32 %t2, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)

; CHECK-LABEL: define ptx_kernel void @masks(
; Each mask: (frozen mask | own lane) & active lanes, partitioned by match.any.
; CHECK:       [[A0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  [[E0:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:  [[F0:%.*]] = freeze i32 %mask
; CHECK-NEXT:  [[O0:%.*]] = or i32 [[F0]], [[E0]]
; CHECK-NEXT:  [[M0:%.*]] = and i32 [[O0]], [[A0]]
; CHECK-NEXT:  %atoll.warp.mask = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A0]], i32 [[M0]])
; CHECK-NEXT:  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 %atoll.warp.mask, i1 true)
; CHECK-NEXT:  [[A1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  [[E1:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:  [[F1:%.*]] = freeze i32 %mask
; CHECK-NEXT:  [[O1:%.*]] = or i32 [[F1]], [[E1]]
; CHECK-NEXT:  [[M1:%.*]] = and i32 [[O1]], [[A1]]
; CHECK-NEXT:  %atoll.warp.mask1 = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A1]], i32 [[M1]])
; CHECK-NEXT:  %s = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 %atoll.warp.mask1)
; CHECK-NEXT:  [[A2:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  [[E2:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:  [[F2:%.*]] = freeze i32 %mask
; CHECK-NEXT:  [[O2:%.*]] = or i32 [[F2]], [[E2]]
; CHECK-NEXT:  [[M2:%.*]] = and i32 [[O2]], [[A2]]
; CHECK-NEXT:  %atoll.warp.mask2 = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A2]], i32 [[M2]])
; CHECK-NEXT:  %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 %atoll.warp.mask2, i32 %v)
; The full mask becomes %activemask (no match needed: it is the same in every lane).
; CHECK-NEXT:  %atoll.warp.mask3 = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  %f = call i32 @llvm.nvvm.vote.ballot.sync(i32 %atoll.warp.mask3, i1 true)
; Four confined: the full mask too (it becomes %activemask).
; VERBOSE-COUNT-4: synchronisation operand confined
; VERBOSE-NOT: synchronisation operand confined
