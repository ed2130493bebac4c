; An object less aligned than an access into it: the object's alignment is raised
; to the access's (alloca, shared global, byval parameter), since offsets are
; aligned relative to the object; otherwise a forged offset could still produce a
; misaligned address (a fault in the shared context).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [32 x i8] undef, align 1

define ptx_kernel void @raise(ptr byval([17 x i8]) align 1 %bv, i64 %i, ptr %out) {
  %a = alloca [16 x i8], align 1
  %pa = getelementptr i8, ptr %a, i64 %i
  store i32 1, ptr %pa, align 4
  %ps = getelementptr i8, ptr addrspace(3) @s, i64 %i
  store i64 2, ptr addrspace(3) %ps, align 8
  %pb = getelementptr i8, ptr %bv, i64 %i
  %v = load i16, ptr %pb, align 2
  store i16 %v, ptr %out, align 2
  ret void
}

; CHECK: @s = internal addrspace(3) global [32 x i8] undef, align 8
; CHECK-LABEL: define ptx_kernel void @raise(ptr byval([17 x i8]) align 2 %bv,
; CHECK-NEXT:    %a = alloca [16 x i8], align 4
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 12)
; CHECK-NEXT:    and i32 {{%.*}}, -4
; CHECK:         store i32 1, ptr {{%.*}}, align 4
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 24)
; CHECK-NEXT:    and i32 {{%.*}}, -8
; CHECK:         store i64 2, ptr addrspace(3) {{%.*}}, align 8
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 15)
; CHECK-NEXT:    and i32 {{%.*}}, -2
; CHECK:         %v = load i16, ptr {{%.*}}, align 2

; PTX:         .param .align 2 .b8 raise_param_0[17],
; PTX:         .local .align 4 .b8 __local_depot0[
; PTX:         .shared .align 8 .b8 s[32];
