; Running the pass twice would append the hidden parameters twice: an already
; hardened kernel is refused. A module for another target is refused before
; anything is touched.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -passes=atoll-mem %t/kernel.ll -o %t/once.bc
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/once.bc 2>&1 | FileCheck %s --check-prefix=TWICE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/x86.ll 2>&1 | FileCheck %s --check-prefix=TARGET
; TWICE: error: atoll-mem: refused in 'k': kernel is already hardened
; TARGET: error: atoll-mem: refused in 'host_fn': module target 'x86_64-unknown-linux-gnu' is not nvptx64-nvidia-cuda

;--- kernel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}
;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"
define void @host_fn(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}
