; A cmpxchg on a __constant__ element (generic pointer, run-time index): even an
; exchange that may not store is a write instruction on read-only memory; refused.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': write to read-only constant memory: %r = cmpxchg ptr %p, i32 0, i32 1 monotonic monotonic, align 4

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [16 x i32] zeroinitializer, align 16

define ptx_kernel void @k(i64 %i) {
  %g = addrspacecast ptr addrspace(4) @tab to ptr
  %p = getelementptr i32, ptr %g, i64 %i
  %r = cmpxchg ptr %p, i32 0, i32 1 monotonic monotonic, align 4
  ret void
}
