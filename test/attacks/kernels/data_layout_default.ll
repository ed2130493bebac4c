; Found by review (F3): a module without `target datalayout`. Its signature was
; computed with LLVM's default layout (i64 4-aligned: byval [64 x {i8, i64}] 768
; bytes) while the PTX parameter is 1024: the kernel read 256 bytes past the
; caller's argument buffer. Now the module gets the target's layout before any
; size is read: the signature is 1024 bytes and every i64 read is the caller's
; (all zero).
target triple = "nvptx64-nvidia-cuda"

%S = type { i8, i64 }

define ptx_kernel void @data_layout_default(ptr byval([64 x %S]) align 8 %s, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %t, 63
  %p = getelementptr [64 x %S], ptr %s, i64 0, i32 %i, i32 1
  %v = load i64, ptr %p, align 8
  %o = getelementptr i64, ptr %out, i32 %i
  store i64 %v, ptr %o, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
