; The straight-line budget (R3-F5 part 2; docs/passes.md "Straight-line budget"):
; loop-free code takes no loop check, so along every path without a cycle-closing
; edge atoll-mem puts a cancel poll (volatile load of the cancel word, leave when set)
; before the instruction at which the work since the last poll would exceed the
; budget (a memory access 64 units, any other instruction one per 32-bit register of
; its widest value, so a 64-bit address add costs 2; default 16384, i.e. 256
; accesses). Budget 300 here: with its confinement a load costs ~72, a poll before
; every 5th access. preempt-work-weights.ll tests the weights themselves.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-straight-budget=300 -S %s | FileCheck %s
; Default budget: these short kernels get no poll.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=DEFAULT
; Fault injection: without the polls the verification refuses the kernel.
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-straight-budget=300 -atoll-test-skip-straight-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED
; The PTX of the chain: the polls are volatile loads of the control block.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-straight-budget=300 %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; A 600-load chain (generated) at the default budget: polled (2 polls), and refused without them.
; RUN: %python %S/Inputs/gen-load-chain.py 600 > %t.long.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.long.ll | FileCheck %s --check-prefix=LONG
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-straight-polls -disable-output %t.long.ll 2>&1 | FileCheck %s --check-prefix=LONGREFUSED
; Fault injection: the self-check refuses the straight-line sleep of @diamond without its poll.
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-sleep-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOSLEEPPOLL
; NOSLEEPPOLL: error: atoll-mem: refused in 'diamond': internal: a nanosleep has no cancel poll right before it

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Seven dependent loads and a store, no loop: a poll before the fifth access, each
; leaving the kernel when cancelled; the last three loads and the store fit after it.
; CHECK-LABEL: define ptx_kernel void @chain8(
; CHECK:         %v3 = load i32
; CHECK:         %atoll.cancel = load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; CHECK:       atoll.cancel.straight:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:         %v4 = load i32
; CHECK-NOT:     load volatile
; CHECK:       atoll.leave:
; CHECK-NEXT:    ret void
; DEFAULT-LABEL: define ptx_kernel void @chain8(
; DEFAULT-NOT:   load volatile
; DEFAULT-NOT:   atoll.cancel.straight
; DEFAULT:       }
; REFUSED: internal: a path without loops runs more than 300 units of work without a cancel poll
; PTX-LABEL: .entry chain8(
; PTX-COUNT-1:   ld.volatile.global.b32
; PTX-NOT:       ld.volatile
; PTX:           ret;
define ptx_kernel void @chain8(ptr addrspace(1) %p, ptr addrspace(1) %o) {
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
  store i32 %v6, ptr addrspace(1) %o
  ret void
}

; Two paths join: the poll on the left (before its sleep) does not cover the right,
; so the run after the join is counted from the right (e0, e1, r0, j0: a poll before
; j1; from the left, counted from its poll, none would be needed before the store).
; CHECK-LABEL: define ptx_kernel void @diamond(
; CHECK:       atoll.cancel.sleep:
; CHECK:       right:
; CHECK:         %r0 = load i32
; CHECK:       join:
; CHECK:         %j0 = load i32
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; CHECK:       atoll.cancel.straight:
; CHECK:         %j1 = load i32
; CHECK-NOT:     load volatile
; CHECK:         ret void
; DEFAULT-LABEL: define ptx_kernel void @diamond(
; DEFAULT-NOT:   atoll.cancel.straight
; DEFAULT:       }
define ptx_kernel void @diamond(ptr addrspace(1) %p, i1 %c) {
entry:
  %e0 = load i32, ptr addrspace(1) %p
  %e1 = load i32, ptr addrspace(1) %p
  br i1 %c, label %left, label %right
left:
  call void @llvm.nvvm.nanosleep(i32 100)
  br label %join
right:
  %r0 = load i32, ptr addrspace(1) %p
  br label %join
join:
  %j0 = load i32, ptr addrspace(1) %p
  %j1 = load i32, ptr addrspace(1) %p
  %j2 = load i32, ptr addrspace(1) %p
  %j3 = load i32, ptr addrspace(1) %p
  %s = add i32 %j0, %j3
  store i32 %s, ptr addrspace(1) %p
  ret void
}

; A loop body longer than the budget: a poll inside the body as well (every path
; from the header is straight-line), besides the loop's own check.
; CHECK-LABEL: define ptx_kernel void @long_body(
; CHECK:       loop.atoll.backedge:
; CHECK:       loop:
; CHECK:         %l0 = load volatile i32
; CHECK:       atoll.cancel.straight:
; CHECK:         %l3 = load i32
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
define ptx_kernel void @long_body(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %l0 = load volatile i32, ptr addrspace(1) %p
  %l1 = load i32, ptr addrspace(1) %p
  %l2 = load i32, ptr addrspace(1) %p
  %l3 = load i32, ptr addrspace(1) %p
  %l4 = load i32, ptr addrspace(1) %p
  %l5 = load i32, ptr addrspace(1) %p
  %s = add i32 %l1, %l5
  store i32 %s, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A block reachable from the entry and from an unreachable cycle is still walked
; (an unreachable predecessor must not hide it from the budget).
; CHECK-LABEL: define ptx_kernel void @unreachable_pred(
; CHECK:       body:
; CHECK:         %b3 = load i32
; CHECK:       atoll.cancel.straight:
; CHECK:         store i32 %s
define ptx_kernel void @unreachable_pred(ptr addrspace(1) %p) {
entry:
  br label %body
dead1:
  br label %dead2
dead2:
  %d = load i32, ptr addrspace(1) %p
  %dc = icmp eq i32 %d, 0
  br i1 %dc, label %dead1, label %body
body:
  %b0 = load i32, ptr addrspace(1) %p
  %b1 = load i32, ptr addrspace(1) %p
  %b2 = load i32, ptr addrspace(1) %p
  %b3 = load i32, ptr addrspace(1) %p
  %s = add i32 %b0, %b3
  store i32 %s, ptr addrspace(1) %p
  ret void
}

declare void @llvm.nvvm.nanosleep(i32)

; LONG-LABEL: define ptx_kernel void @long(
; LONG-COUNT-2: {{^}}atoll.cancel.straight{{[0-9]*}}:
; LONG-NOT:     {{^}}atoll.cancel.straight{{[0-9]*}}:
; LONGREFUSED: internal: a path without loops runs more than 4096 units of work from the kernel's entry without a cancel poll
