; Charged loops (docs/passes.md "Charged loops"): an innermost loop, one cycle without
; inner cycles and not a wait, whose iteration count is at most 2^12 by a constant
; bound, has no check inside: the bound is charged to the poll counter once in its
; preheader (a poll when the counter runs out) and every block of the loop carries
; !atoll.bounded. A count known only at run time versions the loop: a copy without
; checks (".atoll.fast", marked) runs when the count is below the cap, the checked
; original otherwise, so an attacker's 2^63 still runs the checked loop. The count
; is computed for wrapping arithmetic: the tenant's nsw/nuw and mustprogress are
; dropped first, so a loop that only ends if nothing wraps stays checked.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s --check-prefix=NOCHARGE
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-charge-shift=3 -S %s | FileCheck %s --check-prefix=CAP8
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; Fault injection: with a check skipped the self-check accepts @const100 (a charged
; loop: no check needed) and refuses @const5000's loop, left without its check.
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-first-preempt-check -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOCHECK
; NOCHECK-NOT: refused in 'const100'
; NOCHECK: error: atoll-mem: refused in 'const5000': internal: a cycle has no preemption check

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 100 iterations: charged 100 in the preheader, nothing on the back edge.
; CHECK-LABEL: define ptx_kernel void @const100(
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, 100
; CHECK-NEXT:    %atoll.poll.due = icmp slt i32 %atoll.poll.next, 1
; CHECK-NEXT:    br i1 %atoll.poll.due, label %atoll.poll, label %{{.*}}, !prof
; CHECK-NOT:   atoll.backedge
; CHECK:       loop:
; CHECK:         br i1 %c, label %loop, label %exit, !atoll.bounded
; CHECK-NOT:   atoll.backedge
; CHECK:       }
; NOCHARGE-LABEL: define ptx_kernel void @const100(
; NOCHARGE:       loop.atoll.backedge:
; NOCHARGE-NOT:   !atoll.bounded
; NOCHARGE:       }
; CAP8-LABEL: define ptx_kernel void @const100(
; CAP8-NOT:     !atoll.bounded
; CAP8:       loop.atoll.backedge:
; CAP8-LABEL: define ptx_kernel void @const5000(
define ptx_kernel void @const100(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %a = getelementptr i32, ptr %p, i32 %i
  store i32 %i, ptr %a
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; 5000 iterations: above the cap, checked on every edge.
; CHECK-LABEL: define ptx_kernel void @const5000(
; CHECK-NOT:     atoll.tc.ok
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next = sub i32 %{{.*}}, 1
; CHECK-NOT:     !atoll.bounded
; CHECK:       }
define ptx_kernel void @const5000(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %a = getelementptr i32, ptr %p, i32 %i
  store i32 %i, ptr %a
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, 5000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A run-time count n (i64, so a tenant can pass 2^63): versioned. The guard takes the
; copy without checks only for counts below 4096; the copy's preheader charges the
; count; the original keeps its check; the exit phi takes both copies' values.
; CHECK-LABEL: define ptx_kernel void @runtime_count(
; CHECK:         %atoll.tc = freeze i64
; CHECK-NEXT:    %atoll.tc.ok = icmp ult i64 %atoll.tc, 4096
; CHECK-NEXT:    br i1 %atoll.tc.ok, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.ph.atoll.fast:
; CHECK:         [[T:%.*]] = trunc i64 %atoll.tc to i32
; CHECK-NEXT:    %atoll.charge = add i32 [[T]], 1
; CHECK-NEXT:    %atoll.charge.heavy = icmp ugt i32 %atoll.charge,
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, %atoll.charge
; CHECK:       loop.atoll.fast:
; CHECK:         br i1 %c.atoll.fast, label %loop.atoll.fast, label %exit, !llvm.loop !{{[0-9]+}}, !atoll.bounded
; CHECK:       loop.ph:
; CHECK-NEXT:    %atoll.poll.first = select i1 %atoll.cancelled.start, i32 0, i32 %{{.*}}
; CHECK-NEXT:    br label %loop
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 1
; CHECK:       loop:
; CHECK:         br i1 %c, label %loop.atoll.backedge, label %exit{{$}}
; CHECK:       exit:
; CHECK-NEXT:    %i1.lcssa = phi i64 [ %i1, %loop ], [ %i1.atoll.fast, %loop.atoll.fast ]
define ptx_kernel void @runtime_count(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %a = getelementptr i32, ptr %p, i64 %i
  store i32 1, ptr %a
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store i64 %i1, ptr %p
  ret void
}

; Ends only if nothing wraps (step 2 towards 7, with nsw and mustprogress): on the
; GPU the add wraps and the loop never ends. The flags are dropped before the count
; is asked for, so there is none: checked, no copy.
; CHECK-LABEL: define ptx_kernel void @ends_only_without_wrap(
; CHECK-NOT:     atoll.tc.ok
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK-NOT:     !atoll.bounded
; CHECK:       }
define ptx_kernel void @ends_only_without_wrap(ptr %p) mustprogress {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %i1 = add nuw nsw i32 %i, 2
  %c = icmp ne i32 %i1, 7
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  store i32 %i1, ptr %p
  ret void
}

; The same with a run-time bound: no count (an odd n never comes), checked.
; CHECK-LABEL: define ptx_kernel void @runtime_ends_only_without_wrap(
; CHECK-NOT:     atoll.tc.ok
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @runtime_ends_only_without_wrap(ptr %p, i32 %n) mustprogress {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %i1 = add nuw nsw i32 %i, 2
  %c = icmp ne i32 %i1, %n
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  store i32 %i1, ptr %p
  ret void
}

; Nested: the inner loop (16 iterations) is charged in its preheader, inside the
; outer loop's body; the outer loop (run-time count, not innermost) keeps its check.
; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK:       outer.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 1
; CHECK:       outer:
; CHECK:         %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 16
; CHECK:       inner:
; CHECK:         br i1 %cj, label %inner, label %outer.latch, !atoll.bounded
; CHECK-NOT:   inner.atoll.backedge
; CHECK:       }
define ptx_kernel void @nested(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %outer.latch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %a = getelementptr i32, ptr %p, i32 %j
  store i32 %i, ptr %a
  %j1 = add i32 %j, 1
  %cj = icmp ult i32 %j1, 16
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}

; A constant outer loop (8) around a charged inner loop (16): both charged, no
; check inside the nest (libdevice's eight rounds around its reduction loop).
; CHECK-LABEL: define ptx_kernel void @nested_const(
; CHECK:         %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 8
; CHECK:       outer:
; CHECK:         %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 16
; CHECK-NOT:   atoll.backedge
; CHECK:         br i1 %ci, label %outer, label %exit, !atoll.bounded
define ptx_kernel void @nested_const(ptr %p) {
entry:
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %outer.latch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %a = getelementptr i32, ptr %p, i32 %j
  store i32 %i, ptr %a
  %j1 = add i32 %j, 1
  %cj = icmp ult i32 %j1, 16
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %ci = icmp ult i32 %i1, 8
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}

; A constant outer loop around an inner loop with a run-time count: the inner loop
; is versioned, its checked copy is not charged, so the outer loop keeps its check.
; CHECK-LABEL: define ptx_kernel void @nested_outer_const_inner_runtime(
; CHECK:       outer.atoll.backedge:
; CHECK:       inner.atoll.fast:
; CHECK:       inner.atoll.backedge:
; CHECK:       }
define ptx_kernel void @nested_outer_const_inner_runtime(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %outer.latch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %a = getelementptr i32, ptr %p, i32 %j
  store i32 %i, ptr %a
  %j1 = add i32 %j, 1
  %cj = icmp ult i32 %j1, %n
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %ci = icmp ult i32 %i1, 8
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}

; A natural loop of 8 iterations with an irreducible cycle in its body: LoopInfo
; calls it innermost, CycleInfo does not; nothing is charged, every cycle checked.
; CHECK-LABEL: define ptx_kernel void @irreducible_inside(
; CHECK-NOT:     !atoll.bounded
; CHECK-NOT:     atoll.tc.ok
; CHECK:       .atoll.backedge:
; CHECK:       .atoll.backedge:
; CHECK:       }
define ptx_kernel void @irreducible_inside(ptr %p, i1 %c0, i32 %m) {
entry:
  br label %head
head:
  %k = phi i32 [0, %entry], [%k1, %latch]
  br i1 %c0, label %a, label %b
a:
  %x = phi i32 [0, %head], [%y1, %b]
  %x1 = add i32 %x, 1
  br label %b
b:
  %y = phi i32 [0, %head], [%x1, %a]
  %y1 = add i32 %y, 2
  %more = icmp slt i32 %y1, %m
  br i1 %more, label %a, label %latch
latch:
  %k1 = add i32 %k, 1
  %ck = icmp ult i32 %k1, 8
  br i1 %ck, label %head, label %exit
exit:
  store i32 %k1, ptr %p
  ret void
}

; A grid-stride loop (step blockDim * gridDim): versioned with run-time guards (step
; > 0, no wrap up to max(start, n) + step, n - start <= 4096 * step); the copy's
; charge is ceil((n - start) / 2^k), 2^k the largest power of two <= step (ctlz and
; a shift, no division).
; CHECK-LABEL: define ptx_kernel void @grid_stride(
; CHECK:         %atoll.gridstride.ok = and i1
; CHECK-NEXT:    br i1 %atoll.gridstride.ok, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.ph.atoll.fast:
; CHECK-NOT:     udiv
; CHECK:         call i64 @llvm.ctlz.i64(i64 {{%.*}}, i1 true)
; CHECK:         lshr i64
; CHECK:         %atoll.charge = select i1
; CHECK-NEXT:    %atoll.charge.heavy{{[0-9]*}} = icmp ugt i32 %atoll.charge,
; CHECK:         %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, %atoll.charge
; CHECK:       loop.atoll.fast:
; CHECK:         !atoll.bounded
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @grid_stride(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %ctaid, %ntid
  %start = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %any = icmp slt i32 %start, %n
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i32 [%start, %entry], [%i1, %loop]
  %acc = phi i32 [0, %entry], [%acc1, %loop]
  %a = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %a
  %acc1 = add i32 %acc, %v
  %i1 = add i32 %i, %stride
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [0, %entry], [%acc1, %loop]
  store i32 %r, ptr addrspace(1) %out
  ret void
}

; A wait (volatile load) with a constant bound is not charged: it polls on every edge.
; CHECK-LABEL: define ptx_kernel void @bounded_wait(
; CHECK-NOT:     !atoll.bounded
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       }
define ptx_kernel void @bounded_wait(ptr addrspace(1) %flag) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %v = load volatile i32, ptr addrspace(1) %flag
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; The PTX of the versioned loop compiles; the charge subtracts the count.
; PTX-LABEL: .entry runtime_count(
; PTX:         setp.gt.u64 {{%p[0-9]+}}, {{%rd[0-9]+}}, 4095;
; PTX:       // %loop.atoll.fast
; PTX-NOT:     ld.volatile
; PTX:         bra {{.*}}
; PTX:       // %exit

; A run-time count with a barrier in the loop: not versioned (threads taking different
; copies would run different barrier instructions), checked; a constant count with a
; barrier is charged (no copy).
; CHECK-LABEL: define ptx_kernel void @runtime_count_barrier(
; CHECK-NOT:     atoll.tc.ok
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @runtime_count_barrier(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  call void @llvm.nvvm.barrier0()
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @const_count_barrier(
; CHECK:         %atoll.poll.next{{[0-9]*}} = sub i32 %{{.*}}, 32
; CHECK-NOT:   atoll.backedge
; CHECK:         !atoll.bounded
; CHECK:       }
define ptx_kernel void @const_count_barrier(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  call void @llvm.nvvm.barrier0()
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 32
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A loop with a constant bound that is also a grid-stride loop (the shared-memory
; initialisation of CUDA kernels: bounded by 256 when blockDim is 1, once per thread
; with 256 threads): charged min(256, the grid-stride count) when the match's guards
; hold, 256 otherwise; not copied. Charging the bound polled in every thread (the
; counter holds 64): 1.045x on histogram on the H200 (session 8).
; CHECK-LABEL: define ptx_kernel void @tid_stride_init(
; CHECK:         %atoll.gridstride.ok = and i1
; CHECK:         [[G:%.*]] = call i32 @llvm.umin.i32(i32 %atoll.charge, i32 256)
; CHECK-NEXT:    %atoll.charge.tight = select i1 %atoll.gridstride.ok, i32 [[G]], i32 256
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, %atoll.charge.tight
; CHECK-NOT:   atoll.fast
; CHECK-NOT:   atoll.backedge
; CHECK:         br i1 %c, label %loop, label %exit{{.*}}, !atoll.bounded
; CHECK:       }
define ptx_kernel void @tid_stride_init(ptr addrspace(1) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %go = icmp ult i32 %t, 256
  br i1 %go, label %loop, label %exit
loop:
  %b = phi i32 [%t, %entry], [%b1, %loop]
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %b
  store i32 0, ptr addrspace(1) %a
  %b1 = add i32 %b, %nt
  %c = icmp ult i32 %b1, 256
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; An exit condition that reads undef (folded to anything before the pass makes it 0):
; not counted, checked.
; CHECK-LABEL: define ptx_kernel void @undef_bound(
; CHECK-NOT:     !atoll.bounded
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @undef_bound(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %i1 = add i32 %i, 1
  %lim = and i32 undef, 15
  %c = icmp ult i32 %i1, %lim
  br i1 %c, label %loop, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
