; Names starting with "__atoll" belong to the passes, the runtime and the ABI (the
; shared pad, the dynamic-shared base, the hidden parameters). The pass keeps its
; helpers by handle and never looks a name up; every tenant symbol in the reserved
; namespace is refused first, whatever it is: a global standing in for the shared
; pad, a declaration of the dynamic-shared base, a dead function, an alias, an
; ifunc, a parameter named like a hidden one. One diagnostic each, nothing hardened.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/pad.ll 2>&1 | FileCheck %s --check-prefix=PAD
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/dyn.ll 2>&1 | FileCheck %s --check-prefix=DYN
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/dead.ll 2>&1 | FileCheck %s --check-prefix=DEAD
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/decl.ll 2>&1 | FileCheck %s --check-prefix=DECL
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/alias.ll 2>&1 | FileCheck %s --check-prefix=ALIAS
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/ifunc.ll 2>&1 | FileCheck %s --check-prefix=IFUNC
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/param.ll 2>&1 | FileCheck %s --check-prefix=PARAM
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/kernel.ll 2>&1 | FileCheck %s --check-prefix=KERNEL
; A name that merely contains the prefix, or spells it differently, is the tenant's.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/allowed.ll | FileCheck %s --check-prefix=ALLOWED
; The pass's own helpers, created by it, keep their names (no suffix: no collision).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/helpers.ll | FileCheck %s --check-prefix=HELPERS

; PAD: error: atoll-mem: refused global '__atoll_smem_pad': the name is reserved: names starting with '__atoll' belong to the AToLL passes, runtime and ABI
; DYN: error: atoll-mem: refused global '__atoll_dyn_smem': the name is reserved
; DEAD: error: atoll-mem: refused in '__atoll_dead': the name is reserved
; DECL: error: atoll-mem: refused in '__atoll_decl': the name is reserved
; ALIAS: error: atoll-mem: refused global '__atoll_alias': the name is reserved
; IFUNC: error: atoll-mem: refused global '__atoll_ifunc': the name is reserved
; PARAM: error: atoll-mem: refused in 'k': parameter '__atoll_arena_base': the name is reserved
; KERNEL: error: atoll-mem: refused in '__atoll_kernel': the name is reserved

; ALLOWED: @x__atoll_smem_pad = internal addrspace(3) global
; ALLOWED: define ptx_kernel void @k(ptr %my__atoll, i32 %__ATOLL_x, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)

; HELPERS: @__atoll_dyn_smem = external addrspace(3) global [0 x i8], align 4
; HELPERS: @__atoll_smem_pad = internal addrspace(3) global
; HELPERS: define ptx_kernel void @k(ptr %p, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)

;--- allowed.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@x__atoll_smem_pad = internal addrspace(3) global [16 x i8] undef, align 16
define ptx_kernel void @k(ptr %my__atoll, i32 %__ATOLL_x) {
  %g = getelementptr i8, ptr addrspace(3) @x__atoll_smem_pad, i32 %__ATOLL_x
  store i8 1, ptr addrspace(3) %g, align 1
  ret void
}

;--- helpers.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %p, i64 %i) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %g = getelementptr i8, ptr addrspace(3) %s, i64 %i
  store i8 1, ptr addrspace(3) %g, align 1
  ret void
}

;--- pad.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@__atoll_smem_pad = addrspace(3) global [16 x i8] undef, align 16
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- dyn.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@__atoll_dyn_smem = external addrspace(3) global [0 x i8], align 4
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- dead.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define internal void @__atoll_dead() {
  ret void
}
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- decl.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @__atoll_decl()
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- alias.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@target = global i32 0
@__atoll_alias = alias i32, ptr @target
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- ifunc.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define internal ptr @resolver() {
  ret ptr null
}
@__atoll_ifunc = ifunc void (), ptr @resolver
define ptx_kernel void @k(ptr %p) {
  ret void
}

;--- param.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %p, i64 %__atoll_arena_base) {
  ret void
}

;--- kernel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @__atoll_kernel(ptr %p) {
  ret void
}
