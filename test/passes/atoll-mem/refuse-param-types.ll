; Found by review (F3): a parameter whose PTX layout is not its memory layout
; (<5 x i4>: a 4-byte .param read at +8; <N x i1>; odd-width integers) is refused;
; every other scalar/vector parameter is recorded at its allocation size.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/i4vec.ll 2>&1 | FileCheck %s --check-prefix=I4VEC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/i1vec.ll 2>&1 | FileCheck %s --check-prefix=I1VEC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/i24.ll 2>&1 | FileCheck %s --check-prefix=I24
; RUN: %opt-atoll -passes=atoll-mem -S %t/ok.ll | FileCheck %s --check-prefix=OK

; I4VEC: error: atoll-mem: refused in 'k': kernel parameter 1 has type <5 x i4> (parameters must be pointers, byval, or scalars/vectors of i1 (scalar only), i8-i128 or floating point)
; I1VEC: error: atoll-mem: refused in 'k': kernel parameter 0 has type <4 x i1>
; I24: error: atoll-mem: refused in 'k': kernel parameter 1 has type i24
; OK: define ptx_kernel void @k(ptr %out, i1 %b, <3 x half> %h, <3 x i32> %v, i8 %c, i16 %s, { i8, i64 } %st, [3 x i16] %a,

;--- i4vec.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, <5 x i4> %n) {
  %e = extractelement <5 x i4> %n, i32 4
  store i4 %e, ptr %out
  ret void
}

;--- i1vec.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(<4 x i1> %m, ptr %out) {
  %e = extractelement <4 x i1> %m, i32 3
  store i1 %e, ptr %out
  ret void
}

;--- i24.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i24 %x) {
  store i24 %x, ptr %out
  ret void
}

;--- ok.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i1 %b, <3 x half> %h, <3 x i32> %v, i8 %c, i16 %s, {i8, i64} %st, [3 x i16] %a, <2 x double> %d) {
  %z = zext i1 %b to i32
  store i32 %z, ptr %out
  ret void
}
