; Inline asm with a memory operand ("=*m"): the asm could address anything
; -> refused, even though its text looks harmless.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @asm_memory_operand(i64 %victim, i32 %v) {
entry:
  %p = inttoptr i64 %victim to ptr
  call void asm sideeffect "// touches $0", "=*m,r"(ptr elementtype(i32) %p, i32 %v)
  ret void
}
