; Preemption checks (ABI v2): every cycle-closing edge gets a check that counts down a
; per-thread counter and, every 2^k-th edge, reads the control block's cancel word
; (volatile, through the hidden __atoll_control parameter, never confined) and leaves
; the kernel when it is set. Loop-free kernels get nothing (the entry poll, which
; made streaming kernels up to 3.4x slower on the H200, is behind
; -atoll-preempt-entry-poll). Multiple latches of one header share one check block.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-poll -S %s | FileCheck %s --check-prefix=ENTRY
; RUN: %opt-atoll -passes='atoll-mem<poll-shift=3>' -atoll-preempt-no-charge -S %s | FileCheck %s --check-prefix=SHIFT3
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: not %opt-atoll -passes='atoll-mem<poll-shift=21>' -S %s 2>&1 | FileCheck %s --check-prefix=BADSHIFT
; RUN: not %opt-atoll -passes='atoll-mem<preempt=maybe>' -S %s 2>&1 | FileCheck %s --check-prefix=BADPREEMPT
; Fault injection: the self-check refuses a cycle left without its check.
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -atoll-test-skip-first-preempt-check -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOCHECK
; NOCHECK-NOT: refused in 'straight'
; NOCHECK: error: atoll-mem: refused in 'simple': internal: a cycle has no preemption check

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @straight(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK-NOT:   atoll.cancel
; CHECK-NOT:   atoll.poll
; CHECK-NOT:   atoll.fuel
; CHECK-NOT:   atoll.leave
; CHECK:       ret void
; CHECK-NEXT:  }
; ENTRY-LABEL: define ptx_kernel void @straight(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; The entry poll is the first thing the kernel does, before the setup (R8-F1).
; ENTRY-NEXT:  %atoll.ctrl.entrypoll = inttoptr i64 %__atoll_control to ptr addrspace(1)
; ENTRY-NEXT:  %atoll.cancel = load volatile i32, ptr addrspace(1) %atoll.ctrl.entrypoll, align 4
; ENTRY-NEXT:  %atoll.cancelled = icmp ne i32 %atoll.cancel, 0
; ENTRY-NEXT:  br i1 %atoll.cancelled, label %atoll.cancel.entry, label {{%.*}}, !prof
; ENTRY-NOT:   atoll.poll
; ENTRY-NOT:   atoll.fuel
; ENTRY:       atoll.cancel.entry:
; ENTRY-NEXT:  br label %atoll.leave
; ENTRY:       atoll.leave:
; ENTRY-NEXT:  ret void
; ENTRY-NEXT:  }
define ptx_kernel void @straight(ptr %p) {
  store i32 1, ptr %p
  ret void
}

; CHECK-LABEL: define ptx_kernel void @simple(
; CHECK:         %atoll.ctrl = inttoptr i64 %__atoll_control to ptr addrspace(1)
; CHECK:         %atoll.fuel = load i64, ptr addrspace(1) %atoll.ctrl.fuel, align 8
; CHECK:         [[FIRST:%.*]] = call i64 @llvm.umin.i64(i64 %atoll.fuel.budget, i64 64)
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next = sub i32 %atoll.poll.count.0, 1
; CHECK-NEXT:    %atoll.poll.due = icmp slt i32 %atoll.poll.next, 1
; CHECK-NEXT:    br i1 %atoll.poll.due, label %atoll.poll, label {{%.*}}, !prof [[UNLIKELY:![0-9]+]]
; CHECK:       atoll.poll.fresh:
; CHECK-NEXT:    [[CW:%atoll.cancel[0-9]*]] = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    {{%.*}} = icmp ne i32 [[CW]], 0
; CHECK:       loop:
; CHECK:         br i1 %c, label %loop.atoll.backedge, label %exit
; CHECK:       atoll.fuel.exhausted:
; CHECK-NEXT:    atomicrmw or ptr addrspace(1) %atoll.ctrl.status, i32 1 monotonic, align 4
; CHECK:       atoll.leave:
; CHECK-NEXT:    ret void
; SHIFT3-LABEL: define ptx_kernel void @simple(
; SHIFT3:         call i64 @llvm.umin.i64(i64 %atoll.fuel.budget, i64 8)
; OFF-LABEL:   define ptx_kernel void @simple(
; OFF-NOT:       atoll.poll
; OFF-NOT:       atoll.ctrl
; OFF:         }
define ptx_kernel void @simple(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

; Nested loops: one check per header (inner and outer).
; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK-DAG:   inner.atoll.backedge:
; CHECK-DAG:   outer.atoll.backedge:
; CHECK:       }
define ptx_kernel void @nested(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %outer.latch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

; Two latches (a continue and the bottom) share one check block in front of the header.
; CHECK-LABEL: define ptx_kernel void @two_latches(
; CHECK:       head.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next
; CHECK-NOT:   .atoll.backedge:
; CHECK:       }
define ptx_kernel void @two_latches(ptr %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [0, %entry], [%i1, %cont], [%i1, %bottom]
  %i1 = add i32 %i, 1
  %odd = and i32 %i1, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %cont, label %bottom
cont:
  %c1 = icmp slt i32 %i1, %n
  br i1 %c1, label %head, label %exit
bottom:
  %c2 = icmp slt i32 %i1, %n
  br i1 %c2, label %head, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

; A switch whose cases jump back twice to the header: one edge block, phis fixed.
; CHECK-LABEL: define ptx_kernel void @switch_latch(
; CHECK:       sw.atoll.backedge:
; CHECK:       }
define ptx_kernel void @switch_latch(ptr %p, i32 %n) {
entry:
  br label %sw
sw:
  %i = phi i32 [0, %entry], [%i1, %sw], [%i1, %sw]
  %i1 = add i32 %i, 1
  switch i32 %i1, label %exit [ i32 1, label %sw
                                i32 2, label %sw ]
exit:
  store i32 %i1, ptr %p
  ret void
}

; The PTX has the counter decrement on the edge, the volatile poll of the control
; word, and the fuel bit set with an atomic or.
; PTX-LABEL: .entry simple(
; PTX:         add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, -1;
; PTX:         ld.volatile.global.b32
; PTX:         atom.global.or.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}+4], 1;

; BADSHIFT: atoll-mem: invalid poll-shift '21' (expected 0..20)
; BADPREEMPT: atoll-mem: invalid preempt 'maybe' (expected on or off)

