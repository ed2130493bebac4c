; Forged pointers typed directly in the global and shared address spaces, and the
; ldu (load uniform) intrinsic on a forged global address.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@as_tile = internal addrspace(3) global [64 x i32] undef, align 4

define ptx_kernel void @forge_global_as(i64 %victim, i32 %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 2
  %a = add i64 %victim, %off
  %p = inttoptr i64 %a to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

; A shared-space pointer made from an arbitrary integer (e.g. 0x7fff0 or 2^40).
define ptx_kernel void @forge_shared_as(i64 %addr, i32 %v, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %t63 = and i64 %t, 63
  %s = getelementptr inbounds i32, ptr addrspace(3) @as_tile, i64 %t63
  store i32 1, ptr addrspace(3) %s, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %off = shl i64 %t, 2
  %a = add i64 %addr, %off
  %p = inttoptr i64 %a to ptr addrspace(3)
  store volatile i32 %v, ptr addrspace(3) %p, align 4
  %r = load volatile i32, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %r, ptr %o, align 4
  ret void
}

define ptx_kernel void @ldu_foreign(i64 %victim, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 2
  %a = add i64 %victim, %off
  %p = inttoptr i64 %a to ptr addrspace(1)
  %w = call i32 @llvm.nvvm.ldu.global.i.i32.p1(ptr addrspace(1) %p, i32 4)
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %w, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.ldu.global.i.i32.p1(ptr addrspace(1), i32)
