; wgmma commit/wait groups (sm_90a) have no row: the wgmma instructions themselves are refused.
; Deny by default: an intrinsic without a row in the table that may access memory
; is refused (IntrinsicTable.cpp, the last generic rule), with its name.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': intrinsic 'llvm.nvvm.wgmma.commit_group.sync.aligned' may access memory: call void @llvm.nvvm.wgmma.commit_group.sync.aligned()

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k() {
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  ret void
}

declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
