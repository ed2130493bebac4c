; ptxas agrees with the pass on the bank size: a module promoted to exactly 65536
; bytes of constant data assembles (ptxas refuses 65537 with "File uses too much
; global constant data"). Externally initialised, so llc folds none of it away.
; REQUIRES: ptxas
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 -o %t.ptx
; RUN: FileCheck %s < %t.ptx
; RUN: %ptxas %t.ptx -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@c = addrspace(4) externally_initialized constant [4096 x i32] zeroinitializer, align 4
@big = dso_local addrspace(1) externally_initialized global [4096 x i64] zeroinitializer, align 8
@mid = dso_local externally_initialized global [16384 x i8] zeroinitializer, align 1

; CHECK-DAG: .visible .const .align 4 .b8 c[16384];
; CHECK-DAG: .visible .const .align 8 .b8 big[32768];
; CHECK-DAG: .visible .const .align 1 .b8 mid[16384];

define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i32, ptr addrspace(4) @c, i64 %i
  %a = load i32, ptr addrspace(4) %p, align 4
  %q = getelementptr i64, ptr addrspace(1) @big, i64 %i
  %b = load i64, ptr addrspace(1) %q, align 8
  %r = getelementptr i8, ptr @mid, i64 %i
  %m = load i8, ptr %r, align 1
  %az = zext i32 %a to i64
  %mz = zext i8 %m to i64
  %s = add i64 %az, %b
  %t = add i64 %s, %mz
  store i64 %t, ptr %out, align 8
  ret void
}
