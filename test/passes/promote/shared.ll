; __shared__ variables are per-CTA, not module storage: left alone even when written
; (atoll-mem zeroes them), and so is an extern __shared__ declaration. Shared data
; does not count toward the constant bank.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16384 x i32] undef, align 4
@dyn = external addrspace(3) global [0 x i8], align 16
@lut = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4

; CHECK: @tile = internal addrspace(3) global [16384 x i32] undef, align 4
; CHECK: @dyn = external addrspace(3) global [0 x i8], align 16
; CHECK: @lut = internal addrspace(4) constant [4 x i32]

define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 7, ptr addrspace(3) %p, align 4
  %d = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @dyn to ptr), i64 %i
  store i8 1, ptr %d, align 1
  %q = getelementptr i32, ptr addrspace(1) @lut, i64 %i
  %v = load i32, ptr addrspace(1) %q, align 4
  %w = load i32, ptr addrspace(3) %p, align 4
  %s = add i32 %v, %w
  store i32 %s, ptr %out, align 4
  ret void
}
; CHECK: store i32 7, ptr addrspace(3) %p, align 4

; PTX-DAG: .shared .align 4 .b8 tile[65536];
; PTX-DAG: .extern .shared .align 16 .b8 dyn[];
; PTX-DAG: .const .align 4 .b8 lut[16]
