; A constant offset below its object is never proven safe: `@tile - 4` is 4 bytes
; below a shared object (another object, or the driver's reserved region). The
; access is clamped into the object like any other (mutant proof-negative: a
; proof that ignored the sign took 2^64 - 4 + 4 = 0 <= 64 as inside).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16 x i32] undef, align 16

define ptx_kernel void @below_shared(i32 %x) {
  %neg = getelementptr i8, ptr addrspace(3) @tile, i64 -4
  store i32 %x, ptr addrspace(3) %neg, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @below_shared(
; CHECK:         %neg = getelementptr i8, ptr addrspace(3) @tile, i64 -4
; CHECK-NEXT:    [[O:%atoll.opaque]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 -4)
; CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[O]], i32 60)
; CHECK:         store i32 %x, ptr addrspace(3) %atoll.obj.addr, align 4
; VERBOSE: below_shared: shared store confined: into its shared object | store i32 %x, ptr addrspace(3) %neg
; VERBOSE-NOT: proven-safe
