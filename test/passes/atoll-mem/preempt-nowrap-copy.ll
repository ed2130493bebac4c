; The copy without checks of a versioned loop gets the no-wrap flags of its
; induction variables back, each proven at run time by a guard in the preheader
; (docs/passes.md "No-wrap facts in the copy"). dropLoopFlags takes the tenant's
; nsw/nuw off the exit slice so that the count holds for the code the GPU runs; the
; copy then lost the sign extension of its 32-bit index as an affine recurrence, and
; strength reduction left a 64-bit multiply in the loop (stencil3d 1.040x on the
; H200, session 8). The tenant's flag only says which fact to try: the guard
; S + (count) * C, exact in 64 bits, must stay in the IV's range, and-ed into the
; versioning condition; when it fails, the checked original (without flags) runs.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (int z = 0; z < n; ++z) out[z * plane] = z: the copy's increment is nsw again,
; under the guard 0 + (T + 1) * 1 <= INT_MAX (and >= INT_MIN); the original stays
; without flags.
; CHECK-LABEL: define ptx_kernel void @counted_nsw(
; CHECK:         %atoll.tc = freeze i32
; CHECK:         [[INCS:%.*]] = freeze i64
; CHECK:         [[S:%.*]] = freeze i32 0
; CHECK-NEXT:    [[C:%.*]] = freeze i32 1
; CHECK-NEXT:    [[SX:%.*]] = sext i32 [[S]] to i64
; CHECK-NEXT:    [[CX:%.*]] = sext i32 [[C]] to i64
; CHECK-NEXT:    [[M:%.*]] = mul i64 [[INCS]], [[CX]]
; CHECK-NEXT:    [[END:%.*]] = add i64 [[SX]], [[M]]
; CHECK-NEXT:    [[LO:%.*]] = icmp sge i64 [[END]], -2147483648
; CHECK:         [[HI:%.*]] = icmp sle i64 [[END]], 2147483647
; CHECK-NOT:     icmp ule i64 [[END]]
; CHECK:         %atoll.tc.ok{{[0-9]+}} = and i1 %atoll.tc.ok,
; CHECK-NEXT:    br i1 %atoll.tc.ok{{[0-9]+}}, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.atoll.fast:
; CHECK:         %z.next.atoll.fast = add nsw i32 %z.atoll.fast, 1
; CHECK:       loop.atoll.backedge:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       loop:
; CHECK:         %z.next = add i32 %z, 1
; CHECK:       }
define ptx_kernel void @counted_nsw(ptr addrspace(1) %out, i32 %n, i64 %plane) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %z = phi i32 [ 0, %entry ], [ %z.next, %loop ]
  %zx = sext i32 %z to i64
  %off = mul i64 %zx, %plane
  %p = getelementptr float, ptr addrspace(1) %out, i64 %off
  store i32 %z, ptr addrspace(1) %p, align 4
  %z.next = add nsw i32 %z, 1
  %c = icmp slt i32 %z.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; nuw from the tenant on an IV of the exit slice (i from a up to n by 1): the unsigned guard only (zero extensions, <= UINT_MAX).
; CHECK-LABEL: define ptx_kernel void @counted_nuw(
; CHECK:         [[UEND:%.*]] = add i64 %{{.*}}, %{{.*}}
; CHECK-NEXT:    icmp ule i64 [[UEND]], 4294967295
; CHECK-NOT:     icmp sle i64 {{.*}}, 2147483647
; CHECK:       loop.atoll.fast:
; CHECK:         %i.next.atoll.fast = add nuw i32 %i.atoll.fast, 1
; CHECK:       loop:
; CHECK:         %i.next = add i32 %i, 1
; CHECK:       }
define ptx_kernel void @counted_nuw(ptr addrspace(1) %out, i32 %a, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ %a, %entry ], [ %i.next, %loop ]
  %ix = zext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %ix
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nuw i32 %i, 1
  %c = icmp ne i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; An IV off the exit slice (k counts, i indexes): dropLoopFlags leaves i's nuw in
; both loops, as the rest of the body, so there is nothing to prove and no guard.
; CHECK-LABEL: define ptx_kernel void @offslice_nuw(
; CHECK-NOT:     icmp ule i64 {{.*}}, 4294967295
; CHECK:       loop.atoll.fast:
; CHECK:         %i.next.atoll.fast = add nuw i32 %i.atoll.fast, %s
; CHECK:       loop:
; CHECK:         %i.next = add nuw i32 %i, %s
; CHECK:       }
define ptx_kernel void @offslice_nuw(ptr addrspace(1) %out, i32 %a, i32 %n, i32 %s) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %i = phi i32 [ %a, %entry ], [ %i.next, %loop ]
  %ix = zext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %ix
  store i32 %k, ptr addrspace(1) %p, align 4
  %i.next = add nuw i32 %i, %s
  %k.next = add i32 %k, 1
  %c = icmp ult i32 %k.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; No flag from the tenant: nothing to try, no guard, the copy has no flag either.
; CHECK-LABEL: define ptx_kernel void @counted_noflag(
; CHECK:         %atoll.tc.ok = icmp ult i32 %atoll.tc,
; CHECK-NEXT:    br i1 %atoll.tc.ok, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.atoll.fast:
; CHECK:         %z.next.atoll.fast = add i32 %z.atoll.fast, 1
; CHECK:       }
define ptx_kernel void @counted_noflag(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %z = phi i32 [ 0, %entry ], [ %z.next, %loop ]
  %zx = sext i32 %z to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %zx
  store i32 %z, ptr addrspace(1) %p, align 4
  %z.next = add i32 %z, 1
  %c = icmp slt i32 %z.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A 64-bit IV: its guard would need 128-bit arithmetic, and no extension needs the
; fact; the copy gets no flag.
; CHECK-LABEL: define ptx_kernel void @counted_i64(
; CHECK:         %atoll.tc.ok = icmp ult i64 %atoll.tc,
; CHECK-NEXT:    br i1 %atoll.tc.ok, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.atoll.fast:
; CHECK:         %z.next.atoll.fast = add i64 %z.atoll.fast, 1
; CHECK:       }
define ptx_kernel void @counted_i64(ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %z = phi i64 [ 0, %entry ], [ %z.next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %out, i64 %z
  store i64 %z, ptr addrspace(1) %p, align 4
  %z.next = add nsw i64 %z, 1
  %c = icmp slt i64 %z.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A decrement (step -1) marked nsw and nuw: nuw is false for it (unsigned, -1 is
; 4294967295), and its guard S + (T+1) * 4294967295 <= UINT_MAX fails at run time
; for every count (but a start of 0 decremented once, where nuw holds), so the
; checked loop takes those runs; the copy's flags are only ever used where true.
; CHECK-LABEL: define ptx_kernel void @countdown_both(
; CHECK:         [[C:%.*]] = freeze i32 -1
; CHECK:         sext i32 [[C]] to i64
; CHECK:         zext i32 [[C]] to i64
; CHECK:         icmp ule i64 %{{.*}}, 4294967295
; CHECK:       loop.atoll.fast:
; CHECK:         %i.next.atoll.fast = add nuw nsw i32 %i.atoll.fast, -1
; CHECK:       loop:
; CHECK:         %i.next = add i32 %i, -1
; CHECK:       }
define ptx_kernel void @countdown_both(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ %n, %entry ], [ %i.next, %loop ]
  %ix = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %ix
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, -1
  %c = icmp sgt i32 %i.next, 0
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; STATS: 6 atoll-preempt - Loops versioned: a copy without checks for counts up to the cap
; STATS: 4 atoll-preempt - No-wrap flags given back to the copies' increments, guarded
