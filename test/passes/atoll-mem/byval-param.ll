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

; CHECK-LABEL: define ptx_kernel void @by_value(ptr byval(%struct.S) align 4 %s, i64 %i, ptr %out, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr [8 x i32], ptr %s, i64 0, i64 %i
; The offset comes from the GEP's index (no address round trip), is clamped in
; 32 bits to 36 - 4 and aligned to 4.
; CHECK-NEXT:    [[O0:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[OPQT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT0]], i32 32)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr %s, i64 [[Z0]]
; CHECK-NEXT:    %v = load i32, ptr [[P0]], align 4
; CHECK-NEXT:    [[O1:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 32)
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr %s, i64 [[Z1]]
; CHECK-NEXT:    store i32 0, ptr [[P1]], align 4
; Field 1 at the constant offset 32 (4 bytes of 36): proven safe, unchanged.
; CHECK-NEXT:    %f = getelementptr %struct.S, ptr %s, i64 0, i32 1
; CHECK-NEXT:    %x = load float, ptr %f, align 4
