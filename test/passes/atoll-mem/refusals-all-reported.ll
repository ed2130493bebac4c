; A module is analysed whole before anything changes: every refusal of every
; kernel is reported (atoll-harden collects all diagnostics; opt stops at the
; first error), nothing is written, and a clean kernel in the same module does
; not make the module acceptable.
; RUN: not %atoll-harden %s -o %t.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.ll
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s --check-prefix=OPT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @clean(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}

define ptx_kernel void @two_problems(ptr %p) {
  %a = alloca i32, align 4
  %o = atomicrmw add ptr %a, i32 1 monotonic, align 4
  call void @llvm.trap()
  ret void
}

define ptx_kernel void @third(ptr %p) {
  call void asm sideeffect "st.global.u32 [$0], 1;", "l"(ptr %p)
  ret void
}

; CHECK-DAG: atoll-mem: refused in 'two_problems': atomic on local memory (undefined in PTX): %o = atomicrmw add ptr %a, i32 1 monotonic, align 4
; CHECK-DAG: atoll-mem: refused in 'two_problems': trap: a trap faults the shared CUDA context (use an early return): call void @llvm.trap()
; CHECK-DAG: atoll-mem: refused in 'third': inline asm "st.global.u32 [$0], 1;" (constraints "l", type void (ptr)) is not on the inline-asm allow-list
; CHECK-NOT: refused in 'clean'
; OPT: error: atoll-mem: refused in 'two_problems':
; OPT-NOT: refused in
