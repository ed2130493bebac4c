; The count of a charged loop must hold for the code the GPU runs, so the exit slice
; (what the exit conditions are computed from) keeps no poison fact of the tenant's
; (docs/passes.md "The counts hold for the code the GPU runs"):
; - R4-F6: llvm.abs/ctlz/cttz with their "poison" immediate become the non-poison
;   forms (abs(INT_MIN, true) is poison; the count trusted abs >= 0);
; - R4-F5: the grid-stride copy loses nsw/nuw/samesign (its guards prove no wrap
;   only in the predicate's signedness);
; - an operation whose poison no flag carries (a shift by a run-time amount, a
;   division by a run-time divisor, fptoui) makes the loop stay checked; the same
;   with constants is charged.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)

; The reviewer's probe (abs_start.ll): for (i = abs(n); i <s 100; i++). With
; n = INT_MIN the IR runs 2^31 + 100 times: the count is the run-time one of the
; non-poison abs, and the checked loop (with its poll) stays for large counts.
; CHECK-LABEL: define ptx_kernel void @abs_start(
; CHECK:         %a = call i32 @llvm.abs.i32(i32 %n, i1 false)
; CHECK:         %atoll.tc.ok = icmp ult i32 %atoll.tc, 4096
; CHECK:       loop.atoll.backedge:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       }
define ptx_kernel void @abs_start(ptr addrspace(1) %out, i32 %n) {
entry:
  %a = call i32 @llvm.abs.i32(i32 %n, i1 true)
  br label %loop
loop:
  %i = phi i32 [ %a, %entry ], [ %i.next, %loop ]
  %idx = and i32 %i, 255
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 100
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; ctlz/cttz(x, true) are poison for 0 (the hardware gives 32): the non-poison forms,
; whose sum is at most 64: ScalarEvolution's constant bound, 126, holds; the charge is
; the run-time (grid-stride) count cut to that bound, 126 when its guards fail (the
; loop is not copied).
; CHECK-LABEL: define ptx_kernel void @ctlz_bound(
; CHECK:         call i32 @llvm.ctlz.i32(i32 %n, i1 false)
; CHECK-NEXT:    call i32 @llvm.cttz.i32(i32 %m, i1 false)
; CHECK:         [[T:%.*]] = call i32 @llvm.umin.i32(i32 %atoll.charge, i32 126)
; CHECK-NEXT:    %atoll.charge.tight = select i1 %atoll.gridstride.ok, i32 [[T]], i32 126
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, %atoll.charge.tight
; CHECK-NOT:     atoll.fast
; CHECK:         br i1 %c, label %loop, label %exit, !llvm.loop !{{[0-9]+}}, !atoll.bounded
; CHECK:       }
define ptx_kernel void @ctlz_bound(ptr addrspace(1) %out, i32 %n, i32 %m) {
entry:
  %z = call i32 @llvm.ctlz.i32(i32 %n, i1 true)
  %t = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %b = add i32 %z, %t
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = and i32 %i, 255
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; The reviewer's probe (gs_samesign.ll): the grid-stride copy keeps no flag of the
; tenant's (samesign is gone); its increment gets nuw and nsw back only under their
; own run-time guards (preempt-nowrap-copy.ll), each in its own signedness; the
; checked original (with its poll) runs when any guard fails.
; CHECK-LABEL: define ptx_kernel void @gs_samesign(
; CHECK:         icmp sle i64 %{{.*}}, 4294967295
; CHECK:         [[SEND:%.*]] = add i64 %{{.*}}, %{{.*}}
; CHECK-NEXT:    icmp sge i64 [[SEND]], -2147483648
; CHECK:         icmp sle i64 [[SEND]], 2147483647
; CHECK:         [[UEND:%.*]] = add i64 %{{.*}}, %{{.*}}
; CHECK-NEXT:    icmp ule i64 [[UEND]], 4294967295
; CHECK:         %atoll.gridstride.ok{{[0-9]*}} = and i1
; CHECK:       loop.atoll.fast:
; CHECK:         %i.next.atoll.fast = add nuw nsw i32 %i.atoll.fast, %s
; CHECK-NEXT:    %c.atoll.fast = icmp ult i32 %i.next.atoll.fast, %b
; CHECK:       loop.atoll.backedge:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       loop:
; CHECK:         %i.next = add i32 %i, %s
; CHECK-NEXT:    %c = icmp ult i32 %i.next, %b
; CHECK:       }
define ptx_kernel void @gs_samesign(ptr addrspace(1) %out, i32 %a, i32 %s, i32 %b) {
entry:
  br label %loop
loop:
  %i = phi i32 [ %a, %entry ], [ %i.next, %loop ]
  %idx = and i32 %i, 255
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, %s
  %c = icmp samesign ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; Counts through a run-time shift, a run-time division and fptoui: not trusted, the
; loop stays checked (no copy, no charge).
; CHECK-LABEL: define ptx_kernel void @shift_runtime(
; CHECK-NOT:     atoll.tc
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @shift_runtime(ptr addrspace(1) %out, i32 %n, i32 %k) {
entry:
  %b = lshr i32 %n, %k
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @div_runtime(
; CHECK-NOT:     atoll.tc
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @div_runtime(ptr addrspace(1) %out, i32 %n, i32 %d) {
entry:
  %b = udiv i32 %n, %d
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @fptoui_bound(
; CHECK-NOT:     atoll.tc
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @fptoui_bound(ptr addrspace(1) %out, half %h) {
entry:
  %b = fptoui half %h to i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; The same with a constant shift and divisor: counted, versioned.
; CHECK-LABEL: define ptx_kernel void @shift_div_const(
; CHECK:         %atoll.tc.ok = icmp ult i32 %atoll.tc, 4096
; CHECK:       loop.atoll.fast:
; CHECK:       }
define ptx_kernel void @shift_div_const(ptr addrspace(1) %out, i32 %n) {
entry:
  %s = lshr i32 %n, 2
  %b = udiv i32 %s, 3
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %b
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; Of the loop's metadata only llvm.loop.unroll.disable stays (no fact; ptxas's
; `.pragma "nounroll"`, as without the checks); mustprogress goes.
; CHECK-LABEL: define ptx_kernel void @keep_nounroll(
; CHECK:         br i1 %c, label %loop, label %exit, !llvm.loop [[ID:![0-9]+]], !atoll.bounded
; CHECK:       [[UD:![0-9]+]] = !{!"llvm.loop.unroll.disable"}
; CHECK:       [[ID]] = distinct !{[[ID]], [[UD]]}
; CHECK-NOT:   llvm.loop.mustprogress
define ptx_kernel void @keep_nounroll(ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, 100
  br i1 %c, label %loop, label %exit, !llvm.loop !2
exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
!2 = distinct !{!2, !3, !1}
!3 = !{!"llvm.loop.mustprogress"}
