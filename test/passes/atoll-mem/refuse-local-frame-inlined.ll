; R5-F4: the frame limit counts the kernel's stack after inlining: a device
; function's 32 KiB array joins its caller's frame and is refused like the
; kernel's own (max-local-bytes=, 16 KiB by default); a larger limit accepts it.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<max-local-bytes=65536>' -disable-output %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal i32 @helper(i64 %i) {
  %buf = alloca [8192 x i32], align 4
  %p = getelementptr i32, ptr %buf, i64 %i
  store i32 1, ptr %p, align 4
  %v = load i32, ptr %buf, align 4
  ret i32 %v
}

define ptx_kernel void @k(ptr addrspace(1) %out, i64 %i) {
  %v = call i32 @helper(i64 %i)
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK: error: atoll-mem: refused in 'k': the kernel's stack frame is 32768 bytes per thread (at most 16384: local memory is reserved for every resident thread of the device, outside every arena)
