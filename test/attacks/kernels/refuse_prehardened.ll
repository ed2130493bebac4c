; A tenant module that claims to be hardened already (the attribute the runtime
; checks before launching), with an unconfined store -> refused, not trusted.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @prehardened(i64 %victim, i32 %v) #0 {
entry:
  %p = inttoptr i64 %victim to ptr
  store i32 %v, ptr %p, align 4
  ret void
}

attributes #0 = { "atoll-hardened"="mask-based" }
