; R8-F1 (found by review): the setup code before the shared zeroing (clamps that do
; not change during a launch, hoisted to the entry block) is loop-free code that the
; budget walks like any other. An entry check or poll there let a thread leave before
; doing its share of the cooperative zeroing, while the block's other threads went
; on to read that share: the previous kernel's data. Now a poll the budget asks for
; before the tenant's code is a block vote (every thread runs the setup), and after
; the zero-init a walk from the entry refuses any return reached without passing the
; zeroing's barrier other than through a vote.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=64 -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=64 %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; Fault injection: per-thread polls in the setup are refused by the walk.
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=64 -atoll-test-thread-polls-in-prologue -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED
; REFUSED: error: atoll-mem: refused in 'prologue': internal: a thread can leave before the shared window is zeroed (its share would keep the previous kernel's data)

; At the default budget the setup is short: nothing before the zeroing but its own
; vote (a window longer than 64 stores per thread).
; DEFAULT-LABEL: define ptx_kernel void @prologue(
; DEFAULT-NOT:   atoll.cancel.prologue
; DEFAULT-NOT:   atoll.cancel.entrycheck
; DEFAULT:       atoll.zero.done:

; With a 64-unit entry budget the setup takes a check: a vote, then the zeroing.
; CHECK-LABEL: define ptx_kernel void @prologue(
; CHECK:         %atoll.cancel.vote = load volatile i32
; CHECK:         %atoll.cancelled.block = call i1 @llvm.nvvm.barrier.cta.red.or.all(i32 0, i1 %atoll.cancelled.mine)
; CHECK-NEXT:    br i1 %atoll.cancelled.block, label %atoll.cancel.prologue,
; CHECK-NOT:     atoll.cancel.entrycheck
; CHECK-NOT:     atoll.cancel.straight
; CHECK:       atoll.zero.done:
; CHECK:       atoll.body:

; In the PTX the vote's barrier.red comes before the zeroing's stores and barrier, and no
; branch on the entry read (a per-thread leave) comes before them.
; PTX-LABEL: .entry prologue(
; PTX:         barrier.red.or.pred
; PTX-NOT:     ld.relaxed
; PTX:         st.shared.v4.b32
; PTX:         barrier.sync 0;

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@w = external addrspace(3) global [0 x i32], align 4
define ptx_kernel void @prologue(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi i32 [0, %entry], [%s16, %loop]
  %p1 = getelementptr i32, ptr addrspace(3) @w, i32 8
  %a1 = load i32, ptr addrspace(3) %p1, align 4
  %s1 = add i32 %acc, %a1
  %p2 = getelementptr i32, ptr addrspace(3) @w, i32 16
  %a2 = load i32, ptr addrspace(3) %p2, align 4
  %s2 = add i32 %s1, %a2
  %p3 = getelementptr i32, ptr addrspace(3) @w, i32 24
  %a3 = load i32, ptr addrspace(3) %p3, align 4
  %s3 = add i32 %s2, %a3
  %p4 = getelementptr i32, ptr addrspace(3) @w, i32 32
  %a4 = load i32, ptr addrspace(3) %p4, align 4
  %s4 = add i32 %s3, %a4
  %p5 = getelementptr i32, ptr addrspace(3) @w, i32 40
  %a5 = load i32, ptr addrspace(3) %p5, align 4
  %s5 = add i32 %s4, %a5
  %p6 = getelementptr i32, ptr addrspace(3) @w, i32 48
  %a6 = load i32, ptr addrspace(3) %p6, align 4
  %s6 = add i32 %s5, %a6
  %p7 = getelementptr i32, ptr addrspace(3) @w, i32 56
  %a7 = load i32, ptr addrspace(3) %p7, align 4
  %s7 = add i32 %s6, %a7
  %p8 = getelementptr i32, ptr addrspace(3) @w, i32 64
  %a8 = load i32, ptr addrspace(3) %p8, align 4
  %s8 = add i32 %s7, %a8
  %p9 = getelementptr i32, ptr addrspace(3) @w, i32 72
  %a9 = load i32, ptr addrspace(3) %p9, align 4
  %s9 = add i32 %s8, %a9
  %p10 = getelementptr i32, ptr addrspace(3) @w, i32 80
  %a10 = load i32, ptr addrspace(3) %p10, align 4
  %s10 = add i32 %s9, %a10
  %p11 = getelementptr i32, ptr addrspace(3) @w, i32 88
  %a11 = load i32, ptr addrspace(3) %p11, align 4
  %s11 = add i32 %s10, %a11
  %p12 = getelementptr i32, ptr addrspace(3) @w, i32 96
  %a12 = load i32, ptr addrspace(3) %p12, align 4
  %s12 = add i32 %s11, %a12
  %p13 = getelementptr i32, ptr addrspace(3) @w, i32 104
  %a13 = load i32, ptr addrspace(3) %p13, align 4
  %s13 = add i32 %s12, %a13
  %p14 = getelementptr i32, ptr addrspace(3) @w, i32 112
  %a14 = load i32, ptr addrspace(3) %p14, align 4
  %s14 = add i32 %s13, %a14
  %p15 = getelementptr i32, ptr addrspace(3) @w, i32 120
  %a15 = load i32, ptr addrspace(3) %p15, align 4
  %s15 = add i32 %s14, %a15
  %p16 = getelementptr i32, ptr addrspace(3) @w, i32 128
  %a16 = load i32, ptr addrspace(3) %p16, align 4
  %s16 = add i32 %s15, %a16
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %s16, ptr addrspace(1) %out, align 4
  ret void
}
