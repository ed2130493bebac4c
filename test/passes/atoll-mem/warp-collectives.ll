; Warp-collective .aligned matrix instructions (ldmatrix, stmatrix; mma is
; refused as an unknown intrinsic): the
; PTX ISA requires every thread of the warp to execute the same instruction, and
; two halves of a warp at two different mma instructions wait for each other
; forever, inside the instruction, where no preemption check runs (measured on the
; H200: test/attacks/probes/warp_probe.cu case 24). Each runs only when
; %activemask names the whole warp; otherwise it is skipped and its results are
; zero (a correct program always has the whole warp there).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i16] undef, align 16

define ptx_kernel void @split_mma(i64 %a, i64 %b, ptr addrspace(1) %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %half = icmp ult i32 %t, 16
  br i1 %half, label %lo, label %hi
lo:
  %pa = getelementptr [8 x i16], ptr addrspace(3) @tile, i64 %a
  %r0 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %pa)
  br label %done
hi:
  %pb = getelementptr [8 x i16], ptr addrspace(3) @tile, i64 %b
  %r1 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %pb)
  br label %done
done:
  %r = phi { i32, i32, i32, i32 } [ %r0, %lo ], [ %r1, %hi ]
  %x = extractvalue { i32, i32, i32, i32 } %r, 0
  store i32 %x, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @split_mma(
; CHECK:       lo:
; CHECK:         %atoll.obj.addr = getelementptr
; CHECK-NEXT:    [[AM0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[W0:%.*]] = icmp eq i32 [[AM0]], -1
; CHECK-NEXT:    br i1 [[W0]], label %[[C0:atoll.warp.collective[0-9]*]], label %[[J0:atoll.warp.join[0-9]*]]
; CHECK:       [[C0]]:
; CHECK-NEXT:    %r0 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(
; CHECK-NEXT:    br label %[[J0]]
; CHECK:       [[J0]]:
; CHECK-NEXT:    %r0.or.zero = phi { i32, i32, i32, i32 } [ %r0, %[[C0]] ], [ zeroinitializer, %lo ]
; CHECK:       hi:
; CHECK:         getelementptr i8, ptr addrspace(3) @tile
; CHECK-NEXT:    [[AM1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[W1:%.*]] = icmp eq i32 [[AM1]], -1
; CHECK-NEXT:    br i1 [[W1]], label %[[C1:atoll.warp.collective[0-9]*]], label %[[J1:atoll.warp.join[0-9]*]]
; CHECK:       [[C1]]:
; CHECK-NEXT:    %r1 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(
; CHECK:       done:
; CHECK-NEXT:    %r = phi { i32, i32, i32, i32 } [ %r0.or.zero, %[[J0]] ], [ %r1.or.zero, %[[J1]] ]

; Each ldmatrix sits behind its own whole-warp test in the PTX.
; PTX-LABEL: .entry split_mma(
; PTX:         activemask.b32 [[A:%r[0-9]+]];
; PTX-NEXT:    setp.ne.b32 [[P:%p[0-9]+]], [[A]], -1;
; PTX:         @[[P]] bra
; PTX:         ldmatrix.sync.aligned.m8n8.x4.shared.b16
; PTX:         activemask.b32 [[B:%r[0-9]+]];
; PTX-NEXT:    setp.ne.b32 [[Q:%p[0-9]+]], [[B]], -1;
; PTX:         @[[Q]] bra
; PTX:         ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3))
