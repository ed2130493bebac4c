; `unreachable` would be lowered to a PTX trap, which faults the whole shared
; context: every one becomes `ret void` (an early exit of the thread).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @guarded(ptr %p, i32 %n) {
entry:
  %bad = icmp sgt i32 %n, 100
  br i1 %bad, label %dead, label %ok
dead:
  unreachable
ok:
  store i32 %n, ptr %p, align 4
  ret void
}

define ptx_kernel void @always() {
  unreachable
}

; CHECK-LABEL: define ptx_kernel void @guarded(
; CHECK:       dead:
; CHECK-NEXT:    ret void
; CHECK:       ok:
; CHECK-LABEL: define ptx_kernel void @always(
; CHECK:       atoll.body:
; CHECK-NEXT:    ret void
; CHECK-NOT:   unreachable

; PTX-NOT:     trap
; PTX-LABEL: .entry guarded(
; PTX:         ret;
; PTX-LABEL: .entry always(
; PTX:         ret;
; PTX-NOT:     trap
