; Found by review (F3): a module layout where i64 is 4-aligned makes the signature
; of byval [64 x {i8, i64}] 768 bytes while the PTX parameter is 1024: the driver
; read 256 bytes past the caller's buffer. Any layout but the target's is refused.
target datalayout = "e-i64:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%S = type { i8, i64 }

define ptx_kernel void @data_layout(ptr %out, ptr byval([64 x %S]) align 8 %s, i64 %i) {
  %p = getelementptr [64 x %S], ptr %s, i64 0, i64 %i, i32 1
  %v = load i64, ptr %p, align 8
  store i64 %v, ptr %out, align 8
  ret void
}
