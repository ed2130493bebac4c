; elect.sync in a device function the kernel calls: refused in the kernel after
; inlining (the PTX validator refuses 'elect.sync'), with its reason.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': 'llvm.nvvm.elect.sync': elect.sync is not supported

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal i1 @leader(i32 %m) {
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 %m)
  %b = extractvalue { i32, i1 } %e, 1
  ret i1 %b
}

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %m) {
  %b = call i1 @leader(i32 %m)
  %z = zext i1 %b to i32
  store i32 %z, ptr addrspace(1) %out, align 4
  ret void
}

declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
