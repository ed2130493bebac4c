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
; CHECK:       %atoll.warp.mask = call i32 @llvm.nvvm.match.any.sync.i32(
; CHECK-NEXT:  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 %atoll.warp.mask, i1 true)
; CHECK:       %atoll.warp.mask1 = call i32 @llvm.nvvm.match.any.sync.i32(
; CHECK-NEXT:  %s = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 %atoll.warp.mask1)
; CHECK:       %atoll.warp.mask2 = call i32 @llvm.nvvm.match.any.sync.i32(
; CHECK-NEXT:  %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 %atoll.warp.mask2, i32 %v)
; The full mask becomes %activemask (no match needed: it is the same in every lane).
; CHECK-NEXT:  %atoll.warp.mask3 = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  %f = call i32 @llvm.nvvm.vote.ballot.sync(i32 %atoll.warp.mask3, i1 true)
; Four confined: the full mask too (it becomes %activemask).
; VERBOSE-COUNT-4: synchronisation operand confined
; VERBOSE-NOT: synchronisation operand confined
