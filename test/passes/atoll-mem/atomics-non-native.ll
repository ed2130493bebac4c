; Review R7-F2 / R7-F6: atomics that sm_90 has no single instruction for become,
; in SASS, a compare-and-swap retry loop that ptxas makes after the last IR pass:
; no preemption check inside, and ~N^2 attempts for N contenders on one word. LLVM's
; AtomicExpand makes IR loops of others after the passes. Deny by default: only the
; forms of the native table (AtomicPolicy.cpp) stay; atoll-mem expands every other
; one, before the checks, into an IR loop around a native cmpxchg on the same
; confined pointer (the aligned 32-bit word holding a sub-word value), which takes a
; check like any loop; a width without a native compare-and-swap is refused.
; RUN: split-file %s %t
; RUN: %opt-atoll -passes=atoll-mem -S %t/forms.ll | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %t/forms.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX \
; RUN:   --implicit-check-not=atom.shared.add.f32 --implicit-check-not=atom.shared.add.f64 \
; RUN:   --implicit-check-not=atom.shared.add.u64 --implicit-check-not=noftz \
; RUN:   --implicit-check-not=atom.add.f32 --implicit-check-not=atom.sys.add.f32 \
; RUN:   --implicit-check-not=atom.cta.add.f32 --implicit-check-not=partword
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t/forms.ll -o - | %llc-sm90 -o /dev/null
; Without the checks (preempt=off) nothing is expanded (no loop needs a check).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/forms.ll | FileCheck %s --check-prefix=OFF
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/refused.ll 2>&1 | FileCheck %s --check-prefix=REFUSED
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/refused.ll 2>&1 | FileCheck %s --check-prefix=REFUSED
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/refused-cx.ll 2>&1 | FileCheck %s --check-prefix=REFUSEDCX

