; memcpy between objects of different spaces (a constant table to a stack array,
; a stack array to a static shared tile): a run-time length is cut to the smaller
; object, and each pointer is clamped for that length inside its own object.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [64 x i8] zeroinitializer, align 8
@tile = internal addrspace(3) global [16 x i8] undef, align 8

define ptx_kernel void @copies(i64 %off, i64 %n, ptr %out) {
  %buf = alloca [32 x i8], align 8
  %src = getelementptr i8, ptr addrspace(4) @tab, i64 %off
  call void @llvm.memcpy.p0.p4.i64(ptr align 8 %buf, ptr addrspace(4) align 8 %src, i64 %n, i1 false)
  %dst = getelementptr i8, ptr addrspace(3) @tile, i64 %off
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 1 %dst, ptr align 8 %buf, i64 %n, i1 false)
  %v = load i64, ptr %buf, align 8
  store i64 %v, ptr %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @copies(
; CHECK:       atoll.body:
; constant (64) -> stack (32): len = umin(umin(n, 32), 64).
; CHECK-NEXT:    %src = getelementptr i8, ptr addrspace(4) @tab, i64 [[OFF:%[^ ]+]]
; CHECK-NEXT:    [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 32)
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 64)
; CHECK:         [[LIMD:%.*]] = sub i64 32, [[L]]
; CHECK-NEXT:    [[TD:%.*]] = trunc i64 {{%.*}} to i32
; CHECK-NEXT:    [[QTD:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[TD]])
; CHECK-NEXT:    [[LD:%.*]] = trunc i64 [[LIMD]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[QTD]], i32 [[LD]])
; CHECK:         getelementptr i8, ptr %buf, i64
; CHECK:         [[LIMS:%.*]] = sub i64 64, [[L]]
; CHECK-NEXT:    [[TS:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[QTS:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[TS]])
; CHECK-NEXT:    [[LS:%.*]] = trunc i64 [[LIMS]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[QTS]], i32 [[LS]])
; CHECK:         getelementptr i8, ptr addrspace(4) @tab, i64
; CHECK:         call void @llvm.memcpy.p0.p4.i64(ptr align 8 {{%.*}}, ptr addrspace(4) align 8 {{%.*}}, i64 [[L]], i1 false)
; stack (32) -> shared tile (16): len = umin(umin(n, 16), 32).
; CHECK:         %dst = getelementptr i8, ptr addrspace(3) @tile, i64 [[OFF]]
; CHECK-NEXT:    [[LG1:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[M0:%.*]] = call i64 @llvm.umin.i64(i64 [[LG1]], i64 16)
; CHECK-NEXT:    [[M:%.*]] = call i64 @llvm.umin.i64(i64 [[M0]], i64 32)
; CHECK:         [[LIMT:%.*]] = sub i64 16, [[M]]
; CHECK-NEXT:    [[TT:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[QTT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[TT]])
; CHECK-NEXT:    [[LT:%.*]] = trunc i64 [[LIMT]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[QTT]], i32 [[LT]])
; CHECK:         getelementptr i8, ptr addrspace(3) @tile, i64
; CHECK:         sub i64 32, [[M]]
; CHECK:         call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 1 {{%.*}}, ptr align 8 {{%.*}}, i64 [[M]], i1 false)
