; A constant offset below a stack object is never proven safe: `%arr - 8` is the
; previous stack slot (another object of the frame). The store is clamped into
; %arr, while the accesses at %arr + 0 are proven safe (mutant proof-negative: a
; proof that ignored the sign took 2^64 - 8 + 8 = 0 <= 32 as inside).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @below_local(ptr addrspace(1) %out, i64 %x) {
  %arr = alloca [4 x i64], align 16
  store i64 %x, ptr %arr, align 8
  %neg = getelementptr i8, ptr %arr, i64 -8
  store i64 %x, ptr %neg, align 8
  %v = load i64, ptr %arr, align 8
  store i64 %v, ptr addrspace(1) %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @below_local(
; CHECK:         %neg = getelementptr i8, ptr %arr, i64 -8
; CHECK-NEXT:    [[O:%atoll.opaque]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 -8)
; CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[O]], i32 24)
; CHECK:         store i64 %x, ptr %atoll.obj.addr, align 8
; VERBOSE: below_local: local store proven-safe: constant offset inside its object | store i64 %x, ptr %arr, align 8
; VERBOSE-NEXT: below_local: local store confined: into its stack object | store i64 %x, ptr %neg, align 8
