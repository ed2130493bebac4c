; How fast a cancelled grid drains (R6-F3; review R7-F1, F4, F7, F8, F9): a block that
; starts after a cancel runs until its first poll. The cancel word is read once at the
; top of every kernel that needs it (a relaxed atomic load, `%atoll.cancel.start`, that
; nothing waits for where it is issued):
;  - checked loops: on every edge into the cycle (R7-F4: an irreducible cycle's other
;    entries too) the counter becomes 0 when it was set, so the first back edge polls;
;  - loop-free code and loop bodies: where the work from the entry exceeds the entry
;    budget (default 4096 units, 64 accesses; 1024 here, so that short kernels show
;    it; R7-F7: a loop's first iteration counts), an
;    entry check branches on the read: no new load, so streaming kernels never wait;
;  - charged loops (at most 2^20 units) do not wait for the read (at a charge it cost
;    grid-stride kernels up to 7% on the H200) unless their charge can pass half the
;    entry budget (R8-F3, preempt-charge-entry.ll); a thread's first counted poll
;    takes the read (preempt-first-poll.ll).
; Entry checks are never split in before a phi (R7-F8: a phi's copies are charged to
; its predecessors), and the read and its compare weigh nothing (R7-F9: CodeGenPrepare
; sinks the compare next to its branch; the check after codegen refused the benign
; matmul_tiled_i32 control). A kernel without checked loops or entry checks has no
; entry read.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=1024 -S %s | FileCheck %s
; At the default budget (64 accesses) the 30-load chain takes no entry check and no read.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=1024 -atoll-test-skip-entry-cancel -S %s | FileCheck %s --check-prefix=NOSTART
; A lower entry budget: the chain's entry check comes after 4 accesses and the
; straight-line poll (budget 1100) about 15 accesses after the kernel's entry.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=300 -atoll-preempt-straight-budget=1100 -S %s | FileCheck %s --check-prefix=ENTRY
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=300 -atoll-preempt-straight-budget=1100 -atoll-test-skip-straight-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED
; In PTX the entry read is ld.relaxed and the entry check a branch on it, no new load.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=1024 %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; R7-F4: both entries of an irreducible cycle start the counter from the read.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=1024 -S %S/Inputs/r7-irreducible-entries.ll | FileCheck %s --check-prefix=IRR
; R7-F8: a budget crossed at a <64 x i32> phi (the module must verify; opt checks it).
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=512 -S %S/Inputs/r7-wide-phi-at-budget.ll | FileCheck %s --check-prefix=PHI
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=450 -disable-output %S/Inputs/r7-wide-phi-at-budget.ll
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=560 -disable-output %S/Inputs/r7-wide-phi-at-budget.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK:         %atoll.ctrl.entry = inttoptr i64 %__atoll_control to ptr addrspace(1)
; CHECK-NEXT:    %atoll.cancel.start = load atomic i32, ptr addrspace(1) %atoll.ctrl.entry monotonic, align 4
; CHECK-NEXT:    %atoll.cancelled.start = icmp ne i32 %atoll.cancel.start, 0
; CHECK:       atoll.body:
; CHECK-NEXT:    %atoll.poll.first = select i1 %atoll.cancelled.start, i32 0, i32 {{%.*}}
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK:         %atoll.poll.count.0 = phi i32 [{{.*}}%atoll.poll.first, %atoll.body ]
; NOSTART-LABEL: define ptx_kernel void @loop(
; NOSTART-NOT:   select i1 %atoll.cancelled.start
; NOSTART:       }
; IRR-LABEL:   define ptx_kernel void @irr(
; IRR:         toa:
; IRR:           %atoll.poll.first{{[0-9]*}} = select i1 %atoll.cancelled.start, i32 0
; IRR:         tob:
; IRR:           %atoll.poll.first{{[0-9]*}} = select i1 %atoll.cancelled.start, i32 0
; PHI-LABEL:   define ptx_kernel void @phisplit(
; PHI:         j:
; PHI-NEXT:      %v = phi <64 x i32>
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
; ENTRY:         br i1 %atoll.cancelled.start, label %atoll.cancel.entrycheck
; ENTRY:         %v4 = load i32
; ENTRY:         %v14 = load i32
; ENTRY:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; ENTRY:         store i32 %v29
; A block that starts after a cancel leaves after 14 of the 30 loads (1022 units with
; their confinement); no volatile load: the regular polls come every 256 accesses.
; DEFAULT-LABEL: define ptx_kernel void @chain(
; DEFAULT-NOT:     atoll.cancel
; DEFAULT:         ret void
; CHECK-LABEL: define ptx_kernel void @chain(
; CHECK:         %atoll.cancel.start = load atomic i32
; CHECK:         %v13 = load i32
; CHECK:         br i1 %atoll.cancelled.start, label %atoll.cancel.entrycheck, label
; CHECK:       atoll.cancel.entrycheck:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:         %v14 = load i32
; CHECK-NOT:     load volatile
; CHECK:         ret void
; PTX-LABEL:   .entry chain(
; PTX:           ld.relaxed.sys.global.b32 [[R:%r[0-9]+]]
; PTX:           setp.{{ne|eq}}.b32 [[P:%p[0-9]+]], [[R]], 0;
; PTX:           @[[P]] bra
; PTX-NOT:       ld.volatile
; PTX:           }
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
  %a20 = getelementptr i32, ptr addrspace(1) %p, i32 %v19
  %v20 = load i32, ptr addrspace(1) %a20
  %a21 = getelementptr i32, ptr addrspace(1) %p, i32 %v20
  %v21 = load i32, ptr addrspace(1) %a21
  %a22 = getelementptr i32, ptr addrspace(1) %p, i32 %v21
  %v22 = load i32, ptr addrspace(1) %a22
  %a23 = getelementptr i32, ptr addrspace(1) %p, i32 %v22
  %v23 = load i32, ptr addrspace(1) %a23
  %a24 = getelementptr i32, ptr addrspace(1) %p, i32 %v23
  %v24 = load i32, ptr addrspace(1) %a24
  %a25 = getelementptr i32, ptr addrspace(1) %p, i32 %v24
  %v25 = load i32, ptr addrspace(1) %a25
  %a26 = getelementptr i32, ptr addrspace(1) %p, i32 %v25
  %v26 = load i32, ptr addrspace(1) %a26
  %a27 = getelementptr i32, ptr addrspace(1) %p, i32 %v26
  %v27 = load i32, ptr addrspace(1) %a27
  %a28 = getelementptr i32, ptr addrspace(1) %p, i32 %v27
  %v28 = load i32, ptr addrspace(1) %a28
  %a29 = getelementptr i32, ptr addrspace(1) %p, i32 %v28
  %v29 = load i32, ptr addrspace(1) %a29
  store i32 %v29, ptr addrspace(1) %o
  ret void
}

; The same chain with 16 loads: the fresh run passes the budget at the 14th load, but
; the kernel ends 3 loads later, within half the budget: no entry check (it would hold
; the last loads until the entry read is back and buy nothing: const_table 1.045x on
; the H200 with its check 4 accesses before the end), and so no entry read.
; CHECK-LABEL: define ptx_kernel void @short_tail(
; CHECK-NOT:     atoll.cancel
; CHECK:         ret void
; CHECK-NEXT:  }
define ptx_kernel void @short_tail(ptr addrspace(1) %p, ptr addrspace(1) %o) {
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
  store i32 %v15, ptr addrspace(1) %o
  ret void
}

; R7-F7: straight_chase moved into a loop whose exit depends on the data (checked): the
; first iteration's 20 loads are over the entry budget, so the body branches on the
; entry read (every iteration: a register test) before the 14th.
; CHECK-LABEL: define ptx_kernel void @heavy_loop(
; CHECK:       loop:
; CHECK:         %v12 = load i32
; CHECK:         br i1 %atoll.cancelled.start, label %atoll.cancel.entrycheck
; CHECK:         %v13 = load i32
; CHECK:         %v19 = load i32
define ptx_kernel void @heavy_loop(ptr addrspace(1) %p, i32 %stop) {
entry:
  br label %loop
loop:
  %v = phi i32 [ 0, %entry ], [ %v19, %loop ]
  %a0 = getelementptr i32, ptr addrspace(1) %p, i32 %v
  %v0 = load i32, ptr addrspace(1) %a0
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
  %done = icmp eq i32 %v19, %stop
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; R7-F1/F11: the shared window is zeroed by all threads of the block; when that is
; longer than the entry budget's worth of 16-byte stores per thread (block-uniform:
; the launch sets both), the block votes on the cancel word (barrier.red.or) and
; leaves as a whole before zeroing; a thread alone never skips its share.
; CHECK-LABEL: define ptx_kernel void @zero_drain(
; CHECK:         %atoll.zero.long = icmp ugt i64
; CHECK-NEXT:    br i1 %atoll.zero.long, label %atoll.zero.vote, label %atoll.zero.go
; CHECK:       atoll.zero.vote:
; CHECK:         %atoll.cancel.vote = load volatile i32
; CHECK-NEXT:    %atoll.cancelled.mine = icmp ne i32 %atoll.cancel.vote, 0
; CHECK-NEXT:    %atoll.cancelled.block = call i1 @llvm.nvvm.barrier.cta.red.or.all(i32 0, i1 %atoll.cancelled.mine)
; CHECK-NEXT:    br i1 %atoll.cancelled.block, label %atoll.zero.leave, label %atoll.zero.go
; CHECK:       atoll.zero.go:
; CHECK:       atoll.zero.smem:
; PTX-LABEL:   .entry zero_drain(
; PTX:           barrier.red.or.pred
; PTX:           st.shared.v4.b32
@dyn = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @zero_drain(ptr addrspace(1) %o) {
entry:
  %v = load i32, ptr addrspace(3) @dyn, align 16
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; R7-F11 (found by the lead): a frame over 256 bytes polls at entry (R5-F2); with a
; shared window that poll is the block's vote, else one thread could leave before its
; share of the zeroing and leave residue to the others.
; CHECK-LABEL: define ptx_kernel void @frame_and_shared(
; CHECK:         %atoll.cancelled.block = call i1 @llvm.nvvm.barrier.cta.red.or.all(i32 0, i1 %atoll.cancelled.mine)
; CHECK-NEXT:    br i1 %atoll.cancelled.block, label %atoll.cancel.entry
define ptx_kernel void @frame_and_shared(ptr addrspace(1) %o, i32 %i) {
entry:
  %buf = alloca [128 x i32], align 4
  %q = getelementptr i32, ptr %buf, i32 %i
  store i32 7, ptr %q
  %w = load i32, ptr addrspace(3) @dyn, align 16
  %r = load i32, ptr %buf
  %s = add i32 %w, %r
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}
