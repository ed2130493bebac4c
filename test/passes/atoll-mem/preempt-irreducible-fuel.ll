; Preemption checks on irreducible cycles (two entries: CycleInfo picks one header
; and the edge into it from inside the cycle gets the check, which every closed walk
; of the cycle takes), the eager poll of cycles that wait (nanosleep, volatile or
; atomic memory: the cancel word is read on every edge), and the fuel accounting:
; the budget is read once at entry (0 = unlimited), refills the counter in chunks of
; at most 2^k, and when it is spent the thread sets ATOLL_STATUS_FUEL_EXHAUSTED with
; an atomic or and returns. A cycle closed by an indirectbr cannot take a check and
; is refused.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s --check-prefix=LIVE
; RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes=atoll-mem -S %S/Inputs/preempt-indirectbr.ll 2>&1 | FileCheck %s --check-prefix=REFUSED
; Fault injection: the self-checks refuse a sleep without its poll and a cycle
; without its check (a pass bug must be refused, never emitted).
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -atoll-test-skip-sleep-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOSLEEPPOLL
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -atoll-test-skip-first-preempt-check -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOCHECK
; NOSLEEPPOLL: error: atoll-mem: refused in 'sleepy_spin': internal: a nanosleep has no cancel poll right before it
; NOCHECK: error: atoll-mem: refused in 'irreducible': internal: a cycle has no preemption check

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; No check in a block the kernel cannot reach (R10-F4).
; LIVE-NOT: No predecessors!

; CHECK-LABEL: define ptx_kernel void @irreducible(
; CHECK:         br i1 %c, label %a, label %b
; CHECK:       [[H:a|b]].atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next
; CHECK-NOT:   .atoll.backedge:
; CHECK:       }
define ptx_kernel void @irreducible(ptr %p, i1 %c, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = phi i32 [0, %entry], [%y1, %b]
  %x1 = add i32 %x, 1
  br label %b
b:
  %y = phi i32 [0, %entry], [%x1, %a]
  %y1 = add i32 %y, 2
  %more = icmp slt i32 %y1, %n
  br i1 %more, label %a, label %exit
exit:
  store i32 %y1, ptr %p
  ret void
}

; A spin on memory with nanosleep: the cancel word is read on every edge, before the
; counted check, on a back edge that the loop takes (R10-F4: it had no predecessors).
; CHECK-LABEL: define ptx_kernel void @sleepy_spin(
; CHECK:       spin.atoll.backedge: ; preds = %{{[0-9]+}}
; CHECK-NEXT:    [[CW:%atoll.cancel[0-9]*]] = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    [[CD:%atoll.cancelled[0-9]*]] = icmp ne i32 [[CW]], 0
; CHECK-NEXT:    br i1 [[CD]], label %atoll.cancel.eager, label {{%.*}}, !prof
; CHECK:       atoll.cancel.eager:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:         %atoll.poll.next = sub i32
; CHECK:       }
define ptx_kernel void @sleepy_spin(ptr addrspace(1) %flag) {
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

; An atomic loop (a histogram's hot loop) is not a wait: counted check only.
; CHECK-LABEL: define ptx_kernel void @atomic_loop(
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next = sub i32
; CHECK:       }
define ptx_kernel void @atomic_loop(ptr addrspace(1) %h, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %old = atomicrmw add ptr addrspace(1) %h, i32 1 monotonic, align 4
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A register-only loop polls only every 2^k edges (no eager read).
; CHECK-LABEL: define ptx_kernel void @register_spin(
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next = sub i32
; CHECK:       }
define ptx_kernel void @register_spin(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %i1 = mul i32 %i, 3
  %c = icmp ne i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

; A loop with (allow-listed, register-only) inline asm and a clamped shared access
; (whose object clamp goes through the pass's own identity asm) keeps the counted
; check: asm is not a wait (counting it made histogram 6x slower on the H200).
; CHECK-LABEL: define ptx_kernel void @asm_loop(
; CHECK-NOT:   atoll.cancel.eager
; CHECK:       loop.atoll.backedge:
; CHECK-NEXT:    %atoll.poll.next = sub i32
; CHECK-NOT:   atoll.cancel.eager
; CHECK:       }
@hist = internal addrspace(3) global [256 x i32] undef, align 4
define ptx_kernel void @asm_loop(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %lane = call i32 asm sideeffect "mov.u32 $0, %laneid;", "=r"()
  %k = add i32 %i, %lane
  %slot = getelementptr [256 x i32], ptr addrspace(3) @hist, i32 0, i32 %k
  %old = atomicrmw add ptr addrspace(3) %slot, i32 1 monotonic
  %i1 = add i32 %i, 1
  %c = icmp ne i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %i1, ptr %p
  ret void
}

; Fuel: budget 0 means unlimited (2^63-1, also the most a budget can be); the first
; chunk is min(budget, 64); on the slow path the rest (fuel left plus the counter,
; which a charge can take below zero) decides: <= 0 goes to the exhausted block,
; otherwise the counter is refilled with min(rest, 64).
; CHECK-LABEL: define ptx_kernel void @fuel_form(
; CHECK:         %atoll.fuel = load i64, ptr addrspace(1) %atoll.ctrl.fuel, align 8
; CHECK-NEXT:    [[Z:%.*]] = icmp eq i64 %atoll.fuel, 0
; CHECK-NEXT:    [[U:%.*]] = select i1 [[Z]], i64 9223372036854775807, i64 %atoll.fuel
; CHECK-NEXT:    %atoll.fuel.budget = call i64 @llvm.umin.i64(i64 [[U]], i64 9223372036854775807)
; CHECK-NEXT:    [[F:%.*]] = call i64 @llvm.umin.i64(i64 %atoll.fuel.budget, i64 64)
; CHECK-NEXT:    [[F32:%.*]] = trunc i64 [[F]] to i32
; CHECK-NEXT:    [[REST:%.*]] = sub i64 %atoll.fuel.budget, [[F]]
; CHECK:       atoll.poll:
; CHECK:         [[OVER:%.*]] = sext i32 %atoll.poll.next to i64
; CHECK-NEXT:    %atoll.fuel.rest = add i64 %atoll.fuel.left.0, [[OVER]]
; CHECK-NEXT:    %atoll.fuel.spent = icmp slt i64 %atoll.fuel.rest, 1
; CHECK-NEXT:    br i1 %atoll.fuel.spent, label %[[OUT:.*]], label %[[REFILL:.*]], !prof
; CHECK:       [[OUT]]:
; CHECK-NEXT:    br label %atoll.fuel.exhausted
; CHECK:       [[REFILL]]:
; CHECK-NEXT:    [[C:%.*]] = call i64 @llvm.umin.i64(i64 %atoll.fuel.rest, i64 64)
; CHECK-NEXT:    trunc i64 [[C]] to i32
; CHECK-NEXT:    sub i64 %atoll.fuel.rest, [[C]]
; CHECK:       atoll.fuel.exhausted:
; CHECK-NEXT:    atomicrmw or ptr addrspace(1) %atoll.ctrl.status, i32 1 monotonic, align 4
; CHECK-NEXT:    br label %atoll.leave
define ptx_kernel void @fuel_form(ptr %p, i32 %n) {
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

declare void @llvm.nvvm.nanosleep(i32)

; REFUSED: error: atoll-mem: refused in 'via_indirectbr': a cycle is closed by a terminator that cannot take a preemption check: indirectbr
