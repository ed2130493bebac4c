; Module-level inline asm is copied into the PTX unchecked: it could add an
; unhardened .entry and writable .global storage to the (cached, shared) module
; next to the hardened kernels. It is refused, with or without kernels.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/with-kernel.ll 2>&1 | FileCheck %s --check-prefix=KERNEL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/alone.ll 2>&1 | FileCheck %s --check-prefix=ALONE
; KERNEL: error: atoll-mem: refused in 'k': module-level inline asm is not supported (it is copied into the PTX unchecked)
; ALONE: error: atoll-mem: refused: module-level inline asm is not supported (it is copied into the PTX unchecked)

;--- with-kernel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
module asm ".global .align 4 .u32 stolen;"
module asm ".visible .entry sneaky(.param .u64 p) { .reg .b64 %r; ld.param.u64 %r, [p]; st.global.u32 [%r], 7; ret; }"
define ptx_kernel void @k(ptr %p) {
  store i32 1, ptr %p, align 4
  ret void
}
;--- alone.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
module asm ".global .u32 x;"
