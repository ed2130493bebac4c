; %clusterid.x read in a device function that the kernel calls: refused once the
; function is inlined into the kernel (the refusal names the kernel).
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': 'llvm.nvvm.read.ptx.sreg.clusterid.x': cluster special register (kernels are launched without a cluster)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal i32 @which() {
  %c = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  ret i32 %c
}

define ptx_kernel void @k(ptr addrspace(1) %out) {
  %c = call i32 @which()
  store i32 %c, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
