; A warp member mask without the executing thread faults on sm_90 (the PTX ISA
; leaves it undefined), and one naming a lane that is elsewhere or disagrees hangs
; (R3-F1): every run-time mask of shfl.sync becomes
; match.any.sync(%activemask, (mask | %lanemask_eq) & %activemask) (frozen
; first), in the IR and in the PTX.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shuffle(ptr %out, i32 %mask, i32 %v) {
  %r = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %mask, i32 %v, i32 1, i32 31)
  store i32 %r, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

; CHECK-LABEL: define ptx_kernel void @shuffle(
; CHECK:         [[ACT:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[SELF:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:    [[FR:%.*]] = freeze i32 %mask
; CHECK-NEXT:    [[OR:%.*]] = or i32 [[FR]], [[SELF]]
; CHECK-NEXT:    [[MINE:%.*]] = and i32 [[OR]], [[ACT]]
; CHECK-NEXT:    %atoll.warp.mask = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[ACT]], i32 [[MINE]])
; CHECK-NEXT:    %r = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %atoll.warp.mask, i32 %v, i32 1, i32 31)
; PTX:     activemask.b32 [[AM:%r[0-9]+]];
; PTX:     mov.u32 [[LM:%r[0-9]+]], %lanemask_eq;
; PTX:     or.b32 [[O:%r[0-9]+]], {{%r[0-9]+}}, [[LM]];
; PTX:     and.b32 [[N:%r[0-9]+]], [[O]], [[AM]];
; PTX:     match.any.sync.b32 [[M:%r[0-9]+]], [[N]], [[AM]];
; PTX:     shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, [[M]];
