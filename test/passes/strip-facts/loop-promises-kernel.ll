; A kernel definition written with willreturn and mustprogress (hand-written IR,
; or a front end's): both go, with the rest of its attributes kept, and its loop
; (i += 2 until i == n) is then no longer "finite" to LLVM (R4-F1).
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s --implicit-check-not='{{[{ ]}}mustprogress' --implicit-check-not='{{[{ ]}}willreturn'

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: define ptx_kernel void @k(ptr %out, i32 %n) [[K:#[0-9]+]] {
define ptx_kernel void @k(ptr %out, i32 %n) mustprogress willreturn nounwind "target-cpu"="sm_90" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %j = add i32 %i, 2
  %done = icmp eq i32 %j, %n
  br i1 %done, label %exit, label %loop
exit:
  store i32 %j, ptr %out, align 4
  ret void
}

; CHECK: attributes [[K]] = { nounwind "target-cpu"="sm_90" }
