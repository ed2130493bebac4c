; The pass options: verbose prints one line per access (space, kind, outcome and
; how), summarize the table of counts per space and kind; both together with the
; clamping mode. Bad options are errors (test/passes/plugin-loads.ll).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose;summarize;clamping-mode=modulo-based>' -S %s -o %t.ll 2>&1 | FileCheck %s
; RUN: FileCheck %s --check-prefix=IR --input-file=%t.ll
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;summarize>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=SUMMARY-ONLY
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=EMPTY

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @mix(ptr %p, i64 %i) {
  %a = alloca [4 x i32], align 4
  %q = getelementptr i32, ptr %p, i64 %i
  %v = load i32, ptr %q, align 4
  %s = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 %v, ptr addrspace(3) %s, align 4
  store i32 %v, ptr %a, align 4
  %o = atomicrmw add ptr %q, i32 1 monotonic, align 4
  ret void
}

; CHECK:      atoll-mem: mix: global load confined: into the arena (modulo) | %v = load i32, ptr %q, align 4
; CHECK-NEXT: atoll-mem: mix: shared store confined: into its shared object | store i32 %v, ptr addrspace(3) %s, align 4
; CHECK-NEXT: atoll-mem: mix: local store proven-safe: constant offset inside its object | store i32 %v, ptr %a, align 4
; CHECK-NEXT: atoll-mem: mix: global atomicrmw confined: into the arena (modulo) | %o = atomicrmw add ptr %q, i32 1 monotonic, align 4
; CHECK-NEXT: AToLL hardening summary
; CHECK-NEXT: space      kind           confined  proven-safe   refused
; CHECK-NEXT: global     load                  1            0         0
; CHECK-NEXT: global     atomicrmw             1            0         0
; CHECK-NEXT: shared     store                 1            0         0
; CHECK-NEXT: local      store                 0            1         0
; CHECK-NEXT: total                            3            1         0

; IR: attributes #{{[0-9]+}} = { "atoll-hardened"="modulo-based" }

; SUMMARY-ONLY-NOT: confined:
; SUMMARY-ONLY:     AToLL hardening summary
; SUMMARY-ONLY:     total                            3            1         0

; EMPTY: invalid clamping-mode '' (expected mask-based or modulo-based)
