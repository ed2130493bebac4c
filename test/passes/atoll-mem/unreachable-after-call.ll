; unreachable after a noreturn-looking sequence (here: after a store, as clang
; emits for __builtin_unreachable()) is neutralised as ret void in every block.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %p, i32 %n) {
entry:
  switch i32 %n, label %dflt [ i32 0, label %a
                              i32 1, label %b ]
a:
  store i32 1, ptr %p, align 4
  unreachable
b:
  unreachable
dflt:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT:   unreachable
; CHECK:       a:
; CHECK:         store i32 1
; CHECK-NEXT:    ret void
; CHECK:       b:
; CHECK-NEXT:    ret void
