; llvm.used and llvm.compiler.used entries (clang puts __constant__ and __device__
; variables there as generic casts) follow the promoted globals.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@cscale = dso_local addrspace(4) externally_initialized constant [2 x float] [float 1.0, float 2.0], align 4
@dro = dso_local addrspace(1) externally_initialized global [2 x i32] [i32 5, i32 6], align 4
@keep = internal constant i32 9, align 4
@llvm.used = appending global [1 x ptr] [ptr @keep], section "llvm.metadata"
@llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @cscale to ptr), ptr addrspacecast (ptr addrspace(1) @dro to ptr)], section "llvm.metadata"

; CHECK: @cscale = dso_local addrspace(4) externally_initialized constant [2 x float]
; CHECK: @dro = dso_local addrspace(4) externally_initialized constant [2 x i32] [i32 5, i32 6], align 4
; CHECK: @keep = internal addrspace(4) constant i32 9, align 4
; CHECK-DAG: @llvm.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(4) @keep to ptr)], section "llvm.metadata"
; CHECK-DAG: @llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @cscale to ptr), ptr addrspacecast (ptr addrspace(4) @dro to ptr)], section "llvm.metadata"

define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(1) @dro to ptr), i64 %i
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

; PTX-DAG: .visible .const .align 4 .b8 cscale[8]
; PTX-DAG: .visible .const .align 4 .b8 dro[8] = {5, 0, 0, 0, 6};
; PTX-DAG: .const .align 4 .u32 keep = 9;
