; Accesses through NVPTX address spaces without a window to confine into
; (2, tensor memory 6, shared::cluster 7) are refused; they used to reach the
; run-time space test, which only takes generic pointers, and broke the module
; (found by scripts/fuzz-atoll-mem.sh).
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/as2.ll 2>&1 | FileCheck %s --check-prefix=AS2
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cluster.ll 2>&1 | FileCheck %s --check-prefix=CLUSTER
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/tmem.ll 2>&1 | FileCheck %s --check-prefix=TMEM

; AS2: error: atoll-mem: refused in 'space2': access through address space 2 (only generic, global, shared, constant, local and param are supported): %v = load i16, ptr addrspace(2) null, align 2
; CLUSTER: error: atoll-mem: refused in 'shared_cluster': access through address space 7 (only generic, global, shared, constant, local and param are supported): store i32 %v, ptr addrspace(7) %c, align 4
; TMEM: error: atoll-mem: refused in 'tensor_memory': access through address space 6 (only generic, global, shared, constant, local and param are supported): %o = atomicrmw add ptr addrspace(6) %t, i32 1 monotonic, align 4

;--- as2.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @space2(ptr %out) {
  %v = load i16, ptr addrspace(2) null, align 2
  store i16 %v, ptr %out, align 2
  ret void
}

;--- cluster.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @shared_cluster(ptr %p, i32 %v) {
  %c = addrspacecast ptr %p to ptr addrspace(7)
  store i32 %v, ptr addrspace(7) %c, align 4
  ret void
}

;--- tmem.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @tensor_memory(i32 %a, ptr %out) {
  %t = inttoptr i32 %a to ptr addrspace(6)
  %o = atomicrmw add ptr addrspace(6) %t, i32 1 monotonic, align 4
  store i32 %o, ptr %out, align 4
  ret void
}
