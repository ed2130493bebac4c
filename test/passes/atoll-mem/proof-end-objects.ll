; A constant offset proves an access safe only when the whole access, not just its
; first byte, lies in the object: [C, C + S) inside the object. Each access below
; starts inside its object and ends past it, so each is confined, in every kind of
; object (stack, shared, constant, byval), and its clamp limit is size - S.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=VERBOSE
; RUN: FileCheck %s --input-file=%t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%pair = type { i32, i32 }

@tile = internal addrspace(3) global [4 x i32] undef, align 8
@table = internal addrspace(4) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 8

define ptx_kernel void @ends_past(ptr byval(%pair) align 8 %pv, ptr %out) {
  %a = alloca [4 x i32], align 8
  %a12 = getelementptr i8, ptr %a, i64 8
  %la = load i64, ptr %a12, align 8
  %a8 = getelementptr i8, ptr %a, i64 12
  %lb = load i32, ptr %a8, align 4
  %t8 = getelementptr i8, ptr addrspace(3) @tile, i64 12
  %lt = load i64, ptr addrspace(3) %t8, align 4
  %c8 = getelementptr i8, ptr addrspace(4) @table, i64 12
  %lc = load i64, ptr addrspace(4) %c8, align 4
  %p4 = getelementptr i8, ptr %pv, i64 4
  %lp = load i64, ptr %p4, align 4
  %s0 = add i64 %la, %lt
  %s1 = add i64 %s0, %lc
  %s2 = add i64 %s1, %lp
  store i64 %s2, ptr %out, align 8
  store i32 %lb, ptr %out, align 4
  ret void
}

; The in-bounds ones (8 + 8 = 16, 12 + 4 = 16) are proven; the others confined.
; VERBOSE:      local load proven-safe: constant offset inside its object | %la = load i64
; VERBOSE-NEXT: local load proven-safe: constant offset inside its object | %lb = load i32
; VERBOSE-NEXT: shared load confined: into its shared object | %lt = load i64
; VERBOSE-NEXT: constant load confined: into its constant object | %lc = load i64
; VERBOSE-NEXT: param load confined: into its byval parameter | %lp = load i64

; The limits are object size - access size: 16 - 8 = 8 (shared, constant), 8 - 8 = 0.
; CHECK-LABEL: define ptx_kernel void @ends_past(
; CHECK: call i32 @llvm.umin.i32(i32 %{{.*}}, i32 8)
; CHECK: %lt = load i64, ptr addrspace(3)
; CHECK: call i32 @llvm.umin.i32(i32 %{{.*}}, i32 8)
; CHECK: %lc = load i64, ptr addrspace(4)
; CHECK: call i32 @llvm.umin.i32(i32 %{{.*}}, i32 0)
; CHECK: %lp = load i64
