; Writes to read-only memory (constant tables, and atomics on a byval parameter)
; and constant or param pointers whose object is unknown are refused; each
; diagnostic names the kernel, the reason and the instruction.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/store.ll 2>&1 | FileCheck %s --check-prefix=STORE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/genstore.ll 2>&1 | FileCheck %s --check-prefix=GENSTORE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/atomic.ll 2>&1 | FileCheck %s --check-prefix=ATOMIC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/memset.ll 2>&1 | FileCheck %s --check-prefix=MEMSET
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forged.ll 2>&1 | FileCheck %s --check-prefix=FORGED
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/extern.ll 2>&1 | FileCheck %s --check-prefix=EXTERN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/scalablebyval.ll 2>&1 | FileCheck %s --check-prefix=SCALABLEBYVAL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/byvalatomic.ll 2>&1 | FileCheck %s --check-prefix=BYVALATOMIC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/paramptr.ll 2>&1 | FileCheck %s --check-prefix=PARAMPTR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/byvaltoowide.ll 2>&1 | FileCheck %s --check-prefix=BYVALWIDE

; STORE: error: atoll-mem: refused in 'store_const': write to read-only constant memory: store i32 1, ptr addrspace(4) %p, align 4
; GENSTORE: error: atoll-mem: refused in 'generic_store_const': write to read-only constant memory: store i32 1, ptr %g, align 4
; ATOMIC: error: atoll-mem: refused in 'atomic_const': write to read-only constant memory: %o = atomicrmw add ptr addrspace(4) @tab, i32 1 monotonic, align 4
; MEMSET: error: atoll-mem: refused in 'memset_const': write to read-only constant memory: call void @llvm.memset.p4.i64(ptr addrspace(4) align 4 @tab, i8 0, i64 %n, i1 false)
; FORGED: error: atoll-mem: refused in 'forged_const': pointer into constant memory whose object cannot be determined: %v = load i32, ptr addrspace(4) %p, align 4
; EXTERN: error: atoll-mem: refused in 'extern_const': object of unknown size (dynamic alloca?): %v = load i32, ptr addrspace(4) %p, align 4
; SCALABLEBYVAL: error: atoll-mem: refused in 'scalable_byval': object of unknown size (dynamic alloca?): %v = load i32, ptr %s, align 4
; BYVALATOMIC: error: atoll-mem: refused in 'atomic_byval': atomic on a byval kernel parameter (its copy is local memory): %o = atomicrmw xchg ptr %s, i32 1 monotonic, align 4
; PARAMPTR: error: atoll-mem: refused in 'param_space_ptr': pointer into param memory whose object cannot be determined: %v = load i32, ptr addrspace(101) %p, align 4
; BYVALWIDE: error: atoll-mem: refused in 'byval_too_wide': access of 16 bytes is larger than its object (8 bytes): %v = load <4 x i32>, ptr %s, align 4

;--- store.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tab = addrspace(4) externally_initialized constant [4 x i32] zeroinitializer, align 4
define ptx_kernel void @store_const(i64 %i) {
  %p = getelementptr i32, ptr addrspace(4) @tab, i64 %i
  store i32 1, ptr addrspace(4) %p, align 4
  ret void
}

;--- genstore.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tab = addrspace(4) externally_initialized constant [4 x i32] zeroinitializer, align 4
define ptx_kernel void @generic_store_const() {
  %g = addrspacecast ptr addrspace(4) @tab to ptr
  store i32 1, ptr %g, align 4
  ret void
}

;--- atomic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tab = addrspace(4) externally_initialized constant [4 x i32] zeroinitializer, align 4
define ptx_kernel void @atomic_const() {
  %o = atomicrmw add ptr addrspace(4) @tab, i32 1 monotonic, align 4
  ret void
}

;--- memset.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tab = addrspace(4) externally_initialized constant [4 x i32] zeroinitializer, align 4
define ptx_kernel void @memset_const(i64 %n) {
  call void @llvm.memset.p4.i64(ptr addrspace(4) align 4 @tab, i8 0, i64 %n, i1 false)
  ret void
}

;--- forged.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @forged_const(i64 %a, ptr %out) {
  %p = inttoptr i64 %a to ptr addrspace(4)
  %v = load i32, ptr addrspace(4) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- extern.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@ext = external addrspace(4) constant [0 x i32], align 4
define ptx_kernel void @extern_const(i64 %i, ptr %out) {
  %p = getelementptr i32, ptr addrspace(4) @ext, i64 %i
  %v = load i32, ptr addrspace(4) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- scalablebyval.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @scalable_byval(ptr byval({ <vscale x 4 x i32> }) %s, ptr %out) {
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- byvalatomic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @atomic_byval(ptr byval(i32) align 4 %s) {
  %o = atomicrmw xchg ptr %s, i32 1 monotonic, align 4
  ret void
}

;--- paramptr.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @param_space_ptr(ptr %g, ptr %out) {
  %p = addrspacecast ptr %g to ptr addrspace(101)
  %v = load i32, ptr addrspace(101) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- byvaltoowide.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @byval_too_wide(ptr byval([2 x i32]) align 4 %s, ptr %out) {
  %v = load <4 x i32>, ptr %s, align 4
  store <4 x i32> %v, ptr %out, align 16
  ret void
}
