; Writes into kernel parameter space are refused (PTX ISA: the kernel parameter
; space is read-only): a store, atomic or memcpy/memset through an addrspace(101)
; pointer (no PTX form: it crashes instruction selection), and any write to a
; grid_constant byval parameter (read in place, no local copy), marked either by
; the "nvvm.grid_constant" attribute or by !nvvm.annotations. An atomic on a plain
; byval parameter is refused too (its copy is local memory). A plain byval
; parameter may be written: NVPTX gives it a local copy (checked in the PTX).
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/st101.ll 2>&1 | FileCheck %s --check-prefix=ST101
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/memcpy101.ll 2>&1 | FileCheck %s --check-prefix=MEMCPY101
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/gcattr.ll 2>&1 | FileCheck %s --check-prefix=GCATTR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/gcann.ll 2>&1 | FileCheck %s --check-prefix=GCANN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/gcmemset.ll 2>&1 | FileCheck %s --check-prefix=GCMEMSET
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/byvalcas.ll 2>&1 | FileCheck %s --check-prefix=BYVALCAS
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/twobyval.ll 2>&1 | FileCheck %s --check-prefix=TWOBYVAL
; RUN: %opt-atoll -passes=atoll-mem %t/plain.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PLAIN
; RUN: %opt-atoll -passes=atoll-mem -disable-output %t/gcread.ll

; ST101: error: atoll-mem: refused in 'st101': write through a param-space (addrspace 101) pointer: store i32 1, ptr addrspace(101) %q, align 4
; MEMCPY101: error: atoll-mem: refused in 'memcpy101': write through a param-space (addrspace 101) pointer: call void @llvm.memcpy.p101.p0.i64(
; GCATTR: error: atoll-mem: refused in 'gcattr': write to a grid_constant kernel parameter (parameter space is read-only): store i32 %v, ptr %p, align 4
; GCANN: error: atoll-mem: refused in 'gcann': write to a grid_constant kernel parameter (parameter space is read-only): store i32 7, ptr %s, align 4
; GCMEMSET: error: atoll-mem: refused in 'gcmemset': write to a grid_constant kernel parameter (parameter space is read-only): call void @llvm.memset.p0.i64(
; BYVALCAS: error: atoll-mem: refused in 'byvalcas': atomic on a byval kernel parameter (its copy is local memory): %o = cmpxchg ptr %s, i32 0, i32 1 monotonic monotonic, align 4
; TWOBYVAL: error: atoll-mem: refused in 'twobyval': pointer into param memory whose object cannot be determined: store i32 3, ptr %p, align 4

; The written byval parameter is copied from param space to local memory first.
; PLAIN-LABEL: .entry plain(
; PLAIN:         ld.param
; PLAIN:         st.local
; PLAIN-NOT:     st.param
; PLAIN:         ret;

;--- st101.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @st101(ptr byval([4 x i32]) align 4 %s, i64 %i) {
  %q = addrspacecast ptr %s to ptr addrspace(101)
  store i32 1, ptr addrspace(101) %q, align 4
  ret void
}

;--- memcpy101.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.memcpy.p101.p0.i64(ptr addrspace(101), ptr, i64, i1)
define ptx_kernel void @memcpy101(ptr byval([4 x i32]) align 4 %s, ptr %src) {
  %q = addrspacecast ptr %s to ptr addrspace(101)
  call void @llvm.memcpy.p101.p0.i64(ptr addrspace(101) %q, ptr %src, i64 8, i1 false)
  ret void
}

;--- gcattr.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @gcattr(ptr byval([4 x i32]) align 4 "nvvm.grid_constant" %s, i64 %i, i32 %v) {
  %p = getelementptr [4 x i32], ptr %s, i64 0, i64 %i
  store i32 %v, ptr %p, align 4
  ret void
}

;--- gcann.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @gcann(i32 %x, ptr byval([4 x i32]) align 4 %s) {
  store i32 7, ptr %s, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @gcann, !"grid_constant", !1}
!1 = !{i32 2}

;--- gcmemset.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define ptx_kernel void @gcmemset(ptr byval([4 x i32]) align 4 "nvvm.grid_constant" %s, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 %n, i1 false)
  ret void
}

;--- byvalcas.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @byvalcas(ptr byval([4 x i32]) align 4 %s) {
  %o = cmpxchg ptr %s, i32 0, i32 1 monotonic monotonic, align 4
  ret void
}

;--- plain.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @plain(ptr byval([4 x i32]) align 4 %s, i64 %i, ptr %out) {
  %p = getelementptr [4 x i32], ptr %s, i64 0, i64 %i
  store i32 9, ptr %p, align 4
  %v = load i32, ptr %s, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- gcread.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
; Reading a grid_constant parameter is fine.
define ptx_kernel void @gcread(ptr byval([4 x i32]) align 4 "nvvm.grid_constant" %s, i64 %i, ptr %out) {
  %p = getelementptr [4 x i32], ptr %s, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

;--- twobyval.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
; A write through a pointer to one of two byval parameters (one grid_constant).
define ptx_kernel void @twobyval(ptr byval([4 x i32]) align 4 "nvvm.grid_constant" %s, ptr byval([4 x i32]) align 4 %t, i1 %c) {
  %p = select i1 %c, ptr %s, ptr %t
  store i32 3, ptr %p, align 4
  ret void
}
