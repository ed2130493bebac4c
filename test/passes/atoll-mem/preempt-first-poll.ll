; A thread's first counted poll takes the entry read (session 9, docs/passes.md "The
; first poll"): the read was issued at the kernel's start, so nothing waits for a
; fresh load there. A fresh read at the charge of each grid-stride loop above the
; counter's first 2^K held every thread about a memory latency before its loop
; (saxpy 1.021x, histogram 1.032x, reduce_atomic 1.020x on the H200; with this rule
; 1.012x, 1.022x, 1.009x: bench/results/bench-h200-2026-12-02-s9b.log). From the
; second counted poll on the cancel word is read fresh (a per-thread flag,
; %atoll.polled, false at the entry). A block that started after the cancel still
; leaves at its first counted poll; a running thread may do one interval more.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @chase(
; CHECK:         %atoll.cancel.start = load atomic i32, ptr addrspace(1) %atoll.ctrl.entry monotonic, align 4
; CHECK:       loop.atoll.backedge:
; CHECK:         br i1 %atoll.poll.due, label %atoll.poll, label
; CHECK:       atoll.poll:
; CHECK-NEXT:    br i1 [[POLLED:%atoll.polled[.0-9]*]], label %atoll.poll.fresh, label %atoll.poll.entryread
; CHECK:       atoll.poll.fresh:
; CHECK-NEXT:    [[CW:%atoll.cancel[0-9]*]] = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    [[C:%atoll.cancelled[0-9]*]] = icmp ne i32 [[CW]], 0
; CHECK-NEXT:    br i1 [[C]], label
; CHECK:       atoll.poll.entryread:
; CHECK-NEXT:    br i1 %atoll.cancelled.start, label
; CHECK:         phi i1 [ [[POLLED]], %{{[0-9]+}} ], [ true, %{{[0-9]+}} ]
; CHECK:       loop:
; CHECK-NEXT:    [[POLLED]] = phi i1 [ false, %atoll.body ], [ %{{.*}}, %{{.*}} ]
; CHECK:       }
define ptx_kernel void @chase(ptr addrspace(1) %t, ptr addrspace(1) %out, i32 %stop) {
entry:
  br label %loop
loop:
  %v = phi i32 [ 1, %entry ], [ %v1, %loop ]
  %m = and i32 %v, 1023
  %p = getelementptr i32, ptr addrspace(1) %t, i32 %m
  %x = load i32, ptr addrspace(1) %p, align 4
  %v1 = xor i32 %v, %x
  %c = icmp ne i32 %v1, %stop
  br i1 %c, label %loop, label %exit
exit:
  store i32 %v1, ptr addrspace(1) %out, align 4
  ret void
}
