; One byte over the bank is refused; the message gives the total and names the
; three largest globals (existing __constant__ data counts). Over-aligned globals
; count their padding.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/over.ll 2>&1 | FileCheck %s --check-prefix=OVER
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/aligned.ll 2>&1 | FileCheck %s --check-prefix=ALIGNED

; OVER: error: promote-ptx-constant-globals: refused global 'big': constant memory over capacity: 65537 bytes (16384 already constant, 49153 to promote) exceed the 65536-byte constant bank; largest: 'big' (32768 bytes), 'c' (16384 bytes), 'mid' (16380 bytes)
; ALIGNED: error: promote-ptx-constant-globals: refused global 'a': constant memory over capacity: 65552 bytes (0 already constant, 65552 to promote) exceed the 65536-byte constant bank; largest: 'a' (65520 bytes), 'b' (16 bytes), 'c' (16 bytes)

;--- over.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@c = addrspace(4) externally_initialized constant [4096 x i32] zeroinitializer, align 4
@big = internal addrspace(1) constant [4096 x i64] zeroinitializer, align 8
@mid = internal constant [16380 x i8] zeroinitializer, align 1
@small = internal constant [5 x i8] zeroinitializer, align 1
define ptx_kernel void @k(ptr %out, i64 %i) {
  %q = getelementptr i64, ptr addrspace(1) @big, i64 %i
  %b = load i64, ptr addrspace(1) %q, align 8
  %r = getelementptr i8, ptr @mid, i64 %i
  %m = load i8, ptr %r, align 1
  %s = getelementptr i8, ptr @small, i64 %i
  %n = load i8, ptr %s, align 1
  %mz = zext i8 %m to i64
  %nz = zext i8 %n to i64
  %t = add i64 %b, %mz
  %u = add i64 %t, %nz
  store i64 %u, ptr %out, align 8
  ret void
}

;--- aligned.ll
; 65520 + 1 + 1 bytes of data, but 'b' and 'c' are 16-byte aligned.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@a = internal constant [65520 x i8] zeroinitializer, align 16
@b = internal constant i8 1, align 16
@c = internal constant i8 2, align 16
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i8, ptr @a, i64 %i
  %x = load i8, ptr %p, align 1
  %y = load i8, ptr @b, align 1
  %z = load i8, ptr @c, align 1
  %s = add i8 %x, %y
  %t = add i8 %s, %z
  store i8 %t, ptr %out, align 1
  ret void
}
