; How fast a cancelled grid drains (found while fixing R6-F1, R6-F3): a block that
; starts after a cancel runs until its first poll. Loops: the counted check used to
; start at 2^K (64) iterations, so each new block ran up to 2^22 units (minutes for a
; grid of 2^24 blocks); now the counter starts from the cancel word, read at entry
; without a branch (an entry poll that waits for it cost streaming kernels 3.4x) and,
; on the way into a checked loop (this one: its count depends on memory), the counter
; becomes 0 when it was set: the first back edge polls and leaves. Charged loops (at
; most 2^20 units) do not wait for the read (at a charge it cost grid-stride kernels
; up to 7% on the H200).
; Loop-free code: the first poll at most -atoll-preempt-entry-budget units after the
; entry (default: the straight-line budget, docs/passes.md).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-test-skip-entry-cancel -S %s | FileCheck %s --check-prefix=NOSTART
; A lower entry budget: the chain's first poll comes after 4 accesses, the next about
; 15 accesses later (the straight-line budget of 1100 counts from there).
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=300 -atoll-preempt-straight-budget=1100 -S %s | FileCheck %s --check-prefix=ENTRY
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=300 -atoll-preempt-straight-budget=1100 -atoll-test-skip-straight-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK:         %atoll.cancel.start = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    %atoll.cancelled.start = icmp ne i32 %atoll.cancel.start, 0
; CHECK:       atoll.body:
; CHECK-NEXT:    %atoll.poll.first = select i1 %atoll.cancelled.start, i32 0, i32 {{%.*}}
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK:         %atoll.poll.count.0 = phi i32 [ %atoll.poll.first, %atoll.body ]
; NOSTART-LABEL: define ptx_kernel void @loop(
; NOSTART-NOT:   atoll.cancel.start
; NOSTART:       }
define ptx_kernel void @loop(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %c = icmp ne i32 %v, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; ENTRY-LABEL: define ptx_kernel void @chain(
; ENTRY:         %v3 = load i32
; ENTRY:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; ENTRY:         %v4 = load i32
; ENTRY:         %v17 = load i32
; ENTRY:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; ENTRY:         store i32 %v19
; CHECK-LABEL: define ptx_kernel void @chain(
; CHECK-NOT:     atoll.cancel.start
; CHECK-NOT:     load volatile
; CHECK:         ret void
; REFUSED: internal: a path without loops runs more than 300 units of work from the kernel's entry without a cancel poll
define ptx_kernel void @chain(ptr addrspace(1) %p, ptr addrspace(1) %o) {
entry:
  %v0 = load i32, ptr addrspace(1) %p
  %a1 = getelementptr i32, ptr addrspace(1) %p, i32 %v0
  %v1 = load i32, ptr addrspace(1) %a1
  %a2 = getelementptr i32, ptr addrspace(1) %p, i32 %v1
  %v2 = load i32, ptr addrspace(1) %a2
  %a3 = getelementptr i32, ptr addrspace(1) %p, i32 %v2
  %v3 = load i32, ptr addrspace(1) %a3
  %a4 = getelementptr i32, ptr addrspace(1) %p, i32 %v3
  %v4 = load i32, ptr addrspace(1) %a4
  %a5 = getelementptr i32, ptr addrspace(1) %p, i32 %v4
  %v5 = load i32, ptr addrspace(1) %a5
  %a6 = getelementptr i32, ptr addrspace(1) %p, i32 %v5
  %v6 = load i32, ptr addrspace(1) %a6
  %a7 = getelementptr i32, ptr addrspace(1) %p, i32 %v6
  %v7 = load i32, ptr addrspace(1) %a7
  %a8 = getelementptr i32, ptr addrspace(1) %p, i32 %v7
  %v8 = load i32, ptr addrspace(1) %a8
  %a9 = getelementptr i32, ptr addrspace(1) %p, i32 %v8
  %v9 = load i32, ptr addrspace(1) %a9
  %a10 = getelementptr i32, ptr addrspace(1) %p, i32 %v9
  %v10 = load i32, ptr addrspace(1) %a10
  %a11 = getelementptr i32, ptr addrspace(1) %p, i32 %v10
  %v11 = load i32, ptr addrspace(1) %a11
  %a12 = getelementptr i32, ptr addrspace(1) %p, i32 %v11
  %v12 = load i32, ptr addrspace(1) %a12
  %a13 = getelementptr i32, ptr addrspace(1) %p, i32 %v12
  %v13 = load i32, ptr addrspace(1) %a13
  %a14 = getelementptr i32, ptr addrspace(1) %p, i32 %v13
  %v14 = load i32, ptr addrspace(1) %a14
  %a15 = getelementptr i32, ptr addrspace(1) %p, i32 %v14
  %v15 = load i32, ptr addrspace(1) %a15
  %a16 = getelementptr i32, ptr addrspace(1) %p, i32 %v15
  %v16 = load i32, ptr addrspace(1) %a16
  %a17 = getelementptr i32, ptr addrspace(1) %p, i32 %v16
  %v17 = load i32, ptr addrspace(1) %a17
  %a18 = getelementptr i32, ptr addrspace(1) %p, i32 %v17
  %v18 = load i32, ptr addrspace(1) %a18
  %a19 = getelementptr i32, ptr addrspace(1) %p, i32 %v18
  %v19 = load i32, ptr addrspace(1) %a19
  store i32 %v19, ptr addrspace(1) %o
  ret void
}
