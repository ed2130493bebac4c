; The copy without checks of a versioned loop (docs/passes.md "Charged loops") carries
; llvm.loop.unroll.disable, which NVPTX prints as `.pragma "nounroll"` in its header:
; ptxas keeps the unrolling LLVM gave the loop. Without it ptxas unrolled the copy of
; pointer_chase 4x (the checked original after it changes ptxas's choice; the same loop
; of the unchecked build is left alone), 1.13x on the H200. Only the copy: the checked
; original and loops charged with a constant count (no copy) keep their metadata, and
; without charging (-atoll-preempt-no-charge) nothing is added.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s --check-prefix=NOCHARGE
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A run-time count: the fast copy's latch has the unroll.disable loop ID, the checked
; original's latch none.
; CHECK-LABEL: define ptx_kernel void @runtime_count(
; CHECK:       loop.atoll.fast:
; CHECK:         br i1 %c.atoll.fast, label %loop.atoll.fast, label %exit, !llvm.loop [[FAST:![0-9]+]], !atoll.bounded
; CHECK:       loop:
; CHECK:         br i1 %c, label %loop.atoll.backedge, label %exit{{$}}
; CHECK:       }
; NOCHARGE-LABEL: define ptx_kernel void @runtime_count(
; NOCHARGE-NOT:   atoll.fast
; NOCHARGE-NOT:   !llvm.loop
; NOCHARGE:       }
; PTX-LABEL: .entry runtime_count(
; PTX:       // %loop.atoll.fast
; PTX-NEXT:  // =>This Inner Loop Header
; PTX-NEXT:    .pragma "nounroll";
; PTX:       // %loop{{$}}
; PTX-NOT:     .pragma
; PTX:       // -- End function
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
  ret void
}

; A grid-stride loop (versioned by the run-time guards) whose tenant asked for full
; unrolling: the copy's loop ID says disable, and nothing of the tenant's is left.
; CHECK-LABEL: define ptx_kernel void @grid_stride_unroll_full(
; CHECK:       loop.atoll.fast:
; CHECK:         br i1 %c.atoll.fast, label %loop.atoll.fast, label %{{.*}}, !llvm.loop [[GS:![0-9]+]], !atoll.bounded
; CHECK:       loop:
; CHECK:         br i1 %c, label %loop.atoll.backedge, label %{{[a-z.]+$}}
; CHECK:       }
; PTX-LABEL: .entry grid_stride_unroll_full(
; PTX:       // %loop.atoll.fast
; PTX-NEXT:  // =>This Inner Loop Header
; PTX-NEXT:    .pragma "nounroll";
; PTX:       // -- End function
define ptx_kernel void @grid_stride_unroll_full(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
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
  br i1 %c, label %loop, label %exit, !llvm.loop !10
exit:
  %r = phi i32 [0, %entry], [%acc1, %loop]
  store i32 %r, ptr addrspace(1) %out
  ret void
}

; A constant count is charged without a copy: the loop keeps no loop ID of ours (the
; tenant's mustprogress ID is dropped with the facts), so ptxas decides as without checks.
; CHECK-LABEL: define ptx_kernel void @const100(
; CHECK:         br i1 %c, label %loop, label %exit, !atoll.bounded
; CHECK-NOT:     !llvm.loop
; CHECK:       }
; PTX-LABEL: .entry const100(
; PTX-NOT:     .pragma
; PTX:       // -- End function
define ptx_kernel void @const100(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %a = getelementptr i32, ptr %p, i32 %i
  store i32 %i, ptr %a
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, 100
  br i1 %c, label %loop, label %exit, !llvm.loop !12
exit:
  ret void
}

; CHECK-DAG: [[FAST]] = distinct !{[[FAST]], [[DIS:![0-9]+]]}
; CHECK-DAG: [[GS]] = distinct !{[[GS]], [[DIS]]}
; CHECK-DAG: [[DIS]] = !{!"llvm.loop.unroll.disable"}
; CHECK-NOT: llvm.loop.unroll.full

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.unroll.full"}
!12 = distinct !{!12, !13}
!13 = !{!"llvm.loop.mustprogress"}
