; Review R8-F5: a masked load or store is scalarised by code generation
; (ScalarizeMaskedMemIntrin): one branch on the mask's element and one access per
; element, at most at the element's alignment, plus the vector's extract, insert
; and phi copies. The straight-line weight counted it as one access per 16 bytes,
; so four <256 x i8> align 1 masked loads had no poll and were refused after code
; generation as "a bug in the AToLL passes".
; - Four <32 x i8> align 1 loads (32 x 196 units each, 25088 in all, over the 16384
;   allowed between polls) get a straight poll between the second and the third,
;   and the toolchain accepts the kernel (the check after code generation agrees).
; - One heavier than the budget (no poll can go inside it) is refused by atoll-mem
;   with the reason: <256 x i8> loads (the review's kernel) and stores.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -passes=atoll-mem -S %t/four.ll | FileCheck %s --check-prefix=FOUR
; RUN: %atoll-harden %t/four.ll --emit=ptx -o %t/four.ptx
; RUN: %atoll-harden %t/four.ll --emit=ptx --clamping-mode=modulo-based -o %t/four-mod.ptx
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/wide-load.ll 2>&1 | FileCheck %s --check-prefix=WLOAD
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/wide-store.ll 2>&1 | FileCheck %s --check-prefix=WSTORE

; FOUR-LABEL: define ptx_kernel void @four(
; FOUR:         %v1 = call <32 x i8> @llvm.masked.load.v32i8.p1(
; FOUR-NOT:     {{^}}atoll.cancel.straight{{[0-9]*}}:
; FOUR:         %v2 = call <32 x i8> @llvm.masked.load.v32i8.p1(
; FOUR:         {{^}}atoll.cancel.straight{{[0-9]*}}:
; FOUR:         %v3 = call <32 x i8> @llvm.masked.load.v32i8.p1(
; FOUR:         %v4 = call <32 x i8> @llvm.masked.load.v32i8.p1(

; WLOAD: error: atoll-mem: refused in 'wide_load': a masked load of 256 elements becomes 256 conditional accesses with no cancel poll between them, more work than is allowed between two polls (split it into smaller masked accesses): %v1 = call <256 x i8> @llvm.masked.load.v256i8.p1(
; WSTORE: error: atoll-mem: refused in 'wide_store': a masked store of 256 elements becomes 256 conditional accesses with no cancel poll between them, more work than is allowed between two polls (split it into smaller masked accesses): call void @llvm.masked.store.v256i8.p1(

;--- four.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare <32 x i8> @llvm.masked.load.v32i8.p1(ptr addrspace(1), <32 x i1>, <32 x i8>)
define ptx_kernel void @four(ptr addrspace(1) %p, ptr addrspace(1) %o, ptr addrspace(1) %mp) {
  %mv = load <32 x i8>, ptr addrspace(1) %mp, align 16
  %m = icmp ne <32 x i8> %mv, zeroinitializer
  %v1 = call <32 x i8> @llvm.masked.load.v32i8.p1(ptr addrspace(1) align 1 %p, <32 x i1> %m, <32 x i8> zeroinitializer)
  %q2 = getelementptr i8, ptr addrspace(1) %p, i64 1000
  %v2 = call <32 x i8> @llvm.masked.load.v32i8.p1(ptr addrspace(1) align 1 %q2, <32 x i1> %m, <32 x i8> %v1)
  %q3 = getelementptr i8, ptr addrspace(1) %p, i64 3000
  %v3 = call <32 x i8> @llvm.masked.load.v32i8.p1(ptr addrspace(1) align 1 %q3, <32 x i1> %m, <32 x i8> %v2)
  %q4 = getelementptr i8, ptr addrspace(1) %p, i64 5000
  %v4 = call <32 x i8> @llvm.masked.load.v32i8.p1(ptr addrspace(1) align 1 %q4, <32 x i1> %m, <32 x i8> %v3)
  store <32 x i8> %v4, ptr addrspace(1) %o, align 16
  ret void
}

;--- wide-load.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare <256 x i8> @llvm.masked.load.v256i8.p1(ptr addrspace(1), <256 x i1>, <256 x i8>)
define ptx_kernel void @wide_load(ptr addrspace(1) %p, ptr addrspace(1) %o, ptr addrspace(1) %mp) {
  %mv = load <256 x i8>, ptr addrspace(1) %mp, align 16
  %m = icmp ne <256 x i8> %mv, zeroinitializer
  %v1 = call <256 x i8> @llvm.masked.load.v256i8.p1(ptr addrspace(1) align 1 %p, <256 x i1> %m, <256 x i8> zeroinitializer)
  store <256 x i8> %v1, ptr addrspace(1) %o, align 16
  ret void
}

;--- wide-store.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.masked.store.v256i8.p1(<256 x i8>, ptr addrspace(1), <256 x i1>)
define ptx_kernel void @wide_store(ptr addrspace(1) %p, ptr addrspace(1) %o, ptr addrspace(1) %mp) {
  %mv = load <256 x i8>, ptr addrspace(1) %mp, align 16
  %m = icmp ne <256 x i8> %mv, zeroinitializer
  call void @llvm.masked.store.v256i8.p1(<256 x i8> %mv, ptr addrspace(1) align 1 %o, <256 x i1> %m)
  ret void
}
