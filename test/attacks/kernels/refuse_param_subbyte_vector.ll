; Found by review (F3): LLVM reads a <5 x i4> parameter as five 16-bit lanes
; (ld.param at +8 of a 4-byte .param): past the bytes the runtime packs. Refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @param_subbyte_vector(ptr %out, <5 x i4> %n) {
  %e = extractelement <5 x i4> %n, i32 4
  %z = zext i4 %e to i32
  store i32 %z, ptr %out, align 4
  ret void
}
