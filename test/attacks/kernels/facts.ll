; Tenant facts that try to fold clamps away (all stripped before -O2 by
; atoll-strip-facts; object clamps also go through an opaque asm): the victim's
; address arrives as a parameter that "promises" range [0, 4096) and alignment,
; an llvm.assume says it is in range and dereferenceable, and the index into a
; 16-word stack array "promises" range [0, 16) while the tenant passes 2^20.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @facts_fold_clamp(i64 noundef range(i64 0, 4096) %victim,
                                         ptr addrspace(1) noundef nonnull align 16 dereferenceable(4096) %out,
                                         i32 noundef range(i32 0, 16) %i) {
entry:
  %arr = alloca [16 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %off = shl i64 %t, 2
  %va = add i64 %victim, %off
  %inrange = icmp ult i64 %va, 4096
  call void @llvm.assume(i1 %inrange)
  %vp = inttoptr i64 %va to ptr addrspace(1)
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %vp, i64 16), "dereferenceable"(ptr addrspace(1) %vp, i64 64) ]
  ; Write and read the "victim" (confined to the attacker's arena).
  store i32 195887105, ptr addrspace(1) %vp, align 4
  %v = load i32, ptr addrspace(1) %vp, align 4
  ; Stack array overflow with a "promised" index.
  %ie = zext i32 %i to i64
  %ip = getelementptr inbounds nuw i32, ptr %arr, i64 %ie
  store volatile i32 195887106, ptr %ip, align 4
  %w = load volatile i32, ptr %ip, align 4
  %o = getelementptr inbounds nuw i32, ptr addrspace(1) %out, i64 %t
  %s = add i32 %v, %w
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.assume(i1)

