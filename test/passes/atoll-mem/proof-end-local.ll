; An access whose first byte is inside a stack object and whose last is not is
; never proven safe (the proof needs C + S <= size): a stack read one byte past
; the end would read the neighbouring object or another thread's frame.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;summarize>' -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @straddle(ptr %out) {
  %a = alloca [3 x i32], align 4
  %b = alloca [2 x i64], align 8
  %a8 = getelementptr i8, ptr %a, i64 8
  store i64 0, ptr %a8, align 4
  %b12 = getelementptr i8, ptr %b, i64 12
  %v = load i64, ptr %b12, align 4
  %b15 = getelementptr i8, ptr %b, i64 15
  store i16 1, ptr %b15, align 1
  store i64 %v, ptr %out, align 8
  ret void
}

; Three stack accesses, none proven.
; CHECK:      space      kind           confined  proven-safe   refused
; CHECK:      local      load                  1            0         0
; CHECK-NEXT: local      store                 2            0         0