; CHECK-LABEL: define ptx_kernel void @native(
; CHECK-NOT:     cmpxchg
; CHECK:         %a0 = atomicrmw add ptr addrspace(1) %atoll.global, i32 1 monotonic, align 4
; CHECK:         %a1 = atomicrmw umax ptr addrspace(1) %atoll.global{{[0-9]+}}, i64 1 monotonic, align 8
; CHECK:         %a2 = atomicrmw fadd ptr addrspace(1) %atoll.global{{[0-9]+}}, float 1.000000e+00 monotonic, align 4
; CHECK:         %a3 = atomicrmw fadd ptr addrspace(1) %atoll.global{{[0-9]+}}, double 1.000000e+00 monotonic, align 8
; CHECK:         %a4 = atomicrmw uinc_wrap ptr addrspace(1) %atoll.global{{[0-9]+}}, i32 9 monotonic, align 4
; CHECK-NEXT:    %a5 = atomicrmw add ptr addrspace(3) @sm, i32 1 monotonic, align 4
; CHECK-NEXT:    %a6 = atomicrmw udec_wrap ptr addrspace(3) @sm, i32 9 monotonic, align 4
; CHECK-NEXT:    %a7 = atomicrmw xchg ptr addrspace(3) %sf, i64 7 monotonic, align 8
; CHECK-NEXT:    %a8 = atomicrmw xchg ptr addrspace(3) %sf, double 1.000000e+00 monotonic, align 8
; CHECK-NEXT:    %a9 = atomicrmw or ptr addrspace(3) @sm, i8 1 monotonic, align 1
; CHECK-NEXT:    %a10 = cmpxchg ptr addrspace(3) %sf, i64 0, i64 1 monotonic monotonic, align 8
; CHECK:         %a11 = cmpxchg ptr addrspace(1) %atoll.global{{[0-9]+}}, i32 0, i32 1 monotonic monotonic, align 4
; The generic parameter, confined into the arena: the add takes the global pointer.
; CHECK:         [[G12:%atoll.global[0-9]+]] = inttoptr i64 {{%.*}} to ptr addrspace(1)
; CHECK-NEXT:    %a12 = atomicrmw fadd ptr addrspace(1) [[G12]], float 1.000000e+00 monotonic, align 4
; CHECK-NOT:     atomicrmw.start
; CHECK-NOT:     atoll.atomic
; CHECK-NOT:     cmpxchg
; CHECK:         ret void

; Each expanded form: a loop (header atomicrmw.start / atoll.atomic.loop) closed
; through a check block (.atoll.backedge) that reads the cancel word.
; CHECK-LABEL: define ptx_kernel void @shared_forms(
; CHECK-NOT:     atomicrmw fadd
; CHECK:       atomicrmw.start.atoll.backedge:
; CHECK:       atoll.poll.fresh:
; CHECK-NEXT:    %atoll.cancel = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK:       atomicrmw.start:
; CHECK:         %loaded = phi float [ {{%.*}}, %atoll.body ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT:    %new = fadd float %loaded, 1.000000e+00
; CHECK-NEXT:    [[N0:%.*]] = bitcast float %new to i32
; CHECK-NEXT:    [[L0:%.*]] = bitcast float %loaded to i32
; CHECK-NEXT:    {{%.*}} = cmpxchg ptr addrspace(3) @sm, i32 [[L0]], i32 [[N0]] monotonic monotonic, align 4
; CHECK:         br i1 %atoll.cas.success, label %atomicrmw.end, label %atomicrmw.start.atoll.backedge
; CHECK:       atomicrmw.start2:
; CHECK:         %new4 = fadd double %loaded3, 1.000000e+00
; CHECK:         cmpxchg ptr addrspace(3) %d, i64 {{%.*}}, i64 {{%.*}} monotonic monotonic, align 8
; CHECK:         br i1 %atoll.cas.success5, label %atomicrmw.end1, label %atomicrmw.start2.atoll.backedge
; CHECK:       atomicrmw.start8:
; CHECK:         %new10 = add i64 %loaded9, 1
; CHECK-NEXT:    {{%.*}} = cmpxchg ptr addrspace(3) %e, i64 %loaded9, i64 %new10 monotonic monotonic, align 8
; CHECK-NOT:     atomicrmw {{[a-z]+}} ptr addrspace(3)
; CHECK:         ret void

; Sub-word: a 32-bit compare-and-swap on the aligned word holding the half, whose
; address is the confined pointer with its two low bits cleared.
; CHECK-LABEL: define ptx_kernel void @f16_add(
; CHECK:         %atoll.global = inttoptr i64 %atoll.addr to ptr addrspace(1)
; CHECK-NEXT:    %atoll.atomic.word = call ptr addrspace(1) @llvm.ptrmask.p1.i64(ptr addrspace(1) %atoll.global, i64 -4)
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr addrspace(1) %atoll.global to i64
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[P]], 3
; CHECK-NEXT:    [[LOW32:%.*]] = trunc i64 [[LOW]] to i32
; CHECK-NEXT:    %atoll.atomic.shift = shl i32 [[LOW32]], 3
; CHECK-NEXT:    [[M:%.*]] = shl i32 65535, %atoll.atomic.shift
; CHECK-NEXT:    %atoll.atomic.inv = xor i32 [[M]], -1
; CHECK-NEXT:    %atoll.atomic.init = load i32, ptr addrspace(1) %atoll.atomic.word, align 4
; CHECK:       atoll.atomic.loop.atoll.backedge:
; CHECK:       atoll.poll.fresh:
; CHECK-NEXT:    %atoll.cancel = load volatile i32
; CHECK:       atoll.atomic.loop:
; CHECK:         %atoll.atomic.old = phi i32 [ %atoll.atomic.init, %atoll.body ], [ %atoll.cas.loaded, %{{[0-9]+}} ]
; CHECK-NEXT:    [[SH:%.*]] = lshr i32 %atoll.atomic.old, %atoll.atomic.shift
; CHECK-NEXT:    [[T:%.*]] = trunc i32 [[SH]] to i16
; CHECK-NEXT:    %o = bitcast i16 [[T]] to half
; CHECK-NEXT:    %new = fadd half %o, 0xH3C00
; CHECK-NEXT:    [[NI:%.*]] = bitcast half %new to i16
; CHECK-NEXT:    [[NZ:%.*]] = zext i16 [[NI]] to i32
; CHECK-NEXT:    [[NS:%.*]] = shl i32 [[NZ]], %atoll.atomic.shift
; CHECK-NEXT:    [[REST:%.*]] = and i32 %atoll.atomic.old, %atoll.atomic.inv
; CHECK-NEXT:    [[W:%.*]] = or i32 [[REST]], [[NS]]
; CHECK-NEXT:    [[CX:%.*]] = cmpxchg ptr addrspace(1) %atoll.atomic.word, i32 %atoll.atomic.old, i32 [[W]] monotonic monotonic, align 4
; CHECK-NEXT:    %atoll.cas.loaded = extractvalue { i32, i1 } [[CX]], 0
; CHECK-NEXT:    %atoll.cas.success = extractvalue { i32, i1 } [[CX]], 1
; CHECK-NEXT:    br i1 %atoll.cas.success, label %atoll.atomic.end, label %atoll.atomic.loop.atoll.backedge

; Unknown space: the CAS is on the space-tested (confined) generic pointer.
; CHECK-LABEL: define ptx_kernel void @generic_fadd(
; CHECK:         %atoll.generic = select i1 %atoll.is.shared, ptr {{%.*}}, ptr {{%.*}}
; CHECK:       atomicrmw.start:
; CHECK:         cmpxchg ptr %atoll.generic, i32 {{%.*}}, i32 {{%.*}} monotonic monotonic, align 4

; CHECK-LABEL: define ptx_kernel void @expand_forms(
; CHECK:         %new = fsub float %loaded, 1.000000e+00
; CHECK:         cmpxchg ptr addrspace(1) %atoll.global, i32
; CHECK:         call double @llvm.maxnum.f64(double %loaded{{[0-9]+}}, double 1.000000e+00)
; CHECK:         cmpxchg ptr addrspace(1) %atoll.global{{[0-9]+}}, i64
; CHECK:         fadd <2 x half> %loaded{{[0-9]+}}, splat (half 0xH3C00)
; CHECK:         cmpxchg ptr addrspace(1) %atoll.global{{[0-9]+}}, i32
; The i16 exchange: the word's other half kept.
; CHECK:       atoll.atomic.loop:
; CHECK:         cmpxchg ptr addrspace(3) %atoll.atomic.word, i32 %atoll.atomic.old, i32 {{%.*}} monotonic monotonic, align 4
; The i16 cmpxchg: retried only while the other half of the word changed; the
; result pair rebuilt from the word.
; CHECK:         [[CXW:%.*]] = cmpxchg ptr addrspace(3) %atoll.atomic.word{{[0-9]+}}, i32 {{%.*}}, i32 {{%.*}} acq_rel monotonic, align 4
; CHECK-NEXT:    [[SEEN:%atoll.cas.loaded[0-9]*]] = extractvalue { i32, i1 } [[CXW]], 0
; CHECK-NEXT:    [[OK:%atoll.cas.success[0-9]*]] = extractvalue { i32, i1 } [[CXW]], 1
; CHECK-NEXT:    br i1 [[OK]], label %atoll.atomic.end{{[0-9]*}}, label %atoll.atomic.fail
; CHECK:       atoll.atomic.fail:
; CHECK-NEXT:    [[R1:%.*]] = and i32 [[SEEN]], %atoll.atomic.inv{{[0-9]+}}
; CHECK-NEXT:    [[CH:%.*]] = icmp ne i32 [[R1]], %atoll.atomic.rest
; CHECK-NEXT:    br i1 [[CH]], label %atoll.atomic.loop{{[0-9]*}}.atoll.backedge, label %atoll.atomic.end{{[0-9]*}}
; CHECK:       atoll.atomic.end{{[0-9]*}}:
; CHECK-NEXT:    [[SEENL:%.*]] = phi i32 [ [[SEEN]], %atoll.atomic.fail ], [ [[SEEN]], %atoll.atomic.loop{{[0-9]*}} ]
; CHECK-NEXT:    [[OKL:%.*]] = phi i1 [ [[OK]], %atoll.atomic.fail ], [ [[OK]], %atoll.atomic.loop{{[0-9]*}} ]
; CHECK-NEXT:    [[SHR:%.*]] = lshr i32 [[SEENL]], %atoll.atomic.shift{{[0-9]+}}
; CHECK-NEXT:    [[OLD:%.*]] = trunc i32 [[SHR]] to i16
; CHECK-NEXT:    [[P0:%.*]] = insertvalue { i16, i1 } zeroinitializer, i16 [[OLD]], 0
; CHECK-NEXT:    %e = insertvalue { i16, i1 } [[P0]], i1 [[OKL]], 1
; CHECK:         [[AND:%.*]] = and i32 [[NL:%loaded[0-9]+]], 3
; CHECK-NEXT:    [[NAND:%new[0-9]+]] = xor i32 [[AND]], -1
; CHECK-NEXT:    {{%.*}} = cmpxchg ptr addrspace(1) %atoll.global{{[0-9]+}}, i32 [[NL]], i32 [[NAND]] monotonic monotonic, align 4
; CHECK-NOT:     atomicrmw {{[a-z_]+}} ptr addrspace(1) %atoll.global
; CHECK:         ret void

; The block-scope float add keeps its scope on the CAS; the system-scope one on a
; generic pointer is expanded too (the intrinsic is a generic `atom` in PTX).
; CHECK-LABEL: define ptx_kernel void @scoped(
; CHECK:         cmpxchg ptr %s, i32 {{%.*}}, i32 {{%.*}} syncscope("block") monotonic monotonic, align 4
; CHECK:         cmpxchg ptr {{%.*}}, i32 {{%.*}}, i32 {{%.*}} monotonic monotonic, align 4
; CHECK-NOT:     @llvm.nvvm.atomic.add
; CHECK:         ret void

; PTX-LABEL: .entry native(
; PTX:         atom.global.add.u32
; PTX:         atom.global.max.u64
; PTX:         atom.global.add.f32
; PTX:         atom.global.add.f64
; PTX:         atom.global.inc.u32
; PTX:         atom.shared.add.u32
; PTX:         atom.shared.dec.u32
; PTX:         atom.shared.exch.b64
; PTX:         atom.shared.exch.b64
; PTX:         atom.shared.or.b32
; PTX:         atom.relaxed.sys.shared.cas.b64
; PTX:         atom.relaxed.sys.global.cas.b32
; PTX:         atom.global.add.f32
; PTX-LABEL: .entry shared_forms(
; PTX:         atom.relaxed.sys.shared.cas.b32
; PTX:         atom.relaxed.sys.shared.cas.b64
; PTX:         atom.relaxed.sys.shared.cas.b64
; PTX-LABEL: .entry f16_add(
; PTX:         atom.relaxed.sys.global.cas.b32
; PTX-LABEL: .entry generic_fadd(
; PTX:         atom.relaxed.sys.cas.b32
; PTX-LABEL: .entry expand_forms(
; PTX-LABEL: .entry scoped(
; PTX:         atom.relaxed.cta.shared.cas.b32

; OFF-LABEL: define ptx_kernel void @shared_forms(
; OFF:         %a = atomicrmw fadd ptr addrspace(3) @sm, float 1.000000e+00 monotonic, align 4
; OFF-LABEL: define ptx_kernel void @f16_add(
; OFF:         %o = atomicrmw fadd ptr addrspace(1) %atoll.global, half 0xH3C00 monotonic, align 2

; REFUSED: error: atoll-mem: refused in 'wide': an atomic on a 128-bit value has no native form and no native compare-and-swap of its width to be expanded into a checked loop (supported: 8 to 64 bits): %a = atomicrmw xchg ptr addrspace(1) %p, i128 %v monotonic, align 16
; REFUSEDCX: error: atoll-mem: refused in 'wide_cas': an atomic on a 128-bit value has no native form and no native compare-and-swap of its width to be expanded into a checked loop (supported: 8 to 64 bits): %c = cmpxchg ptr addrspace(1) %p, i128 0, i128 %v monotonic monotonic, align 16

;--- forms.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sm = internal addrspace(3) global [8 x i64] zeroinitializer, align 16

; Native on sm_90: left as they are (one instruction in SASS, no loop).
define ptx_kernel void @native(ptr addrspace(1) %g, ptr %out) {
  %sf = getelementptr i8, ptr addrspace(3) @sm, i64 8
  %a0 = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic, align 4
  %a1 = atomicrmw umax ptr addrspace(1) %g, i64 1 monotonic, align 8
  %a2 = atomicrmw fadd ptr addrspace(1) %g, float 1.0 monotonic, align 4
  %a3 = atomicrmw fadd ptr addrspace(1) %g, double 1.0 monotonic, align 8
  %a4 = atomicrmw uinc_wrap ptr addrspace(1) %g, i32 9 monotonic, align 4
  %a5 = atomicrmw add ptr addrspace(3) @sm, i32 1 monotonic, align 4
  %a6 = atomicrmw udec_wrap ptr addrspace(3) @sm, i32 9 monotonic, align 4
  %a7 = atomicrmw xchg ptr addrspace(3) %sf, i64 7 monotonic, align 8
  %a8 = atomicrmw xchg ptr addrspace(3) %sf, double 1.0 monotonic, align 8
  %a9 = atomicrmw or ptr addrspace(3) @sm, i8 1 monotonic, align 1
  %a10 = cmpxchg ptr addrspace(3) %sf, i64 0, i64 1 monotonic monotonic, align 8
  %a11 = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 monotonic monotonic, align 4
  ; A generic kernel parameter is confined into the arena (a global pointer):
  ; the float add is native there and takes the global pointer.
  %a12 = atomicrmw fadd ptr %out, float 1.0 monotonic, align 4
  %r0 = add i32 %a0, %a4
  %r1 = add i32 %r0, %a5
  %r2 = add i32 %r1, %a6
  store i32 %r2, ptr %out, align 4
  ret void
}

; Shared float/double add and 64-bit shared arithmetic: ptxas makes CAS loops.
define ptx_kernel void @shared_forms(ptr addrspace(1) %out) {
  %d = getelementptr i8, ptr addrspace(3) @sm, i64 8
  %e = getelementptr i8, ptr addrspace(3) @sm, i64 16
  %a = atomicrmw fadd ptr addrspace(3) @sm, float 1.0 monotonic, align 4
  %b = atomicrmw fadd ptr addrspace(3) %d, double 1.0 monotonic, align 8
  %c = atomicrmw add ptr addrspace(3) %e, i64 1 monotonic, align 8
  store float %a, ptr addrspace(1) %out, align 4
  ret void
}

; One half add per thread on one word: ptxas makes a CAS loop (sub-word: 32-bit CAS
; on the word holding it).
define ptx_kernel void @f16_add(ptr addrspace(1) %p) {
  %o = atomicrmw fadd ptr addrspace(1) %p, half 0xH3C00 monotonic, align 2
  ret void
}

; A pointer of unknown space (loaded): generic float add is a SASS loop on its
; shared path; the expansion's CAS is on the space-tested pointer.
define ptx_kernel void @generic_fadd(ptr addrspace(1) %pp) {
  %p = load ptr, ptr addrspace(1) %pp, align 8
  %o = atomicrmw fadd ptr %p, float 1.0 monotonic, align 4
  ret void
}

; Forms LLVM's AtomicExpand would make an IR loop of after the passes (R7-F6).
define ptx_kernel void @expand_forms(ptr addrspace(1) %g, i16 %x, i16 %y) {
  %s = getelementptr i8, ptr addrspace(3) @sm, i64 2
  %a = atomicrmw fsub ptr addrspace(1) %g, float 1.0 monotonic, align 4
  %b = atomicrmw fmax ptr addrspace(1) %g, double 1.0 monotonic, align 8
  %c = atomicrmw fadd ptr addrspace(1) %g, <2 x half> <half 0xH3C00, half 0xH3C00> monotonic, align 4
  %d = atomicrmw xchg ptr addrspace(3) %s, i16 %x monotonic, align 2
  %e = cmpxchg ptr addrspace(3) %s, i16 %x, i16 %y acq_rel monotonic, align 2
  %f = atomicrmw nand ptr addrspace(1) %g, i32 3 monotonic, align 4
  ret void
}

; Scoped atomics (atomicAdd_block): the shared float add is expanded with its scope;
; the system-scope add on a generic parameter takes the global pointer, native.
define ptx_kernel void @scoped(ptr %p) {
  %s = addrspacecast ptr addrspace(3) @sm to ptr
  %a = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr %s, float 1.0)
  %b = call float @llvm.nvvm.atomic.add.gen.f.sys.f32.p0(ptr %p, float 1.0)
  ret void
}
declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr, float)
declare float @llvm.nvvm.atomic.add.gen.f.sys.f32.p0(ptr, float)

;--- refused.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @wide(ptr addrspace(1) %p, i128 %v) {
  ; native: no refusal
  %b = atomicrmw add ptr addrspace(1) %p, i64 1 monotonic, align 8
  %a = atomicrmw xchg ptr addrspace(1) %p, i128 %v monotonic, align 16
  ret void
}

;--- refused-cx.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @wide_cas(ptr addrspace(1) %p, i128 %v) {
  %b = cmpxchg ptr addrspace(1) %p, i64 0, i64 1 monotonic monotonic, align 8
  %c = cmpxchg ptr addrspace(1) %p, i128 0, i128 %v monotonic monotonic, align 16
  ret void
}
