; A memcpy whose destination is a __constant__ object (through a generic pointer,
; with a run-time length): a write to read-only memory, refused with its message
; (ptxas would reject st.const, or the write would fault), though its source is an
; ordinary arena pointer.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': write to read-only constant memory: call void @llvm.memcpy.p0.p1.i64(ptr align 4 %d, ptr addrspace(1) align 4 %src, i64 %n, i1 false)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [16 x i32] zeroinitializer, align 16

define ptx_kernel void @k(ptr addrspace(1) %src, i64 %n) {
  %d = addrspacecast ptr addrspace(4) @tab to ptr
  call void @llvm.memcpy.p0.p1.i64(ptr align 4 %d, ptr addrspace(1) align 4 %src, i64 %n, i1 false)
  ret void
}

declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)
