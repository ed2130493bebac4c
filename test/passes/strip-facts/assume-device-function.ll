; llvm.assume calls in a device function (not only in kernels: atoll-mem inlines
; it into the kernel later, assumptions and all): a condition on a loop bound and
; a separate_storage bundle (two pointers never alias) are removed.
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @copy(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i32 [ 0, %entry ], [ %j, %loop ]
; CHECK-NEXT:    %ok = icmp ult i32 %i, %n
; CHECK-NEXT:    %p = getelementptr i32, ptr %src, i32 %i
; CHECK-NOT:     llvm.assume
; CHECK:         ret void
define internal void @copy(ptr %dst, ptr %src, i32 %n) {
entry:
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %dst, ptr %src) ]
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %ok = icmp ult i32 %i, %n
  call void @llvm.assume(i1 %ok)
  %p = getelementptr i32, ptr %src, i32 %i
  %v = load i32, ptr %p, align 4
  %q = getelementptr i32, ptr %dst, i32 %i
  store i32 %v, ptr %q, align 4
  %j = add i32 %i, 1
  %done = icmp eq i32 %j, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @k(ptr %dst, ptr %src, i32 %n) {
  call void @copy(ptr %dst, ptr %src, i32 %n)
  ret void
}

declare void @llvm.assume(i1)
