; llvm.masked.store (a table row that writes) into a __constant__ row: refused as
; a write to read-only memory, like a plain store.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': write to read-only constant memory: call void @llvm.masked.store.v4i32.p4(<4 x i32> %v, ptr addrspace(4) align 16 %p, <4 x i1> %m)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [16 x i32] zeroinitializer, align 16

define ptx_kernel void @k(i64 %i, <4 x i32> %v, i8 %bits) {
  %b4 = trunc i8 %bits to i4
  %m = bitcast i4 %b4 to <4 x i1>
  %p = getelementptr <4 x i32>, ptr addrspace(4) @tab, i64 %i
  call void @llvm.masked.store.v4i32.p4(<4 x i32> %v, ptr addrspace(4) align 16 %p, <4 x i1> %m)
  ret void
}

declare void @llvm.masked.store.v4i32.p4(<4 x i32>, ptr addrspace(4), <4 x i1>)
