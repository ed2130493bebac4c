; Class 4 (issue 13), "what is checked is not what is emitted": an unhardened
; device function kept alive only by a constant expression. Its address sits in a
; constant table that the kernel reads as data (no call, so inlining never sees
; it); before the rule the function reached the PTX as a .func with its
; unconfined store into the victim's arena. Refused: no function may be used but
; as the callee of a direct call.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(4) constant [2 x i64] [i64 ptrtoint (ptr @unhardened_writer to i64), i64 0]

define internal void @unhardened_writer(i64 %victim) noinline {
  %p = inttoptr i64 %victim to ptr addrspace(1)
  store i32 -559038737, ptr addrspace(1) %p, align 4
  ret void
}

define ptx_kernel void @emitted_const_fn_table(ptr %out, i64 %i) {
  %j = and i64 %i, 1
  %p = getelementptr [2 x i64], ptr addrspace(4) @table, i64 0, i64 %j
  %v = load i64, ptr addrspace(4) %p, align 8
  store i64 %v, ptr %out, align 8
  ret void
}
