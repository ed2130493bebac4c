; R8-F3 (found by review): a charged loop is fresh work to the entry budget. The poll
; counter starts at 2^K without waiting for the entry read, so a charge below it never
; polled, and a block that started after a cancel ran the whole loop (63 iterations
; of 55 dependent loads) before any check. Now (docs/passes.md "Charged loops and the
; entry budget"):
; - up to Light = (entry budget / 2) / (work of one iteration) iterations the loop
;   runs on, and the branch into it carries !atoll.charged.work (Light - 1) * work,
;   which every walk of fresh work counts, so the entry checks come where the total
;   passes the budget (a run of light loops);
; - a charge that can be above Light branches on the entry read first: a register
;   test (atoll.charge.heavy) when the run-time charge may be light, the entry check
;   alone when it never is;
; - the tenant cannot set !atoll.charged.work (reserved, refused with its message).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %S/Inputs/charged-work-md.ll 2>&1 | FileCheck %s --check-prefix=RESERVED

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The reviewer's kernel in IR: 63 iterations of 55 dependent loads. One iteration is
; above half the entry budget, so Light is 0: the entry check, unconditional, before
; the charge; no work mark.
; CHECK-LABEL: define ptx_kernel void @heavy_constant(
; CHECK:         %atoll.cancel.start = load atomic i32
; CHECK:         br i1 %atoll.cancelled.start, label %atoll.cancel.chargecheck, label %[[GO:.*]], !prof
; CHECK:       atoll.cancel.chargecheck:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:       [[GO]]:
; CHECK-NEXT:    %atoll.poll.next = sub i32 %{{.*}}, 63
; CHECK-NOT:     !atoll.charged.work
; CHECK:       }
define ptx_kernel void @heavy_constant(ptr addrspace(1) %t, ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi i32 [ 1, %entry ], [ %v55, %loop ]
  %v1 = call i32 @hop(ptr addrspace(1) %t, i32 %v)
  %v2 = call i32 @hop(ptr addrspace(1) %t, i32 %v1)
  %v3 = call i32 @hop(ptr addrspace(1) %t, i32 %v2)
  %v4 = call i32 @hop(ptr addrspace(1) %t, i32 %v3)
  %v5 = call i32 @hop(ptr addrspace(1) %t, i32 %v4)
  %v10 = call i32 @hop5(ptr addrspace(1) %t, i32 %v5)
  %v15 = call i32 @hop5(ptr addrspace(1) %t, i32 %v10)
  %v20 = call i32 @hop5(ptr addrspace(1) %t, i32 %v15)
  %v25 = call i32 @hop5(ptr addrspace(1) %t, i32 %v20)
  %v30 = call i32 @hop5(ptr addrspace(1) %t, i32 %v25)
  %v35 = call i32 @hop5(ptr addrspace(1) %t, i32 %v30)
  %v40 = call i32 @hop5(ptr addrspace(1) %t, i32 %v35)
  %v45 = call i32 @hop5(ptr addrspace(1) %t, i32 %v40)
  %v50 = call i32 @hop5(ptr addrspace(1) %t, i32 %v45)
  %v55 = call i32 @hop5(ptr addrspace(1) %t, i32 %v50)
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 63
  br i1 %c, label %loop, label %exit
exit:
  store i32 %v55, ptr addrspace(1) %out, align 4
  ret void
}

define internal i32 @hop(ptr addrspace(1) %t, i32 %v) alwaysinline {
  %m = and i32 %v, 1048575
  %p = getelementptr i32, ptr addrspace(1) %t, i32 %m
  %x = load i32, ptr addrspace(1) %p, align 4
  %y = xor i32 %v, %x
  %z = mul i32 %y, 1664525
  %r = add i32 %z, 1013904223
  ret i32 %r
}

define internal i32 @hop5(ptr addrspace(1) %t, i32 %v) alwaysinline {
  %a = call i32 @hop(ptr addrspace(1) %t, i32 %v)
  %b = call i32 @hop(ptr addrspace(1) %t, i32 %a)
  %c = call i32 @hop(ptr addrspace(1) %t, i32 %b)
  %d = call i32 @hop(ptr addrspace(1) %t, i32 %c)
  %e = call i32 @hop(ptr addrspace(1) %t, i32 %d)
  ret i32 %e
}

; A light constant loop (4 iterations of one load): it runs on, no check; the branch
; into it carries 3 iterations' work.
; CHECK-LABEL: define ptx_kernel void @light_constant(
; CHECK-NOT:     atoll.cancel.chargecheck
; CHECK-NOT:     atoll.charge.heavy
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, 4
; CHECK:         br {{.*}}, !atoll.charged.work [[LW:![0-9]+]]
; CHECK:       }
define ptx_kernel void @light_constant(ptr addrspace(1) %t, ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi i32 [ 1, %entry ], [ %v1, %loop ]
  %v1 = call i32 @hop(ptr addrspace(1) %t, i32 %v)
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 4
  br i1 %c, label %loop, label %exit
exit:
  store i32 %v1, ptr addrspace(1) %out, align 4
  ret void
}

; A run-time count (versioned; a copy without checks for counts up to the cap): the
; charge is tested against Light (a register) and only a heavy one waits for the
; entry read; the light path runs on with its work counted.
; CHECK-LABEL: define ptx_kernel void @runtime_count(
; CHECK:         %atoll.charge = add i32 %atoll.tc, 1
; CHECK-NEXT:    %atoll.charge.heavy = icmp ugt i32 %atoll.charge, [[LIGHT:[0-9]+]]
; CHECK-NEXT:    br i1 %atoll.charge.heavy, label %[[HB:atoll.charge.heavy[0-9]*]], label %[[TAIL:.*]], !prof
; CHECK:       [[HB]]:
; CHECK-NEXT:    br i1 %atoll.cancelled.start, label %atoll.cancel.chargecheck, label %{{[0-9]+}}, !prof
; CHECK:       atoll.cancel.chargecheck:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:       [[TAIL]]:
; CHECK-NEXT:    %atoll.poll.next = sub i32 %{{.*}}, %atoll.charge
; CHECK:         !atoll.charged.work
; CHECK:       }
define ptx_kernel void @runtime_count(ptr addrspace(1) %t, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi i32 [ 1, %entry ], [ %v1, %loop ]
  %v1 = call i32 @hop(ptr addrspace(1) %t, i32 %v)
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %v1, ptr addrspace(1) %out, align 4
  ret void
}

; A run of light loops: each alone is under half the entry budget (4 iterations of 4
; loads), 16 in a row are 256 loads. The walk counts their charged work (3 x 295
; units each, beside the first iteration's 295) and puts the entry check before the
; 4th loop, where the total passes the budget (4096); past the check no path is
; fresh, so there is one. Without the work mark the walk saw only the first
; iterations (16 loads per loop) and put it before the 14th loop: 208 loads later.
; CHECK-LABEL: define ptx_kernel void @light_run(
; CHECK-NOT:     atoll.cancel.chargecheck
; CHECK:         br label %loop.i, !atoll.charged.work [[W:![0-9]+]]
; CHECK:         br label %loop.i1, !atoll.charged.work [[W]]
; CHECK:         br label %loop.i11, !atoll.charged.work [[W]]
; CHECK-NOT:     br label %loop.i
; CHECK:         br i1 %atoll.cancelled.start, label %atoll.cancel.entrycheck,
; CHECK:       atoll.cancel.entrycheck:
; CHECK:         br label %loop.i21, !atoll.charged.work [[W]]
; CHECK-NOT:     {{^}}atoll.cancel.entrycheck{{[0-9]*}}:
; CHECK:       }
define ptx_kernel void @light_run(ptr addrspace(1) %t, ptr addrspace(1) %out) {
entry:
  %v1 = call i32 @light4(ptr addrspace(1) %t, i32 1)
  %v2 = call i32 @light4(ptr addrspace(1) %t, i32 %v1)
  %v3 = call i32 @light4(ptr addrspace(1) %t, i32 %v2)
  %v4 = call i32 @light4(ptr addrspace(1) %t, i32 %v3)
  %v5 = call i32 @light4(ptr addrspace(1) %t, i32 %v4)
  %v6 = call i32 @light4(ptr addrspace(1) %t, i32 %v5)
  %v7 = call i32 @light4(ptr addrspace(1) %t, i32 %v6)
  %v8 = call i32 @light4(ptr addrspace(1) %t, i32 %v7)
  %v9 = call i32 @light4(ptr addrspace(1) %t, i32 %v8)
  %v10 = call i32 @light4(ptr addrspace(1) %t, i32 %v9)
  %v11 = call i32 @light4(ptr addrspace(1) %t, i32 %v10)
  %v12 = call i32 @light4(ptr addrspace(1) %t, i32 %v11)
  %v13 = call i32 @light4(ptr addrspace(1) %t, i32 %v12)
  %v14 = call i32 @light4(ptr addrspace(1) %t, i32 %v13)
  %v15 = call i32 @light4(ptr addrspace(1) %t, i32 %v14)
  %v16 = call i32 @light4(ptr addrspace(1) %t, i32 %v15)
  store i32 %v16, ptr addrspace(1) %out, align 4
  ret void
}

define internal i32 @light4(ptr addrspace(1) %t, i32 %v0) alwaysinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi i32 [ %v0, %entry ], [ %d, %loop ]
  %a = call i32 @hop(ptr addrspace(1) %t, i32 %v)
  %b = call i32 @hop(ptr addrspace(1) %t, i32 %a)
  %c = call i32 @hop(ptr addrspace(1) %t, i32 %b)
  %d = call i32 @hop(ptr addrspace(1) %t, i32 %c)
  %i.next = add i32 %i, 1
  %k = icmp ult i32 %i.next, 4
  br i1 %k, label %loop, label %exit
exit:
  ret i32 %d
}

; RESERVED: metadata !atoll.charged.work is reserved for the passes

; The light loops' mark: (4 - 1) iterations x 295 units.
; CHECK: [[W]] = !{i64 885}
