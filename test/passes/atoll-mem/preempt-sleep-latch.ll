; R10-F4 (review R10): the poll before a nanosleep splits the sleep's block. It used to
; be inserted before the back edges were split, so a latch holding a sleep was no
; longer a predecessor of its header:
; - a self loop with a sleep (the attack spin_sleep) got its back-edge check in a
;   block without predecessors: the counted check (fuel) and the eager poll were dead
;   code, only the sleep's poll was left;
; - with a phi in the header (a counter: the attack sleep_latch_fuel) atoll-mem
;   crashed inside SplitBlockPredecessors (an out-of-bounds phi operand write).
; The sleep polls now come last. Every loop keeps a live back-edge check (eager poll,
; counted check) and compiles. The class: a split on an edge the pass recorded before
; its own splits is refused when the edge is gone (internal error, never a crash):
; fault injection -atoll-test-sleep-polls-first restores the old order.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=LIVE
; RUN: %atoll-harden %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
; RUN: rm -rf %t && mkdir -p %t
; RUN: for k in self_loop sleep_latch_fuel sleep_in_latch; do llvm-extract --func=$k %s -S -o %t/$k.ll; done
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-sleep-polls-first -disable-output %t/self_loop.ll 2>&1 | FileCheck %s --check-prefix=FIRST -DK=self_loop
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-sleep-polls-first -disable-output %t/sleep_latch_fuel.ll 2>&1 | FileCheck %s --check-prefix=FIRST -DK=sleep_latch_fuel
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-sleep-polls-first -disable-output %t/sleep_in_latch.ll 2>&1 | FileCheck %s --check-prefix=FIRST -DK=sleep_in_latch

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; LIVE-NOT: No predecessors!

; CHECK-LABEL: define ptx_kernel void @self_loop(
; CHECK:       spin.atoll.backedge: ; preds = %[[SLEPT:[0-9]+]]
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:         %atoll.poll.next = sub i32
; CHECK:       atoll.poll:
; CHECK-NEXT:    br i1 %atoll.polled{{.*}}, label %atoll.poll.fresh, label %atoll.poll.entryread, !atoll.first.poll
; CHECK:       spin:
; CHECK:         br i1 %{{.*}}, label %atoll.cancel.sleep, label %[[SLEPT]], !prof
; CHECK:       [[SLEPT]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000)
; CHECK:         br i1 %z, label %spin.atoll.backedge, label %done
define ptx_kernel void @self_loop(ptr addrspace(1) %flag) {
entry:
  br label %spin
spin:
  call void @llvm.nvvm.nanosleep(i32 1000)
  %v = load volatile i32, ptr addrspace(1) %flag, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %spin, label %done
done:
  ret void
}

; The review's reproducer: the same with a counter (it crashed).
; CHECK-LABEL: define ptx_kernel void @sleep_latch_fuel(
; CHECK:       spin.atoll.backedge: ; preds = %[[SLEPT1:[0-9]+]]
; CHECK:         %atoll.poll.next = sub i32
; CHECK:       spin:
; CHECK:         %n = phi i32 [ 0, %{{.*}} ], [ %n1, %{{.*}} ]
; CHECK:       [[SLEPT1]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 0)
define ptx_kernel void @sleep_latch_fuel(ptr addrspace(1) %flag, ptr addrspace(1) %out) {
entry:
  br label %spin
spin:
  %n = phi i32 [ 0, %entry ], [ %n1, %spin ]
  %n1 = add i32 %n, 1
  call void @llvm.nvvm.nanosleep(i32 0)
  %v = load i32, ptr addrspace(1) %flag, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %spin, label %done
done:
  store i32 %n1, ptr addrspace(1) %out, align 4
  ret void
}

; A latch other than the header holds the sleep, below a header phi (it crashed).
; CHECK-LABEL: define ptx_kernel void @sleep_in_latch(
; CHECK:       head.atoll.backedge: ; preds = %[[SLEPT2:[0-9]+]]
; CHECK:       head:
; CHECK:         %i = phi i32 [ 0, %{{.*}} ], [ %i1, %{{.*}} ]
; CHECK:       latch:
; CHECK:         br i1 %{{.*}}, label %atoll.cancel.sleep, label %[[SLEPT2]], !prof
; CHECK:       [[SLEPT2]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000)
; CHECK-NEXT:    br label %head.atoll.backedge
define ptx_kernel void @sleep_in_latch(ptr addrspace(1) %flag, ptr addrspace(1) %out) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %v = load volatile i32, ptr addrspace(1) %flag, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %latch, label %done
latch:
  %i1 = add i32 %i, 1
  call void @llvm.nvvm.nanosleep(i32 1000)
  br label %head
done:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

; PTX: .entry self_loop(
; PTX: .entry sleep_latch_fuel(
; PTX: .entry sleep_in_latch(

; FIRST: atoll-mem: refused in '[[K]]': internal: a cycle-closing edge changed before its preemption check
; FIRST-NOT: Stack dump

declare void @llvm.nvvm.nanosleep(i32)
