; A byval struct parameter (param space) is a known object: reads at a run-time
; offset are confined into it; a store into the tenant's own copy is allowed and
; confined too (NVPTX makes a local copy of a written byval parameter); a
; constant in-bounds field access is proven safe and left alone.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { [8 x i32], float }

define ptx_kernel void @by_value(ptr byval(%struct.S) align 4 %s, i64 %i, ptr %out) {
  %p = getelementptr [8 x i32], ptr %s, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  store i32 0, ptr %p, align 4
  %f = getelementptr %struct.S, ptr %s, i64 0, i32 1
  %x = load float, ptr %f, align 4
  store i32 %v, ptr %out, align 4
  store float %x, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @by_value(ptr byval(%struct.S) align 4 %s, i64 %i, ptr %out, i64 %__atoll_arena_base, i64 %__atoll_arena_size)
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr [8 x i32], ptr %s, i64 0, i64 %i
; CHECK-NEXT:    [[R0:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[B0:%.*]] = ptrtoint ptr %s to i64
; CHECK-NEXT:    [[O0:%.*]] = sub i64 [[R0]], [[B0]]
; CHECK-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[O0]], i64 32)
; CHECK-NEXT:    [[A0:%.*]] = and i64 [[C0]], -4
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr %s, i64 [[A0]]
; CHECK-NEXT:    %v = load i32, ptr [[P0]], align 4
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[B1:%.*]] = ptrtoint ptr %s to i64
; CHECK-NEXT:    [[O1:%.*]] = sub i64 [[R1]], [[B1]]
; CHECK-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[O1]], i64 32)
; CHECK-NEXT:    [[A1:%.*]] = and i64 [[C1]], -4
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr %s, i64 [[A1]]
; CHECK-NEXT:    store i32 0, ptr [[P1]], align 4
; Field 1 at the constant offset 32 (4 bytes of 36): proven safe, unchanged.
; CHECK-NEXT:    %f = getelementptr %struct.S, ptr %s, i64 0, i32 1
; CHECK-NEXT:    %x = load float, ptr %f, align 4
