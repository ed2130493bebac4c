; A read-only global whose global-space address flows somewhere that cannot take a
; constant-space pointer (a phi or select of global-space pointers, a call with a
; global-space parameter, or a generic pointer cast back to the global space) is
; refused rather than left in writable memory or rewritten wrongly.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/select.ll 2>&1 | FileCheck %s --check-prefix=SELECT
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/call.ll 2>&1 | FileCheck %s --check-prefix=CALL
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/recast.ll 2>&1 | FileCheck %s --check-prefix=RECAST
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/generic-select.ll | FileCheck %s --check-prefix=GENERIC

; SELECT: error: promote-ptx-constant-globals: refused global 'a': cannot be moved to constant memory (its global-space address is used where constant memory cannot be: '%p = select i1 %c, ptr addrspace(1) @a, ptr addrspace(1) %other' in 'k')
; CALL: error: promote-ptx-constant-globals: refused global 'a': cannot be moved to constant memory (its global-space address is used where constant memory cannot be: '%v = call i32 @get(ptr addrspace(1) @a)' in 'k')
; RECAST: error: promote-ptx-constant-globals: refused global 'a': cannot be moved to constant memory (its global-space address is used where constant memory cannot be: '%g = addrspacecast ptr %p to ptr addrspace(1)' in 'k')

;--- select.ll
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(1) constant [2 x i32] [i32 1, i32 2], align 4
define ptx_kernel void @k(ptr %out, i1 %c, ptr addrspace(1) %other) {
  %p = select i1 %c, ptr addrspace(1) @a, ptr addrspace(1) %other
  %v = load i32, ptr addrspace(1) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- call.ll
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(1) constant [2 x i32] [i32 1, i32 2], align 4
define i32 @get(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p, align 4
  ret i32 %v
}
define ptx_kernel void @k(ptr %out) {
  %v = call i32 @get(ptr addrspace(1) @a)
  store i32 %v, ptr %out, align 4
  ret void
}

;--- recast.ll
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(1) constant [2 x i32] [i32 1, i32 2], align 4
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i32, ptr addrspacecast (ptr addrspace(1) @a to ptr), i64 %i
  %g = addrspacecast ptr %p to ptr addrspace(1)
  %v = load i32, ptr addrspace(1) %g, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- generic-select.ll
; The same select on generic pointers is fine: generic pointers reach constant memory.
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(1) constant [2 x i32] [i32 1, i32 2], align 4
define ptx_kernel void @k(ptr %out, i1 %c, ptr %other) {
  %p = select i1 %c, ptr addrspacecast (ptr addrspace(1) @a to ptr), ptr %other
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
; GENERIC: @a = internal addrspace(4) constant [2 x i32]
; GENERIC: %p = select i1 %c, ptr addrspacecast (ptr addrspace(4) @a to ptr), ptr %other
