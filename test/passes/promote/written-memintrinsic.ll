; memset, memcpy and memmove with the global as destination write it: refused.
; (As a memcpy source it is only read: see memcpy-source.ll.)
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/memset.ll 2>&1 | FileCheck %s --check-prefix=MEMSET
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/memcpy.ll 2>&1 | FileCheck %s --check-prefix=MEMCPY
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/memmove.ll 2>&1 | FileCheck %s --check-prefix=MEMMOVE

; MEMSET: error: promote-ptx-constant-globals: refused global 'buf': writable module-scope storage (written by 'call void @llvm.memset.p1.i64(ptr addrspace(1) @buf, i8 0, i64 64, i1 false)' in 'k')
; MEMCPY: error: promote-ptx-constant-globals: refused global 'buf': writable module-scope storage (written by 'call void @llvm.memcpy.p0.p0.i64(ptr addrspacecast (ptr addrspace(1) @buf to ptr), ptr %src, i64 %n, i1 false)' in 'k')
; MEMMOVE: error: promote-ptx-constant-globals: refused global 'buf': writable module-scope storage (written by 'call void @llvm.memmove.p0.p0.i64(ptr @buf, ptr %src, i64 16, i1 false)' in 'k')

;--- memset.ll
target triple = "nvptx64-nvidia-cuda"
@buf = internal addrspace(1) global [64 x i8] zeroinitializer, align 1
define ptx_kernel void @k() {
  call void @llvm.memset.p1.i64(ptr addrspace(1) @buf, i8 0, i64 64, i1 false)
  ret void
}

;--- memcpy.ll
target triple = "nvptx64-nvidia-cuda"
@buf = dso_local addrspace(1) externally_initialized global [64 x i8] zeroinitializer, align 1
define ptx_kernel void @k(ptr %src, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr addrspacecast (ptr addrspace(1) @buf to ptr), ptr %src, i64 %n, i1 false)
  ret void
}

;--- memmove.ll
target triple = "nvptx64-nvidia-cuda"
@buf = internal global [64 x i8] zeroinitializer, align 1
define ptx_kernel void @k(ptr %src) {
  call void @llvm.memmove.p0.p0.i64(ptr @buf, ptr %src, i64 16, i1 false)
  ret void
}
