; A single store wider than every window (512 bytes; the smallest window, the
; shared pad, holds 256): the clamp limit (window - size) would wrap, so it is
; refused, here into the dynamic shared window, with the size in the message.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': access of 512 bytes is too large: store <128 x i32> %v, ptr addrspace(3) %p, align 16

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k(i64 %i, i32 %x) {
  %h = insertelement <128 x i32> poison, i32 %x, i64 0
  %v = shufflevector <128 x i32> %h, <128 x i32> poison, <128 x i32> zeroinitializer
  %p = getelementptr <128 x i32>, ptr addrspace(3) @dyn, i64 %i
  store <128 x i32> %v, ptr addrspace(3) %p, align 16
  ret void
}
