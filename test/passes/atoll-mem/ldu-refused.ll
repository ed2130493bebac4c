; ldu through a shared-space pointer cannot be confined to the arena (the operand
; type says shared): refused as an unsupported form, naming the instruction.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @ldu_shared(i64 %i) {
  %p = getelementptr i32, ptr addrspace(3) @s, i64 %i
  %x = call i32 @llvm.nvvm.ldu.global.i.i32.p3(ptr addrspace(3) %p, i32 4)
  ret void
}
; CHECK: error: atoll-mem: refused in 'ldu_shared': memory access of an unsupported form: %x = call i32 @llvm.nvvm.ldu.global.i.i32.p3(ptr addrspace(3) %p, i32 4)
