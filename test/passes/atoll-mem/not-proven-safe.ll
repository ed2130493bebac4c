; Constant offsets that do NOT prove an access safe, each therefore confined:
; a negative offset, an access that ends past the object, an offset that breaks
; the declared alignment, an object less aligned than the access.
; RUN: %opt-atoll -passes='atoll-mem<verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @unsafe(ptr %out) {
  %arr = alloca [8 x i32], align 4
  %neg = getelementptr i8, ptr %arr, i64 -4
  store i32 1, ptr %neg, align 4
  %past = getelementptr i8, ptr %arr, i64 30
  store i32 2, ptr %past, align 2
  %mis = getelementptr i8, ptr %arr, i64 6
  store i32 3, ptr %mis, align 4
  %under = getelementptr i8, ptr %arr, i64 16
  store <2 x i64> zeroinitializer, ptr %under, align 16
  ret void
}

; The alloca's alignment was raised to the 16 the last store declares.
; CHECK-LABEL: define ptx_kernel void @unsafe(
; CHECK-NEXT:    %arr = alloca [8 x i32], align 16
; CHECK:       atoll.body:
; Offset -4 (the GEP's constant index): clamped (as an unsigned offset it is
; huge: umin picks 28).
; CHECK-NEXT:    %neg = getelementptr i8, ptr %arr, i64 -4
; CHECK-NEXT:    [[OPQ4:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 -4)
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQ4]], i32 28)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr %arr, i64 [[Z0]]
; CHECK-NEXT:    store i32 1, ptr [[P0]], align 4
; Offset 30 + 4 bytes > 32: clamped to 28, 2-aligned.
; CHECK-NEXT:    %past = getelementptr i8, ptr %arr, i64 30
; CHECK-NEXT:    [[OPQ30:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 30)
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQ30]], i32 28)
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -2
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr %arr, i64 [[Z1]]
; CHECK-NEXT:    store i32 2, ptr [[P1]], align 2
; Offset 6 with align 4: the low bits are cleared.
; CHECK-NEXT:    %mis = getelementptr i8, ptr %arr, i64 6
; CHECK-NEXT:    [[OPQ6:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 6)
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQ6]], i32 28)
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -4
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr %arr, i64 [[Z2]]
; CHECK-NEXT:    store i32 3, ptr [[P2]], align 4
; In bounds and 16-aligned relative to the object, but the object was only
; 4-aligned: confined (and the object's alignment raised).
; CHECK-NEXT:    %under = getelementptr i8, ptr %arr, i64 16
; CHECK-NEXT:    [[OPQ16:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 16)
; CHECK-NEXT:    [[C3:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQ16]], i32 16)
; CHECK-NEXT:    [[A3:%.*]] = and i32 [[C3]], -16
; CHECK-NEXT:    [[Z3:%.*]] = zext i32 [[A3]] to i64
; CHECK-NEXT:    [[P3:%.*]] = getelementptr i8, ptr %arr, i64 [[Z3]]
; CHECK-NEXT:    store <2 x i64> zeroinitializer, ptr [[P3]], align 16

; VERBOSE-NOT: proven-safe
; VERBOSE: local store confined: into its stack object | store i32 1, ptr %neg, align 4
; VERBOSE: local store confined: into its stack object | store i32 2, ptr %past, align 2
; VERBOSE: local store confined: into its stack object | store i32 3, ptr %mis, align 4
; VERBOSE: local store confined: into its stack object | store <2 x i64> zeroinitializer, ptr %under, align 16
