; R7-F2: after atoll-mem, ptxas adds no loop of its own: every backward branch in the
; SASS of the kernels of atomics-non-native.ll is one of the IR's cycles, each of
; which has a preemption check (the shared-window zero-init's two bounded loops in
; each kernel that may touch shared memory, and one compare-and-swap loop per
; expanded atomic). The scan (Inputs/sass-loops.py, opcode scan of the sm_90 cubin)
; counts backward branches per kernel; RAW shows it sees ptxas's own loops in the
; unhardened kernels (f16_add: one loop where the IR has none).
; REQUIRES: ptxas
; RUN: rm -rf %t && split-file %S/atomics-non-native.ll %t
; RUN: %opt-atoll -passes=atoll-mem %t/forms.ll -o - | %llc-sm90 -o %t/hardened.ptx
; RUN: %ptxas %t/hardened.ptx -o %t/hardened.cubin
; RUN: %python %S/Inputs/sass-loops.py %t/hardened.cubin | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t/forms.ll -o - | %llc-sm90 -o %t/modulo.ptx
; RUN: %ptxas %t/modulo.ptx -o %t/modulo.cubin
; RUN: %python %S/Inputs/sass-loops.py %t/modulo.cubin | FileCheck %s
; RUN: %llc-sm90 %t/forms.ll -o %t/raw.ptx
; RUN: %ptxas %t/raw.ptx -o %t/raw.cubin
; RUN: %python %S/Inputs/sass-loops.py %t/raw.cubin | FileCheck %s --check-prefix=RAW

; 2 zero-init loops + fsub, fmax, <2 x half> fadd, i16 xchg, i16 cmpxchg, nand
; CHECK:      expand_forms 8
; one half add: its CAS loop (no zero-init: no shared memory)
; CHECK-NEXT: f16_add 1
; 2 zero-init loops (unknown space) + the generic float add
; CHECK-NEXT: generic_fadd 3
; the zero-init's loops only: every atomic there is native
; CHECK-NEXT: native 2
; 2 zero-init loops + the two scoped float adds
; CHECK-NEXT: scoped 4
; 2 zero-init loops + shared f32, f64 and i64 adds
; CHECK-NEXT: shared_forms 5

; The same kernels unhardened: ptxas's loops (expand_forms' are AtomicExpand's IR loops).
; RAW:      expand_forms 6
; RAW-NEXT: f16_add 1
; RAW-NEXT: generic_fadd 2
; RAW-NEXT: native 0
; RAW-NEXT: scoped 4
; RAW-NEXT: shared_forms 3
