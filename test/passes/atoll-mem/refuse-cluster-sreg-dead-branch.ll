; %clusterid.x on a path no launch takes (a branch on a kernel argument that is
; never true): refused all the same (the tenant controls dead code; the PTX
; validator would refuse the register in any block).
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': 'llvm.nvvm.read.ptx.sreg.clusterid.x': cluster special register (kernels are launched without a cluster): %c = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out, i1 %never) {
entry:
  br i1 %never, label %odd, label %done
odd:
  %c = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  store i32 %c, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
