; Atomics through a pointer of unknown space (loaded from memory) take the run-
; time space test like loads and stores: a shared address is clamped into the
; window, anything else into the arena; the atomic operation is unchanged.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @via_table(ptr %table, i64 %i) {
  %slot = getelementptr ptr, ptr %table, i64 %i
  %p = load ptr, ptr %slot, align 8
  %o = atomicrmw add ptr %p, i32 1 monotonic, align 4
  %c = cmpxchg ptr %p, i32 %o, i32 0 acq_rel monotonic, align 4
  %r = call i32 @llvm.nvvm.atomic.inc.gen.i.cta.i32.p0(ptr %p, i32 7)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @via_table(
; CHECK:         %p = load ptr, ptr {{%.*}}, align 8
; CHECK-NEXT:    [[PF0:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[IS0:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; CHECK:         [[P0:%atoll.generic]] = select i1 [[IS0]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    %o = atomicrmw add ptr [[P0]], i32 1 monotonic, align 4
; CHECK-NEXT:    [[PF1:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[IS1:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF1]])
; CHECK:         [[P1:%.*]] = select i1 [[IS1]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    %c = cmpxchg ptr [[P1]], i32 %o, i32 0 acq_rel monotonic, align 4
; CHECK-NEXT:    [[PF2:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[IS2:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF2]])
; CHECK:         [[P2:%.*]] = select i1 [[IS2]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    %r = call i32 @llvm.nvvm.atomic.inc.gen.i.cta.i32.p0(ptr [[P2]], i32 7)

; PTX-LABEL: .entry via_table(
; PTX:         isspacep.shared [[PR:%p[0-9]+]],
; PTX:         selp.b64 [[A:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[PR]];
; PTX-NEXT:    atom.add.u32 {{%r[0-9]+}}, {{\[}}[[A]]{{\]}}, 1;
; PTX:         atom.acq_rel.sys.cas.b32
; PTX:         atom.cta.inc.u32
