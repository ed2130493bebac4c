; elect.sync whose result nobody uses: still a warp-synchronous instruction the
; PTX validator refuses (no dead-code exception); atoll-mem refuses it.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': 'llvm.nvvm.elect.sync': elect.sync is not supported: %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k() {
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  ret void
}

declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
