; Atomic read-modify-write and compare-exchange write the global: refused.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/rmw.ll 2>&1 | FileCheck %s --check-prefix=RMW
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/cmpxchg.ll 2>&1 | FileCheck %s --check-prefix=CAS

; RMW: error: promote-ptx-constant-globals: refused global 'counter': writable module-scope storage (written by '%old = atomicrmw add ptr addrspacecast (ptr addrspace(1) @counter to ptr), i32 1 seq_cst, align 4' in 'k')
; CAS: error: promote-ptx-constant-globals: refused global 'lock': writable module-scope storage (written by '%r = cmpxchg ptr addrspace(1) @lock, i32 0, i32 1 acquire monotonic, align 4' in 'k')

;--- rmw.ll
target triple = "nvptx64-nvidia-cuda"
@counter = dso_local addrspace(1) externally_initialized global i32 0, align 4
define ptx_kernel void @k() {
  %old = atomicrmw add ptr addrspacecast (ptr addrspace(1) @counter to ptr), i32 1 seq_cst, align 4
  ret void
}

;--- cmpxchg.ll
target triple = "nvptx64-nvidia-cuda"
@lock = internal addrspace(1) global i32 0, align 4
define ptx_kernel void @k() {
  %r = cmpxchg ptr addrspace(1) @lock, i32 0, i32 1 acquire monotonic, align 4
  ret void
}
