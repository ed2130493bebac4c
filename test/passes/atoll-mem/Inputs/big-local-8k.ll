; 8 KiB of stack (the reviewer's 400 KiB, under the frame cap) per thread: is the per-thread local size bounded anywhere?
; The driver reserves local memory for (local bytes per thread) x (resident threads
; of the whole device) at the first launch: 409600 x 2048 x 132 = ~103 GiB on an H200,
; outside every arena and outside the runtime's device-memory budget.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @big_local(ptr addrspace(1) %out, i32 %i, i32 %j) {
  %buf = alloca [2048 x i32], align 4
  %pi = getelementptr [2048 x i32], ptr %buf, i32 0, i32 %i
  store i32 7, ptr %pi, align 4
  %pj = getelementptr [2048 x i32], ptr %buf, i32 0, i32 %j
  %v = load i32, ptr %pj, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
