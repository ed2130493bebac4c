; R2-F2: memory intrinsics with a run-time length. atoll-mem cuts the length to the
; window (up to 4 GiB); NVPTX codegen used to expand the call into a byte loop with
; no preemption check (billions of iterations per thread that cancel could not
; stop). atoll-mem now expands it into an IR loop that takes a check. LLVM IR: the
; length must reach the backend as a run-time value.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @memset_forever(ptr %p, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %p, i8 7, i64 %n, i1 false)
  ret void
}

define ptx_kernel void @memmove_forever(ptr %p, ptr %q, i64 %n) {
  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  ret void
}

; Loop-free: for the launch-size cap (a grid over RuntimeOptions::maxBlocksPerLaunch).
define ptx_kernel void @empty_block(ptr %p) {
  store i32 1, ptr %p
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
