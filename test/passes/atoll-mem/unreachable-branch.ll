; unreachable on a branch the tenant claims is never taken becomes ret void: NVPTX
; would emit trap, which faults the shared context.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %p, i32 %n) {
  %c = icmp sgt i32 %n, 10
  br i1 %c, label %never, label %ok
never:
  unreachable
ok:
  store i32 %n, ptr %p, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:       never:
; CHECK-NEXT:    ret void
; CHECK-NOT:   unreachable
; PTX-NOT: trap
