; A byval parameter read at offsets LLVM knows to be 16-aligned (i * 16): the clamp
; of a shared or local object would raise the object to 16 and emit the alignment
; hint, but a byval parameter keeps its declared alignment (raising it would change
; the kernel's parameter layout), so the offset is only aligned to the access (4).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Rows = type { [16 x i32] }

define ptx_kernel void @rows(ptr byval(%struct.Rows) align 4 %s, i64 %i, ptr %out) {
  %row = mul i64 %i, 16
  %p = getelementptr i8, ptr %s, i64 %row
  %v = load i32, ptr %p, align 4
  %o = getelementptr i32, ptr %out, i64 %i
  store i32 %v, ptr %o, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @rows(ptr byval(%struct.Rows) align 4 %s, i64 %i, ptr %out,
; CHECK-NOT:     atoll.align.hint
; CHECK:         [[T:%.*]] = trunc i64 %row to i32
; CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 60)
; CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
; CHECK-NEXT:    getelementptr i8, ptr %s, i64 [[Z]]
; CHECK-NOT:     atoll.align.hint
; CHECK:         ret void
