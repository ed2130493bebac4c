; The preemption work model weighs an instruction by what it compiles to (review
; R6-F1: one unit per IR instruction let 80 `udiv <64 x i64>`, 5120 i64 division
; subroutines, run with no poll; a loop of them was charged 4096 iterations at once,
; seconds between polls on the H200). A unit is about one simple 32-bit operation:
; one per 32-bit register of the widest value, a division, remainder or math routine
; 64 per 64-bit piece of each element (quadratic in wider integers), a memory access
; 64 per 16 bytes. The budget is 16384 units between polls (docs/passes.md).
; Inputs/gen-op-chain.py N OP TYPE [loop]: N dependent OPs, loop-free or as the body
; of a 4096-iteration loop.
;
; Scalar ALU work stays cheap: 300 i32 adds, 300 f64 adds, 600 <2 x i64> xors: no poll.
; RUN: %python %S/Inputs/gen-op-chain.py 300 add i32 > %t.add.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.add.ll | FileCheck %s --check-prefix=NOPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 300 fadd double > %t.fadd.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.fadd.ll | FileCheck %s --check-prefix=NOPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 600 xor "<2 x i64>" > %t.xor2.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.xor2.ll | FileCheck %s --check-prefix=NOPOLL
; NOPOLL-LABEL: define ptx_kernel void @chain(
; NOPOLL-NOT:   atoll.cancel.straight
; NOPOLL:       }
;
; Divisions cost 64: 200 i64 divisions (12800) fit, 300 (19200) take one poll; 70
; i64 ones (4480) none. An i128 division by a variable is refused (code generation
; makes a loop of it after the checks: wide-integer-refusals.ll, R7-F6). f32
; divisions and f64 square roots are routines too.
; RUN: %python %S/Inputs/gen-op-chain.py 200 udiv i64 > %t.div200.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.div200.ll | FileCheck %s --check-prefix=NOPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 300 udiv i64 > %t.div300.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.div300.ll | FileCheck %s --check-prefix=ONEPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 70 udiv i128 > %t.div128.ll
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t.div128.ll 2>&1 | FileCheck %s --check-prefix=DIV128
; RUN: %python %S/Inputs/gen-op-chain.py 70 udiv i64 > %t.div70.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.div70.ll | FileCheck %s --check-prefix=NOPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 300 fdiv float > %t.fdiv.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.fdiv.ll | FileCheck %s --check-prefix=ONEPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 300 sqrt double > %t.sqrt.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.sqrt.ll | FileCheck %s --check-prefix=ONEPOLL
; DIV128: error: atoll-mem: refused in 'chain': integer division of 128-bit values is not supported
; ONEPOLL-LABEL: define ptx_kernel void @chain(
; ONEPOLL-COUNT-1: {{^}}atoll.cancel.straight{{[0-9]*}}:
; ONEPOLL-NOT:   {{^}}atoll.cancel.straight{{[0-9]*}}:
; ONEPOLL:       }
;
; Wide vectors count every element: 600 <16 x i64> xors (32 registers each) take a
; poll; the review's 80 <64 x i64> divisions (327680 units) take one every 256
; divisions (at least 19 polls), and without them the kernel is refused.
; RUN: %python %S/Inputs/gen-op-chain.py 600 xor "<16 x i64>" > %t.xor16.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.xor16.ll | FileCheck %s --check-prefix=ONEPOLL
; RUN: %python %S/Inputs/gen-op-chain.py 80 udiv "<64 x i64>" > %t.vdiv.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.vdiv.ll | FileCheck %s --check-prefix=VDIV
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-straight-polls -disable-output %t.vdiv.ll 2>&1 | FileCheck %s --check-prefix=REFUSED
; VDIV-LABEL: define ptx_kernel void @chain(
; VDIV-COUNT-19: {{^}}atoll.cancel.straight{{[0-9]*}}:
; REFUSED: internal: a path without loops runs more than {{16384 units of work|4096 units of work from the kernel.s entry}} without a cancel poll
;
; Charged loops (count x work per iteration <= 2^20): 4096 iterations of 4 i32 adds
; are charged at once (no per-iteration check); 4096 iterations of 4 <64 x i64>
; divisions (16384+ units each) are not: the loop keeps its check and its body a poll.
; RUN: %python %S/Inputs/gen-op-chain.py 4 add i32 loop > %t.loopadd.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.loopadd.ll | FileCheck %s --check-prefix=CHARGED
; RUN: %python %S/Inputs/gen-op-chain.py 4 udiv "<64 x i64>" loop > %t.loopdiv.ll
; RUN: %opt-atoll -passes=atoll-mem -S %t.loopdiv.ll | FileCheck %s --check-prefix=CHECKED
; CHARGED-LABEL: define ptx_kernel void @chain(
; CHARGED-NOT:   atoll.backedge
; CHARGED:       br i1 %c, label %loop, label %exit, !atoll.bounded
; CHECKED-LABEL: define ptx_kernel void @chain(
; CHECKED:       loop.atoll.backedge:
; CHECKED:       {{^}}atoll.cancel.straight{{[0-9]*}}:
; CHECKED-NOT:   !atoll.bounded
; CHECKED:       }
;
; The same through the whole toolchain (-O2, codegen and the check after it), in the
; review's form that -O2 cannot fold (x / (v | 2^33) + v): all 5120 i64 divisions
; reach the PTX, and at most 256 of them (16384 units) sit between two polls in the
; emitted code. Machine sinking used to move every division after the last poll
; (0 polls between, 5120 after): the toolchain turns it off (R6-F1).
; RUN: %python %S/Inputs/gen-op-chain.py 80 udivmix "<64 x i64>" > %t.vdivmix.ll
; RUN: %atoll-harden %t.vdivmix.ll --emit=ptx -o %t.vdivmix.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.vdivmix.ptx
; RUN: %python %S/Inputs/max-between-polls.py %t.vdivmix.ptx 'div\.u64' | FileCheck %s --check-prefix=SPACED
; RUN: %atoll-harden %t.vdivmix.ll --emit=ptx --clamping-mode=modulo-based -o %t.vdivmod.ptx
; RUN: %python %S/Inputs/max-between-polls.py %t.vdivmod.ptx 'div\.u64' | FileCheck %s --check-prefix=SPACED
; PTX-LABEL: .entry chain(
; PTX-COUNT-5120: div.u64
; SPACED: polls {{[2-9][0-9]}} max-between-polls {{([0-9]|[0-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-6])$}}
