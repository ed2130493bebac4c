; __constant__ data (already address space 4) is left as it is but counts toward
; the bank: 60000 bytes of it leave no room for an 8192-byte table. A store to
; constant memory is refused (it would fault); passing its address to a function is
; not (constant memory cannot be written, whatever the callee does).
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/full.ll 2>&1 | FileCheck %s --check-prefix=FULL
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/store.ll 2>&1 | FileCheck %s --check-prefix=STORE
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/escape.ll | FileCheck %s --check-prefix=ESCAPE

; FULL: error: promote-ptx-constant-globals: refused global 'cdata': constant memory over capacity: 68192 bytes (60000 already constant, 8192 to promote) exceed the 65536-byte constant bank; largest: 'cdata' (60000 bytes), 'tbl' (8192 bytes)
; STORE: error: promote-ptx-constant-globals: refused global 'cscale': constant memory is read-only (written by 'store float 0.000000e+00, ptr addrspacecast (ptr addrspace(4) @cscale to ptr), align 4' in 'k')

;--- full.ll
target triple = "nvptx64-nvidia-cuda"
@cdata = addrspace(4) externally_initialized constant [15000 x float] zeroinitializer, align 4
@tbl = internal addrspace(1) constant [1024 x i64] zeroinitializer, align 8
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i64, ptr addrspace(1) @tbl, i64 %i
  %v = load i64, ptr addrspace(1) %p, align 8
  store i64 %v, ptr %out, align 8
  ret void
}

;--- store.ll
target triple = "nvptx64-nvidia-cuda"
@cscale = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4
define ptx_kernel void @k() {
  store float 0.0, ptr addrspacecast (ptr addrspace(4) @cscale to ptr), align 4
  ret void
}

;--- escape.ll
target triple = "nvptx64-nvidia-cuda"
@cscale = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4
declare void @ext(ptr)
define ptx_kernel void @k() {
  call void @ext(ptr addrspacecast (ptr addrspace(4) @cscale to ptr))
  ret void
}
; ESCAPE: @cscale = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4
; ESCAPE: call void @ext(ptr addrspacecast (ptr addrspace(4) @cscale to ptr))
