; Found by review (F1): an alloca in a space other than the data layout's alloca
; space (0 for NVPTX) is not in the frame; its zero-init and accesses went through
; an unconfined global/shared/cluster pointer. Refused, whatever the space.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/as1.ll 2>&1 | FileCheck %s --check-prefix=AS1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/as3.ll 2>&1 | FileCheck %s --check-prefix=AS3
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/as5.ll 2>&1 | FileCheck %s --check-prefix=AS5
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/as7.ll 2>&1 | FileCheck %s --check-prefix=AS7
; An "A5" layout (allocas in AS 5) is not the NVPTX layout: refused before any alloca is looked at.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/a5.ll 2>&1 | FileCheck %s --check-prefix=A5
; The frame's own space is hardened as before.
; RUN: %opt-atoll -passes=atoll-mem -S %t/as0.ll | FileCheck %s --check-prefix=AS0

; AS1: error: atoll-mem: refused in 'k': alloca in address space 1 (only the data layout's alloca address space 0 is supported)
; AS3: error: atoll-mem: refused in 'k': alloca in address space 3 (only the data layout's alloca address space 0 is supported)
; AS5: error: atoll-mem: refused in 'k': alloca in address space 5 (only the data layout's alloca address space 0 is supported)
; AS7: error: atoll-mem: refused in 'k': alloca in address space 7 (only the data layout's alloca address space 0 is supported)
; A5: error: atoll-mem: refused in 'k': module data layout 'e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64-A5' is not the NVPTX target's 'e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64'
; AS0: define ptx_kernel void @k(
; AS0: %a = alloca [64 x i8], align 1
; AS0: call void @llvm.memset

;--- as1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [4096 x i8], align 1, addrspace(1)
  %p = getelementptr i8, ptr addrspace(1) %a, i64 %i
  %v = load i8, ptr addrspace(1) %p
  store i8 %v, ptr %out
  ret void
}

;--- as3.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [4096 x i8], align 1, addrspace(3)
  %p = getelementptr i8, ptr addrspace(3) %a, i64 %i
  %v = load i8, ptr addrspace(3) %p
  store i8 %v, ptr %out
  ret void
}

;--- as5.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [64 x i8], align 1, addrspace(5)
  %p = getelementptr i8, ptr addrspace(5) %a, i64 %i
  %v = load i8, ptr addrspace(5) %p
  store i8 %v, ptr %out
  ret void
}

;--- as7.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
  %a = alloca [8 x i64], align 8, addrspace(7)
  store i64 1, ptr addrspace(7) %a
  ret void
}

;--- a5.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64-A5"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [64 x i8], align 1, addrspace(5)
  %p = getelementptr i8, ptr addrspace(5) %a, i64 %i
  %v = load i8, ptr addrspace(5) %p
  store i8 %v, ptr %out
  ret void
}

;--- as0.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [64 x i8], align 1
  %p = getelementptr i8, ptr %a, i64 %i
  %v = load i8, ptr %p
  store i8 %v, ptr %out
  ret void
}
