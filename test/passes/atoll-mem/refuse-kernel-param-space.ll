; Kernel pointer parameters must be generic or global: the runtime passes arena
; buffers, and the driver's JIT rejects `.ptr .shared` kernel parameters.
; opt stops at the first error; atoll-harden reports every refusal of the module.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s --check-prefix=OPT
; RUN: not %atoll-harden %s -o %t.ll 2>&1 | FileCheck %s
; OPT: atoll-mem: refused in 'shared_param': kernel parameter 0 is a pointer into address space 3 (kernel pointer parameters must be generic or global)
; CHECK: atoll-mem: refused in 'shared_param': kernel parameter 0 is a pointer into address space 3 (kernel pointer parameters must be generic or global)
; CHECK: atoll-mem: refused in 'local_param': kernel parameter 1 is a pointer into address space 5
; CHECK-NOT: refused in 'global_param'
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shared_param(ptr addrspace(3) %s, i32 %v) {
  store i32 %v, ptr addrspace(3) %s, align 4
  ret void
}

define ptx_kernel void @local_param(i32 %v, ptr addrspace(5) %l) {
  store i32 %v, ptr addrspace(5) %l, align 4
  ret void
}

define ptx_kernel void @global_param(ptr addrspace(1) %g, ptr %p, i32 %v) {
  store i32 %v, ptr addrspace(1) %g, align 4
  store i32 %v, ptr %p, align 4
  ret void
}
