; cp.async (LDGSTS) from foreign global addresses into shared memory, into shared
; memory out of range, and from misaligned sources. C++ cannot express the raw
; intrinsic with a forged global address (inline PTX would be refused), so this
; is LLVM IR.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@cp_tile = internal addrspace(3) global [256 x i32] undef, align 16

; Thread t copies 16 bytes from victim + 16 t into the tile, then out[t] = tile[t].
define ptx_kernel void @cp_async_ca_foreign(i64 %victim, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 4
  %src.i = add i64 %victim, %off
  %src = inttoptr i64 %src.i to ptr addrspace(1)
  %off.s = and i64 %off, 1008
  %dst = getelementptr inbounds i8, ptr addrspace(3) @cp_tile, i64 %off.s
  call void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t.w = and i64 %t, 255
  %p = getelementptr inbounds i32, ptr addrspace(3) @cp_tile, i64 %t.w
  %w = load i32, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %w, ptr %o, align 4
  ret void
}

; The same with the L2-only (.cg) variant.
define ptx_kernel void @cp_async_cg_foreign(i64 %victim, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 4
  %src.i = add i64 %victim, %off
  %src = inttoptr i64 %src.i to ptr addrspace(1)
  %off.s = and i64 %off, 1008
  %dst = getelementptr inbounds i8, ptr addrspace(3) @cp_tile, i64 %off.s
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t.w = and i64 %t, 255
  %p = getelementptr inbounds i32, ptr addrspace(3) @cp_tile, i64 %t.w
  %w = load i32, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %w, ptr %o, align 4
  ret void
}

; Destination far outside the tile (byte offset dstoff + 16 t), source the own
; buffer src.
define ptx_kernel void @cp_async_shared_oob(ptr %src, i64 %dstoff, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 4
  %g = addrspacecast ptr %src to ptr addrspace(1)
  %s = getelementptr inbounds i8, ptr addrspace(1) %g, i64 %off
  %d.off = add i64 %dstoff, %off
  %dst = getelementptr i8, ptr addrspace(3) @cp_tile, i64 %d.off
  call void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %s)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t.w = and i64 %t, 255
  %p = getelementptr inbounds i32, ptr addrspace(3) @cp_tile, i64 %t.w
  %w = load i32, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %w, ptr %o, align 4
  ret void
}

; 16-byte copies from victim + 4 + 16 t and to tile + 8: misaligned for cp.async.
define ptx_kernel void @cp_async_misaligned(i64 %victim, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 4
  %src.0 = add i64 %victim, 4
  %src.i = add i64 %src.0, %off
  %src = inttoptr i64 %src.i to ptr addrspace(1)
  %off.s = and i64 %off, 992
  %off.m = add i64 %off.s, 8
  %dst = getelementptr inbounds i8, ptr addrspace(3) @cp_tile, i64 %off.m
  call void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t.w = and i64 %t, 255
  %p = getelementptr inbounds i32, ptr addrspace(3) @cp_tile, i64 %t.w
  %w = load i32, ptr addrspace(3) %p, align 4
  %o = getelementptr inbounds i32, ptr %out, i64 %t
  store i32 %w, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.cp.async.ca.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
