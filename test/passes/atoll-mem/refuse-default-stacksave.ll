; llvm.stacksave reads the stack pointer (a local address the pass cannot confine).
; Deny by default: an intrinsic without a row in the table that may access memory
; is refused (IntrinsicTable.cpp, the last generic rule), with its name.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': intrinsic 'llvm.stacksave.p0' may access memory: %r = call ptr @llvm.stacksave.p0()

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k() {
  %r = call ptr @llvm.stacksave.p0()
  ret void
}

declare ptr @llvm.stacksave.p0()
