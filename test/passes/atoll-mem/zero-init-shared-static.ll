; A kernel with a static __shared__ array zeroes the whole user shared window at
; entry: 16-byte stores by every thread of the CTA (then the byte tail and a
; barrier), so no byte of an earlier kernel's shared memory can be read.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [64 x float] undef, align 4

define ptx_kernel void @reads_shared(ptr %out, i32 %i) {
  %p = getelementptr float, ptr addrspace(3) @buf, i32 %i
  %v = load float, ptr addrspace(3) %p, align 4
  store float %v, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @reads_shared(
; CHECK:       atoll.zero.smem:
; CHECK-NEXT:    %atoll.zero.i = phi i64
; CHECK-NEXT:    [[A:%.*]] = add i64 %atoll.smem.lo, %atoll.zero.i
; CHECK-NEXT:    [[P:%.*]] = inttoptr i64 [[A]] to ptr addrspace(3)
; CHECK-NEXT:    store <4 x i32> zeroinitializer, ptr addrspace(3) [[P]], align 16
; CHECK:       atoll.zero.tail.store:
; CHECK:         store i8 0, ptr addrspace(3)
; CHECK:       atoll.zero.done:
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
