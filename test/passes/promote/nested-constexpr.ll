; Uses buried in nested constant expressions: a GEP of a GEP in the global space,
; a cast to generic of a GEP, a GEP on the generic cast, and a constant-space cast
; of a generic global.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tbl = internal addrspace(1) constant [4 x [4 x i32]] [[4 x i32] [i32 0, i32 1, i32 2, i32 3], [4 x i32] [i32 4, i32 5, i32 6, i32 7], [4 x i32] [i32 8, i32 9, i32 10, i32 11], [4 x i32] [i32 12, i32 13, i32 14, i32 15]], align 4
@gen = internal constant [2 x i64] [i64 42, i64 43], align 8

; CHECK: @tbl = internal addrspace(4) constant [4 x [4 x i32]]
; CHECK: @gen = internal addrspace(4) constant [2 x i64] [i64 42, i64 43], align 8
; CHECK-NOT: addrspace(1) @tbl
; CHECK-NOT: ptr @gen

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: load i32, ptr addrspace(4) getelementptr inbounds nuw (i8, ptr addrspace(4) getelementptr inbounds ([4 x [4 x i32]], ptr addrspace(4) @tbl, i64 0, i64 2), i64 4)
; CHECK: load i32, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(4) getelementptr inbounds ([4 x [4 x i32]], ptr addrspace(4) @tbl, i64 0, i64 3) to ptr), i64 8)
; CHECK: load i64, ptr addrspace(4) getelementptr inbounds nuw (i8, ptr addrspace(4) @gen, i64 8)
define ptx_kernel void @k(ptr %out) {
  %a = load i32, ptr addrspace(1) getelementptr inbounds nuw (i8, ptr addrspace(1) getelementptr inbounds ([4 x [4 x i32]], ptr addrspace(1) @tbl, i64 0, i64 2), i64 4), align 4
  %b = load i32, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(1) getelementptr inbounds ([4 x [4 x i32]], ptr addrspace(1) @tbl, i64 0, i64 3) to ptr), i64 8), align 4
  %c = load i64, ptr addrspace(4) getelementptr inbounds nuw (i8, ptr addrspace(4) addrspacecast (ptr @gen to ptr addrspace(4)), i64 8), align 8
  %s = add i32 %a, %b
  %z = zext i32 %s to i64
  %t = add i64 %z, %c
  store i64 %t, ptr %out, align 8
  ret void
}
