; The shared zero-init in the PTX: a loop of 16-byte st.shared.v4 of zeros, a
; loop of byte stores for the tail, then bar.sync 0, before the tenant's first
; shared access.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %s -o - | %llc-sm90 -o - | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [32 x i32] undef, align 4

define ptx_kernel void @k(ptr %out, i32 %i) {
  %p = getelementptr i32, ptr addrspace(3) @buf, i32 %i
  store i32 7, ptr addrspace(3) %p, align 4
  %v = load i32, ptr addrspace(3) @buf, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

; CHECK-LABEL: .entry k(
; CHECK:       st.shared.v4.b32 [%rd{{[0-9]+}}{{(\+-16)?}}], {0, 0, 0, 0};
; CHECK:       st.shared.b8 [%rd{{[0-9]+}}], 0;
; CHECK:       barrier.sync 0;
; CHECK:       st.shared.b32 [%rd{{[0-9]+}}], 7;
