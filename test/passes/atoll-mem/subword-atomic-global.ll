; An i8/i16 atomic is a 32-bit atomic on the word holding it (NVPTX): it is
; confined as a 4-byte access, so its limit is window - 4, not window - 1.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %p, i64 %i) {
  %q = getelementptr i8, ptr %p, i64 %i
  %o = atomicrmw add ptr %q, i8 1 monotonic, align 1
  ret void
}

; CHECK: sub i64 %atoll.arena.window, 4
; CHECK: %o = atomicrmw add ptr
; MOD: %atoll.lim = sub i64 %__atoll_arena_size, 4
