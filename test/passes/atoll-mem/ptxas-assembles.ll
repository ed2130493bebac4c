; The hardened PTX of every confinement form (arena in both modes, shared object
; and window with %reserved_smem_offset_cap/%dynamic_smem_size, run-time space
; test, stack, constant, byval, cp.async, ldmatrix, zero-init loop and barrier)
; is accepted by ptxas for sm_90, not only by llc.
; REQUIRES: ptxas
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o %t.mask.ptx
; RUN: %ptxas %t.mask.ptx -o %t.mask.cubin
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o %t.mod.ptx
; RUN: %ptxas %t.mod.ptx -o %t.mod.cubin
; RUN: FileCheck %s --input-file=%t.mask.ptx

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 16
@dyn = external addrspace(3) global [0 x i32], align 16
@tab = addrspace(4) externally_initialized constant [16 x i32] zeroinitializer, align 4

define ptx_kernel void @everything(ptr %p, ptr addrspace(1) %g, ptr byval([8 x i32]) align 4 %bv, i64 %i, i32 %n) {
  %a = alloca [16 x i32], align 4
  %gp = getelementptr i32, ptr %p, i64 %i
  %v0 = load i32, ptr %gp, align 4
  %tp = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 %v0, ptr addrspace(3) %tp, align 4
  %dp = getelementptr i32, ptr addrspace(3) @dyn, i64 %i
  %v1 = atomicrmw add ptr addrspace(3) %dp, i32 %v0 monotonic, align 4
  %ap = getelementptr i32, ptr %a, i64 %i
  store i32 %v1, ptr %ap, align 4
  %cp = getelementptr i32, ptr addrspace(4) @tab, i64 %i
  %v2 = load i32, ptr addrspace(4) %cp, align 4
  %bp = getelementptr i32, ptr %bv, i64 %i
  %v3 = load i32, ptr %bp, align 4
  %slot = getelementptr ptr, ptr %p, i64 %i
  %up = load ptr, ptr %slot, align 8
  %v4 = load i32, ptr %up, align 4
  call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) %tp, ptr addrspace(1) %g, i32 %n)
  call void @llvm.nvvm.cp.async.wait.all()
  %m = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %tp)
  %s0 = add i32 %v2, %v3
  %s1 = add i32 %s0, %v4
  %s2 = add i32 %s1, %m
  %av = load i32, ptr %a, align 4
  %s3 = add i32 %s2, %av
  call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 %i, i1 false)
  store i32 %s3, ptr addrspace(1) %g, align 4
  ret void
}

; CHECK-LABEL: .entry everything(
; CHECK:         mov.u32 {{%r[0-9]+}}, %reserved_smem_offset_cap;
; CHECK:         mov.u32 {{%r[0-9]+}}, %dynamic_smem_size;
; CHECK:         barrier.sync 0;
; CHECK:         isspacep.shared
; CHECK:         cp.async.ca.shared.global
; CHECK:         ldmatrix.sync.aligned.m8n8.x1.shared.b16
