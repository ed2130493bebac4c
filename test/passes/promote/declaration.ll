; Storage declared but not defined in the module (extern __device__ or
; __constant__ without a definition) cannot be proven read-only or counted
; against the bank: refused.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/global.ll 2>&1 | FileCheck %s --check-prefix=GLOBAL
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/const.ll 2>&1 | FileCheck %s --check-prefix=CONST

; GLOBAL: error: promote-ptx-constant-globals: refused global 'elsewhere': declared but not defined: a module must define all of its storage
; CONST: error: promote-ptx-constant-globals: refused global 'cext': declared but not defined: a module must define all of its storage

;--- global.ll
target triple = "nvptx64-nvidia-cuda"
@elsewhere = external addrspace(1) global i32, align 4
define ptx_kernel void @k(ptr %out) {
  %v = load i32, ptr addrspace(1) @elsewhere, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- const.ll
target triple = "nvptx64-nvidia-cuda"
@cext = external addrspace(4) global [4 x i32], align 4
define ptx_kernel void @k(ptr %out) {
  %v = load i32, ptr addrspace(4) @cext, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
