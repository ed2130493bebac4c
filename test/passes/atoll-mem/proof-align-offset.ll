; A constant offset proves an access safe only when it keeps the alignment the
; instruction declares: an offset of 2 for an align-4 access, in bounds, is still
; confined (and aligned down by the clamp), in a stack and a shared object.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=VERBOSE
; RUN: FileCheck %s --input-file=%t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @misaligned(ptr %out) {
  %a = alloca [8 x i32], align 4
  %a2 = getelementptr i8, ptr %a, i64 2
  %x = load i32, ptr %a2, align 4
  %t6 = getelementptr i8, ptr addrspace(3) @tile, i64 6
  %y = load i32, ptr addrspace(3) %t6, align 4
  %a4 = getelementptr i8, ptr %a, i64 4
  %z = load i32, ptr %a4, align 4
  %s = add i32 %x, %y
  %s2 = add i32 %s, %z
  store i32 %s2, ptr %out, align 4
  ret void
}

; VERBOSE:      local load confined: into its stack object | %x = load i32
; VERBOSE-NEXT: shared load confined: into its shared object | %y = load i32
; VERBOSE-NEXT: local load proven-safe: constant offset inside its object | %z = load i32

; The clamps align the offset down to 4.
; CHECK-LABEL: define ptx_kernel void @misaligned(
; CHECK: and i32 %{{.*}}, -4
; CHECK: %x = load i32
; CHECK: and i32 %{{.*}}, -4
; CHECK: %y = load i32
