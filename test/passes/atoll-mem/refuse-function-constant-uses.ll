; Nothing but a direct call may refer to a function: a function kept alive by a
; constant expression would reach the PTX without being hardened (only kernels,
; and what is inlined into them, are analysed). Refused, naming the function:
; a pointer in a global's initialiser (llvm.global_ctors included), a ptrtoint
; constant expression in an instruction, a kernel's own address, aliases and ifuncs. llvm.used and
; llvm.compiler.used are dropped (they only keep symbols alive), and after
; hardening no definition but the hardened kernels may be left.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/table.ll 2>&1 | FileCheck %s --check-prefix=TABLE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ptrtoint.ll 2>&1 | FileCheck %s --check-prefix=PTRTOINT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/kernel-address.ll 2>&1 | FileCheck %s --check-prefix=KADDR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/alias.ll 2>&1 | FileCheck %s --check-prefix=ALIAS
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ifunc.ll 2>&1 | FileCheck %s --check-prefix=IFUNC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/personality.ll 2>&1 | FileCheck %s --check-prefix=LEFT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ctors.ll 2>&1 | FileCheck %s --check-prefix=CTORS
; RUN: %opt-atoll -passes=atoll-mem -S %t/used.ll 2>&1 | FileCheck %s --check-prefix=USED

; TABLE: error: atoll-mem: refused in 'evil': function 'evil' is used in a constant expression (a 'ptrtoint' constant expression in the initialiser of 'tab'): only direct calls may refer to a function (no indirect calls; its code would otherwise reach the PTX unhardened)
; PTRTOINT: error: atoll-mem: refused in 'evil': function 'evil' is used in a constant expression (a 'ptrtoint' constant expression in 'k')
; KADDR: error: atoll-mem: refused in 'k': function 'k' is used in a constant expression (in the initialiser of 'self')
; ALIAS: error: atoll-mem: refused in 'evil': alias 'evil_alias' is not allowed (it could expose unhardened code)
; IFUNC: error: atoll-mem: refused in 'resolver': ifunc 'chosen' is not allowed (it could expose unhardened code)
; CTORS: error: atoll-mem: refused in 'init': function 'init' is used in a constant expression (in the initialiser of 'llvm.global_ctors')
; LEFT: error: atoll-mem: refused in 'pers': function 'pers' is still in the module after hardening (only hardened kernels may reach the PTX)

; USED-NOT: @llvm.used
; USED-NOT: @llvm.compiler.used
; USED-NOT: define {{.*}}@evil
; USED-NOT: define {{.*}}@evil2
; USED: define ptx_kernel void @k({{.*}}) #[[A:[0-9]+]]
; USED-NOT: define
; USED: attributes #[[A]] = {{{.*}}"atoll-hardened"="mask-based"

;--- table.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tab = internal addrspace(4) constant [1 x i64] [i64 ptrtoint (ptr @evil to i64)]
define internal void @evil() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret void
}
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr [1 x i64], ptr addrspace(4) @tab, i64 0, i64 %i
  %v = load i64, ptr addrspace(4) %p
  store i64 %v, ptr %out
  ret void
}

;--- ptrtoint.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define internal void @evil() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret void
}
define ptx_kernel void @k(ptr %out) {
  store i64 ptrtoint (ptr @evil to i64), ptr %out
  ret void
}

;--- kernel-address.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@self = internal addrspace(4) constant ptr @k
define ptx_kernel void @k(ptr %out) {
  %v = load ptr, ptr addrspace(4) @self
  store ptr %v, ptr %out
  ret void
}

;--- alias.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@evil_alias = alias void (), ptr @evil
define void @evil() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret void
}
define ptx_kernel void @k(ptr %out) {
  store i32 2, ptr %out
  ret void
}

;--- ifunc.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@chosen = ifunc void (), ptr @resolver
define ptr @resolver() {
  ret ptr null
}
define ptx_kernel void @k(ptr %out) {
  store i32 2, ptr %out
  ret void
}

;--- personality.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define i32 @pers() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret i32 0
}
define ptx_kernel void @k(ptr %out) personality ptr @pers {
  store i32 2, ptr %out
  ret void
}

;--- used.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@llvm.used = appending global [2 x ptr] [ptr @evil, ptr @k], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @evil2], section "llvm.metadata"
define internal void @evil() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret void
}
define void @evil2() {
  store i32 1, ptr inttoptr (i64 8192 to ptr)
  ret void
}
define ptx_kernel void @k(ptr %out) {
  store i32 2, ptr %out
  ret void
}

;--- ctors.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() {
  store i32 1, ptr inttoptr (i64 4096 to ptr)
  ret void
}
define ptx_kernel void @k(ptr %out) {
  store i32 2, ptr %out
  ret void
}
