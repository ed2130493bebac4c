; elect.sync with a run-time member mask, in a loop (one leader a round): a
; member mask the sync rules would have to confine, but elect.sync has no such
; rule (the PTX validator refuses it): refused, not confined.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': 'llvm.nvvm.elect.sync': elect.sync is not supported: %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 %m)
; CHECK-NOT: synchronisation operand confined

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %mask, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %m = lshr i32 %mask, %i
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 %m)
  %l = extractvalue { i32, i1 } %e, 0
  store i32 %l, ptr addrspace(1) %out, align 4
  %j = add i32 %i, 1
  %d = icmp eq i32 %j, %n
  br i1 %d, label %exit, label %loop
exit:
  ret void
}

declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
