; A kernel that only takes the address of a shared variable (no access the pass
; confines) can still hand it to code that reads it later: its window is zeroed
; too, so shared residue is never observable.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@flag = internal addrspace(3) global i32 undef, align 4

define ptx_kernel void @addr_only(ptr %out) {
  %a = ptrtoint ptr addrspace(3) @flag to i64
  store i64 %a, ptr %out, align 8
  ret void
}

; No shared window clamp: no pad, but the zeroing all the same.
; CHECK-NOT:   @__atoll_smem_pad
; CHECK-LABEL: define ptx_kernel void @addr_only(
; CHECK-NOT:     __atoll_smem_pad
; CHECK:       atoll.zero.smem:
; CHECK:         store i8 0, ptr addrspace(3) {{%.*}}, align 1
; CHECK:       atoll.zero.done:
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    br label %atoll.body
