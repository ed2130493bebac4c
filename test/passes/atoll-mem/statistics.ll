; opt -stats prints the pass's counters (docs/passes.md, "Statistics"): accesses
; confined, proven safe and refused per state space, and the clamps inserted.
; The Debian LLVM has no assertions, so the pass prints its own (always-enabled)
; counters; without -stats nothing is printed.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -stats -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -stats -disable-output %S/Inputs/stats-refused.ll 2>&1 | FileCheck %s --check-prefix=REFUSED

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @mix(ptr %p, i64 %i) {
  %a = alloca [4 x i32], align 4
  %q = getelementptr i32, ptr %p, i64 %i
  %v = load i32, ptr %q, align 4
  %q1 = getelementptr i32, ptr %q, i64 1
  %q2 = getelementptr i32, ptr %q, i64 2
  store i32 %v, ptr %q1, align 4
  store i32 %v, ptr %q2, align 4
  %s = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 %v, ptr addrspace(3) %s, align 4
  store i32 %v, ptr %a, align 4
  %u = load ptr, ptr %p, align 8
  store i32 %v, ptr %u, align 4
  ret void
}

; The global accesses q, q+4, q+8 share one clamp; the loaded pointer needs a
; run-time space test; the store to %a is proven safe. A refused module counts
; too (opt stops at the first error: the counters are printed at exit).
; CHECK: Statistics Collected
; CHECK-DAG: {{^ *}}4 atoll-mem{{ +}}- Clamps inserted
; CHECK-DAG: {{^ *}}4 atoll-mem{{ +}}- Global accesses confined
; CHECK-DAG: {{^ *}}1 atoll-mem{{ +}}- Shared accesses confined
; CHECK-DAG: {{^ *}}1 atoll-mem{{ +}}- Local accesses proven safe
; CHECK-DAG: {{^ *}}1 atoll-mem{{ +}}- Unknown-space accesses and operands confined
; CHECK-NOT: refused
; QUIET-NOT: Statistics
; REFUSED: Statistics Collected
; REFUSED: {{^ *}}1 atoll-mem{{ +}}- Constant accesses refused
