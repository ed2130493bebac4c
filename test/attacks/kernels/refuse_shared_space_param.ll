; A kernel pointer parameter typed in the shared space (addrspace 3): the runtime
; would pass a global buffer address into it -> refused (kernel pointer parameters
; must be generic or global).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shared_space_param(ptr addrspace(3) %s, i32 %idx, i32 %v, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %idx, %tid
  %p = getelementptr i32, ptr addrspace(3) %s, i32 %i
  store volatile i32 %v, ptr addrspace(3) %p, align 4
  %r = load volatile i32, ptr addrspace(3) %p, align 4
  %t = zext i32 %tid to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %r, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
