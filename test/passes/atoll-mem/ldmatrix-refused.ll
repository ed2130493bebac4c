; ldmatrix through an addrspace(1) pointer has no NVPTX lowering and is not a
; shared-memory access: refused.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ldm_global(ptr addrspace(1) %g) {
  %x = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p1(ptr addrspace(1) %g)
  ret void
}
; CHECK: error: atoll-mem: refused in 'ldm_global': memory access of an unsupported form: %x = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p1(ptr addrspace(1) %g)
