; llvm.masked.load of 64 x i64 (512 bytes) from the arena: the table row's size
; is the vector's, wider than every window; refused like a plain load.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': access of 512 bytes is too large: %v = call <64 x i64> @llvm.masked.load.v64i64.p1(ptr addrspace(1) align 8 %p, <64 x i1> splat (i1 true), <64 x i64> zeroinitializer)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %out) {
  %v = call <64 x i64> @llvm.masked.load.v64i64.p1(ptr addrspace(1) align 8 %p, <64 x i1> splat (i1 true), <64 x i64> zeroinitializer)
  %e = extractelement <64 x i64> %v, i32 3
  store i64 %e, ptr addrspace(1) %out, align 8
  ret void
}

declare <64 x i64> @llvm.masked.load.v64i64.p1(ptr addrspace(1), <64 x i1>, <64 x i64>)
