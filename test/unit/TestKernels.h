// IR fixtures shared by the unit tests that compile kernels without a GPU.
#pragma once

namespace atoll_test {

/// Data layout and triple of an NVPTX module.
inline constexpr const char *NvptxHeader = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)";

/// c[i] = a[i] + b[i] for i < n (needs the llvm.nvvm.read.ptx.sreg.tid.x declaration).
inline constexpr const char *VecAddKernel = R"(
define ptx_kernel void @vadd(ptr %a, ptr %b, ptr %c, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp slt i32 %tid, %n
  br i1 %in, label %body, label %exit
body:
  %i = sext i32 %tid to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %pc = getelementptr inbounds float, ptr %c, i64 %i
  %x = load float, ptr %pa, align 4
  %y = load float, ptr %pb, align 4
  %s = fadd float %x, %y
  store float %s, ptr %pc, align 4
  br label %exit
exit:
  ret void
}
)";

inline constexpr const char *TidDeclaration = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

} // namespace atoll_test
