; A promoted global used as a memcpy/memmove source is only read: the intrinsic is
; re-declared for the constant-space source.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@init = internal addrspace(1) constant [8 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8], align 4
@gen = internal constant [4 x i32] [i32 9, i32 10, i32 11, i32 12], align 4

; CHECK: @init = internal addrspace(4) constant [8 x i32]
; CHECK: @gen = internal addrspace(4) constant [4 x i32]
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @llvm.memcpy.p0.p4.i64(ptr align 4 %dst, ptr addrspace(4) align 4 @init, i64 %n, i1 false)
; CHECK: call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr addrspacecast (ptr addrspace(4) @gen to ptr), i64 16, i1 false)
define ptx_kernel void @k(ptr %dst, i64 %n) {
  call void @llvm.memcpy.p0.p1.i64(ptr align 4 %dst, ptr addrspace(1) align 4 @init, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr @gen, i64 16, i1 false)
  ret void
}

; PTX-DAG: .const .align 4 .b8 init[32]
; PTX-DAG: .const .align 4 .b8 gen[16]
; PTX: ld.const.b8
