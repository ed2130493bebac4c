; A store whose address is a constant expression (the generic address of a
; __constant__ element, no instruction computes it): traced to the constant
; object all the same, and refused as a write to read-only memory.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': write to read-only constant memory: store i32 7, ptr getelementptr inbounds (i8, ptr addrspacecast (ptr addrspace(4) @tab to ptr), i64 8), align 4

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [16 x i32] zeroinitializer, align 16

define ptx_kernel void @k() {
  store i32 7, ptr getelementptr inbounds (i8, ptr addrspacecast (ptr addrspace(4) @tab to ptr), i64 8), align 4
  ret void
}
