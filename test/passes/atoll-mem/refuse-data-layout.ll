; Found by review (F3): sizes computed with a layout other than the one codegen
; uses (i64 ABI align 4 without a layout: {i8, i64} is 12 bytes, in PTX 16) let a
; kernel's parameter be larger than the bytes the runtime packs. atoll-mem takes
; only the NVPTX layout; none, or any other, is refused with both strings.
; RUN: split-file %s %t
; opt itself gives a module without a layout the triple's (the toolchain does the same
; before reading any size; ToolchainTest covers it): accepted with NVPTX sizes.
; RUN: %opt-atoll -passes=atoll-mem -S %t/none.ll | FileCheck %s --check-prefix=NONE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/other.ll 2>&1 | FileCheck %s --check-prefix=OTHER
; RUN: %opt-atoll -passes=atoll-mem -S %t/nvptx.ll | FileCheck %s --check-prefix=OK

; NONE: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
; NONE: define ptx_kernel void @k(
; OTHER: error: atoll-mem: refused in 'k': module data layout 'e-i64:32-n16:32:64' is not the NVPTX target's
; OK: define ptx_kernel void @k(ptr %out, ptr byval([64 x { i8, i64 }]) align 8 %s, i64 %i, i64 %__atoll_arena_base

;--- none.ll
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, ptr byval([64 x {i8, i64}]) align 8 %s, i64 %i) {
  %p = getelementptr {i8, i64}, ptr %s, i64 %i, i32 1
  %v = load i64, ptr %p
  store i64 %v, ptr %out
  ret void
}

;--- other.ll
target datalayout = "e-i64:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, ptr byval([64 x {i8, i64}]) align 8 %s, i64 %i) {
  %p = getelementptr {i8, i64}, ptr %s, i64 %i, i32 1
  %v = load i64, ptr %p
  store i64 %v, ptr %out
  ret void
}

;--- nvptx.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, ptr byval([64 x {i8, i64}]) align 8 %s, i64 %i) {
  %p = getelementptr {i8, i64}, ptr %s, i64 %i, i32 1
  %v = load i64, ptr %p
  store i64 %v, ptr %out
  ret void
}
