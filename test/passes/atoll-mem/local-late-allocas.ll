; Fixed-size allocas outside the leading run of the entry block (after other code,
; or in a loop) join the entry block's allocas: they are allocated once and zeroed
; at entry like every other stack object (none is missed by the zero-init).
; RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @late(i64 %n, i64 %i, ptr %out) {
entry:
  %x = add i64 %n, 1
  %a = alloca [4 x i32], align 4
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %b = alloca [2 x i64], align 8
  %pa = getelementptr i32, ptr %a, i64 %i
  %va = load i32, ptr %pa, align 4
  %pb = getelementptr i64, ptr %b, i64 %k
  %vb = load i64, ptr %pb, align 8
  %k1 = add i64 %k, 1
  %c = icmp ult i64 %k1, %x
  br i1 %c, label %loop, label %exit
exit:
  store i32 %va, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @late(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca [4 x i32], align 4
; CHECK-NEXT:    %b = alloca [2 x i64], align 8
; CHECK-NOT:     alloca
; CHECK:         call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 %b, i8 0, i64 16, i1 false)
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %x = add i64 %n, 1
; CHECK:         br label %loop
; CHECK:       loop:
; CHECK-NOT:     alloca
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 12)
; CHECK:         %va = load i32
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 8)
; CHECK:         %vb = load i64
