; A single access may be as wide as 256 bytes, the size every window is
; guaranteed to have (the shared pad is 256 bytes, arenas are at least 2 MiB):
; a 256-byte access through a pointer of unknown space is confined with limits
; bytes - 256 and window - 256 (window = min(size, 4 GiB)); 260 bytes are refused.
; memcpy/memset are not limited (their length is cut at run time).
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/max.ll | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %t/max.ll -o - | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/over.ll 2>&1 | FileCheck %s --check-prefix=OVER

; CHECK: @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
; CHECK-LABEL: define ptx_kernel void @widest(
; CHECK:         %atoll.smem.lim = sub i64 %atoll.smem.bytes, 256
; CHECK:         [[S:%.*]] = sub i64 %atoll.arena.window, 256
; CHECK-NEXT:    [[LIM:%.*]] = and i64 [[S]], -4
; CHECK-NEXT:    [[LIM32:%.*]] = trunc i64 [[LIM]] to i32
; CHECK:         [[SLIM32:%.*]] = trunc i64 %atoll.smem.lim to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[SLIM32]])
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 [[LIM32]])
; CHECK:         %v = load [64 x i32], ptr %atoll.generic, align 4
; OVER: error: atoll-mem: refused in 'too_wide': access of 260 bytes is too large: %v = load [65 x i32], ptr %p, align 4

;--- max.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @widest(ptr %t, ptr %out) {
  %p = load ptr, ptr %t, align 8
  %v = load [64 x i32], ptr %p, align 4
  %e = extractvalue [64 x i32] %v, 63
  store i32 %e, ptr %out, align 4
  ret void
}
;--- over.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @too_wide(ptr %t, ptr %out) {
  %p = load ptr, ptr %t, align 8
  %v = load [65 x i32], ptr %p, align 4
  %e = extractvalue [65 x i32] %v, 64
  store i32 %e, ptr %out, align 4
  ret void
}
