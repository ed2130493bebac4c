; A store into a __constant__ table through a generic pointer (clang deletes such
; a store from C++ as undefined behaviour, so the attack is written in IR)
; -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@c_vals = addrspace(4) externally_initialized global [8 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8], align 4

define ptx_kernel void @constant_write(i32 %idx, i32 %v, ptr %out) {
entry:
  %i = and i32 %idx, 7
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(4) @c_vals to ptr), i64 %i64
  store i32 %v, ptr %p, align 4
  %w = load i32, ptr %p, align 4
  store i32 %w, ptr %out, align 4
  ret void
}
