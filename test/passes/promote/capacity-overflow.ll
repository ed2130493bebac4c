; The bank total cannot wrap (found by review, F6): sizes near 2^64 once summed to
; 0 and were accepted, then crashed NVPTX codegen. Any single object larger than
; the bank is refused on its own, and every sum saturates.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/wrap.ll 2>&1 | FileCheck %s --check-prefix=WRAP
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/one-over.ll 2>&1 | FileCheck %s --check-prefix=ONE
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/align-wrap.ll 2>&1 | FileCheck %s --check-prefix=ALIGN
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/exact.ll | FileCheck %s --check-prefix=EXACT

; WRAP: error: promote-ptx-constant-globals: refused global 'a': object of 4294967296 bytes is larger than the 65536-byte constant bank
; ONE: error: promote-ptx-constant-globals: refused global 'big': object of 65537 bytes is larger than the 65536-byte constant bank
; ALIGN: error: promote-ptx-constant-globals: refused global 'huge': object of 18446744073709551615 bytes is larger than the 65536-byte constant bank
; EXACT: @full = internal addrspace(4) constant [65536 x i8]

;--- wrap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(4) constant { i8, [4294967295 x i8] } { i8 1, [4294967295 x i8] zeroinitializer }, align 1
@b = internal addrspace(4) constant { i8, [18446744069414584319 x i8] } { i8 2, [18446744069414584319 x i8] zeroinitializer }, align 1
define ptx_kernel void @k(ptr %out, i64 %i, i64 %j) {
  %p = getelementptr i8, ptr addrspace(4) @a, i64 %i
  %v = load volatile i8, ptr addrspace(4) %p
  %q = getelementptr i8, ptr addrspace(4) @b, i64 %j
  %w = load volatile i8, ptr addrspace(4) %q
  %s = add i8 %v, %w
  store i8 %s, ptr %out
  ret void
}

;--- one-over.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@big = internal constant [65537 x i8] zeroinitializer, align 1
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i8, ptr @big, i64 %i
  %v = load i8, ptr %p
  store i8 %v, ptr %out
  ret void
}

;--- align-wrap.ll
; alignTo(2^64 - 2, 4) wraps to 0: the size saturates instead.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@huge = internal constant [18446744073709551614 x i8] zeroinitializer, align 4
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i8, ptr @huge, i64 %i
  %v = load i8, ptr %p
  store i8 %v, ptr %out
  ret void
}

;--- exact.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@full = internal constant [65536 x i8] zeroinitializer, align 1
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i8, ptr @full, i64 %i
  %v = load i8, ptr %p
  store i8 %v, ptr %out
  ret void
}
