; Review R5-F4: 409,600 bytes of stack per thread. The driver reserves local
; memory for every resident thread of the device (measured on the H200: free
; memory 139.3 -> 36.4 GiB, and the launch waited 1.9 s for another tenant's
; kernel while the reservation grew). Refused: the frame is at most 16 KiB.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @big_local(ptr %out, i64 %i) {
  %a = alloca [409600 x i8], align 16
  %p = getelementptr i8, ptr %a, i64 %i
  store volatile i8 1, ptr %p
  %v = load volatile i8, ptr %a
  store i8 %v, ptr %out
  ret void
}
