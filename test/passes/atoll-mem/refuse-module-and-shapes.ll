; Refused: writable module-scope storage (globals outside shared and constant
; memory, however they are reached), a shared access wider than its object, a
; single access wider than the smallest window (256 bytes), an alignment above
; 256 bytes, kernels that return a value, invoke, and scalable vectors (whose size
; is only known at run time).
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/global.ll 2>&1 | FileCheck %s --check-prefix=GLOBAL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/generic.ll 2>&1 | FileCheck %s --check-prefix=GENERIC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/viacast.ll 2>&1 | FileCheck %s --check-prefix=VIACAST
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/sharedwide.ll 2>&1 | FileCheck %s --check-prefix=SHWIDE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/toolarge.ll 2>&1 | FileCheck %s --check-prefix=TOOLARGE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/overaligned.ll 2>&1 | FileCheck %s --check-prefix=OVERALIGN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/nonvoid.ll 2>&1 | FileCheck %s --check-prefix=NONVOID
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/invoke.ll 2>&1 | FileCheck %s --check-prefix=INVOKE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/scalable.ll 2>&1 | FileCheck %s --check-prefix=SCALABLE

; GLOBAL: error: atoll-mem: refused in 'module_global': access to module-scope storage 'counter' (writable module globals are refused; run promote-ptx-constant-globals): store i32 1, ptr addrspace(1) @counter, align 4
; GENERIC: error: atoll-mem: refused in 'generic_global': access to module-scope storage 'state' (writable module globals are refused; run promote-ptx-constant-globals): %v = load i32, ptr %p, align 4
; VIACAST: error: atoll-mem: refused in 'via_cast': access to module-scope storage 'g' (writable module globals are refused; run promote-ptx-constant-globals): %v = load i64, ptr %p, align 8
; SHWIDE: error: atoll-mem: refused in 'shared_too_wide': access of 16 bytes is larger than its object (4 bytes): %v = load <4 x i32>, ptr addrspace(3) %p, align 16
; TOOLARGE: error: atoll-mem: refused in 'too_large': access of 320 bytes is too large: %v = load [80 x i32], ptr %p, align 4
; OVERALIGN: error: atoll-mem: refused in 'over_aligned': alignment above 256 bytes is not supported: %v = load i32, ptr %p, align 512
; NONVOID: error: atoll-mem: refused in 'returns_value': kernel does not return void
; INVOKE: error: atoll-mem: refused in 'invokes': invoke/callbr is not supported: invoke void @may_throw()
; SCALABLE: error: atoll-mem: refused in 'scalable': memory access of an unsupported form: %v = load <vscale x 4 x i32>, ptr %p, align 16

;--- global.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@counter = addrspace(1) global i32 0, align 4
define ptx_kernel void @module_global() {
  store i32 1, ptr addrspace(1) @counter, align 4
  ret void
}

;--- generic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@state = global [4 x i32] zeroinitializer, align 4
define ptx_kernel void @generic_global(i64 %i, ptr %out) {
  %p = getelementptr i32, ptr @state, i64 %i
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- viacast.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = internal addrspace(1) global [2 x i64] zeroinitializer, align 8
define ptx_kernel void @via_cast(ptr %out) {
  %p = addrspacecast ptr addrspace(1) @g to ptr
  %v = load i64, ptr %p, align 8
  store i64 %v, ptr %out, align 8
  ret void
}

;--- sharedwide.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [4 x i8] undef, align 16
define ptx_kernel void @shared_too_wide(i64 %i, ptr %out) {
  %p = getelementptr i8, ptr addrspace(3) @s, i64 %i
  %v = load <4 x i32>, ptr addrspace(3) %p, align 16
  store <4 x i32> %v, ptr %out, align 16
  ret void
}

;--- toolarge.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @too_large(ptr %p, ptr %out) {
  %v = load [80 x i32], ptr %p, align 4
  store [80 x i32] %v, ptr %out, align 4
  ret void
}

;--- overaligned.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @over_aligned(ptr %p, ptr %out) {
  %v = load i32, ptr %p, align 512
  store i32 %v, ptr %out, align 4
  ret void
}

;--- nonvoid.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel i32 @returns_value(ptr %p) {
  ret i32 0
}

;--- invoke.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @may_throw() {
  ret void
}
declare i32 @__gxx_personality_v0(...)
define ptx_kernel void @invokes() personality ptr @__gxx_personality_v0 {
  invoke void @may_throw() to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}

;--- scalable.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @scalable(ptr %p, ptr %q) {
  %v = load <vscale x 4 x i32>, ptr %p, align 16
  store <vscale x 4 x i32> %v, ptr %q, align 16
  ret void
}
