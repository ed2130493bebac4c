; The alignment rule in every space: the confined offset has its low bits cleared
; for the alignment the instruction declares (align 1: none, 2: -2, 8: -8,
; 16: -16), relative to a base (window start, object) that is at least as
; aligned, so a forged offset never produces a misaligned access.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @aligns(i64 %i, ptr %out) {
  %w = getelementptr i8, ptr addrspace(3) @dyn, i64 %i
  %b1 = load i8, ptr addrspace(3) %w, align 1
  %h2 = load i16, ptr addrspace(3) %w, align 2
  %q8 = load i64, ptr addrspace(3) %w, align 8
  %v16 = load <4 x i32>, ptr addrspace(3) %w, align 16
  %a = alloca [64 x i8], align 16
  %l = getelementptr i8, ptr %a, i64 %i
  %lv = load <2 x i64>, ptr %l, align 16
  %lh = load i16, ptr %l, align 1
  store i8 %b1, ptr %out, align 1
  store i16 %h2, ptr %out, align 2
  store i64 %q8, ptr %out, align 8
  store <4 x i32> %v16, ptr %out, align 16
  store <2 x i64> %lv, ptr %out, align 16
  store i16 %lh, ptr %out, align 1
  ret void
}

; Window accesses: limits bytes - S, then the alignment mask.
; The offset is the tenant's own index %i: it keeps its name.
; CHECK-LABEL: define ptx_kernel void @aligns(i64 %i, ptr %out,
; CHECK:         [[L1:%atoll.smem.lim]] = sub i64 %atoll.smem.bytes, 1
; CHECK-NEXT:    [[L2:%atoll.smem.lim[0-9]+]] = sub i64 %atoll.smem.bytes, 2
; CHECK-NEXT:    [[L8:%atoll.smem.lim[0-9]+]] = sub i64 %atoll.smem.bytes, 8
; CHECK-NEXT:    [[L16:%atoll.smem.lim[0-9]+]] = sub i64 %atoll.smem.bytes, 16
; CHECK:       atoll.body:
; CHECK:         [[T1:%.*]] = trunc i64 [[L1]] to i32
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[T1]])
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[C1]] to i64
; CHECK-NEXT:    add i64 %atoll.smem.lo, [[Z1]]
; CHECK:         %b1 = load i8
; CHECK:         [[T2:%.*]] = trunc i64 [[L2]] to i32
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[T2]])
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -2
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    add i64 %atoll.smem.lo, [[Z2]]
; CHECK:         %h2 = load i16
; CHECK:         [[T8:%.*]] = trunc i64 [[L8]] to i32
; CHECK-NEXT:    [[C8:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[T8]])
; CHECK-NEXT:    [[A8:%.*]] = and i32 [[C8]], -8
; CHECK-NEXT:    [[Z8:%.*]] = zext i32 [[A8]] to i64
; CHECK-NEXT:    add i64 %atoll.smem.lo, [[Z8]]
; CHECK:         %q8 = load i64
; CHECK:         [[T16:%.*]] = trunc i64 [[L16]] to i32
; CHECK-NEXT:    [[C16:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[T16]])
; CHECK-NEXT:    [[A16:%.*]] = and i32 [[C16]], -16
; CHECK-NEXT:    [[Z16:%.*]] = zext i32 [[A16]] to i64
; CHECK-NEXT:    add i64 %atoll.smem.lo, [[Z16]]
; CHECK:         %v16 = load <4 x i32>
; Stack: 16 bytes align 16 in 64 bytes: offset <= 48, -16; 2 bytes align 1: <= 62.
; CHECK:         [[C5:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 48)
; CHECK-NEXT:    [[A5:%.*]] = and i32 [[C5]], -16
; CHECK-NEXT:    [[Z5:%.*]] = zext i32 [[A5]] to i64
; CHECK-NEXT:    getelementptr i8, ptr %a, i64 [[Z5]]
; CHECK:         %lv = load <2 x i64>
; CHECK:         [[C6:%.*]] = call i32 @llvm.umin.i32(i32 {{%.*}}, i32 62)
; CHECK-NEXT:    [[Z6:%.*]] = zext i32 [[C6]] to i64
; CHECK-NEXT:    [[P6:%.*]] = getelementptr i8, ptr %a, i64 [[Z6]]
; CHECK-NEXT:    %lh = load i16, ptr [[P6]], align 1
