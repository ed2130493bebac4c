; One byte under the bank: 65535 bytes of constant data fit.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@a = internal addrspace(1) constant [65534 x i8] zeroinitializer, align 1
@b = internal constant i8 1, align 1

; CHECK: @a = internal addrspace(4) constant [65534 x i8]
; CHECK: @b = internal addrspace(4) constant i8 1

define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i8, ptr addrspace(1) @a, i64 %i
  %x = load i8, ptr addrspace(1) %p, align 1
  %y = load i8, ptr @b, align 1
  %s = add i8 %x, %y
  store i8 %s, ptr %out, align 1
  ret void
}
