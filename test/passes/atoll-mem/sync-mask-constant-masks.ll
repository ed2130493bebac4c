; Constant member masks other than all-ones are confined like run-time ones: a
; half-warp __shfl_sync(0x0000ffff, ...) (common in reductions, and wrong when
; the upper half-warp runs it too) and a constant expression (not a ConstantInt,
; whatever it folds to at link time) as redux.sync's mask (argument 1). Each
; becomes (freeze(mask) | %lanemask_eq) & %activemask, partitioned by match.any.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@anchor = internal addrspace(3) global i32 undef, align 4

define ptx_kernel void @k(ptr %out, i32 %v) {
  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 65535, i32 %v, i32 8, i32 31)
  %r = call i32 @llvm.nvvm.redux.sync.min(i32 %x, i32 ptrtoint (ptr addrspace(3) @anchor to i32))
  store i32 %r, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.redux.sync.min(i32, i32)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:       [[A0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  [[E0:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:  [[F0:%.*]] = freeze i32 65535
; CHECK-NEXT:  [[O0:%.*]] = or i32 [[F0]], [[E0]]
; CHECK-NEXT:  [[M0:%.*]] = and i32 [[O0]], [[A0]]
; CHECK-NEXT:  %atoll.warp.mask = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A0]], i32 [[M0]])
; CHECK-NEXT:  %x = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %atoll.warp.mask, i32 %v, i32 8, i32 31)
; CHECK-NEXT:  [[A1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:  [[E1:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
; CHECK-NEXT:  [[F1:%.*]] = freeze i32 ptrtoint (ptr addrspace(3) @anchor to i32)
; CHECK-NEXT:  [[O1:%.*]] = or i32 [[F1]], [[E1]]
; CHECK-NEXT:  [[M1:%.*]] = and i32 [[O1]], [[A1]]
; CHECK-NEXT:  %atoll.warp.mask1 = call i32 @llvm.nvvm.match.any.sync.i32(i32 [[A1]], i32 [[M1]])
; CHECK-NEXT:  %r = call i32 @llvm.nvvm.redux.sync.min(i32 %x, i32 %atoll.warp.mask1)

; PTX-LABEL: .entry k(
; PTX:         activemask.b32 [[ACT:%r[0-9]+]];
; PTX:         mov.u32 [[EQ:%r[0-9]+]], %lanemask_eq;
; PTX:         or.b32 [[OR:%r[0-9]+]], [[EQ]], 65535;
; PTX:         and.b32 [[MINE:%r[0-9]+]], [[OR]], [[ACT]];
; PTX:         match.any.sync.b32 [[NAMED:%r[0-9]+]], [[MINE]], [[ACT]];
; PTX:         shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 8, 31, [[NAMED]];
; PTX:         redux.sync.min.s32
