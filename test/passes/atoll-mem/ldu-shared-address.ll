; ldu.global given a shared address (a row of a static __shared__ tile, made
; generic): ldu reads the global space only, so the operand is confined to the
; arena (an arena address, whatever the tenant meant), never to the tile (a
; shared address under ldu.global is an illegal-address fault).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4

define ptx_kernel void @k(i64 %i, ptr addrspace(1) %out) {
  %s = getelementptr float, ptr addrspace(3) @tile, i64 %i
  %g = addrspacecast ptr addrspace(3) %s to ptr
  %v = call float @llvm.nvvm.ldu.global.f.f32.p0(ptr %g, i32 4)
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

declare float @llvm.nvvm.ldu.global.f.f32.p0(ptr, i32)

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         %g = addrspacecast ptr addrspace(3) %s to ptr
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr %g to i64
; CHECK-NEXT:    [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[PF]] to i32
; CHECK-NEXT:    [[O:%.*]] = and i32 [[T]], %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
; CHECK-NEXT:    [[A:%.*]] = or i64 %atoll.arena.base, [[Z]]
; CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; CHECK-NEXT:    [[X:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK-NEXT:    %v = call float @llvm.nvvm.ldu.global.f.f32.p0(ptr [[X]], i32 4)
; PTX-LABEL: .entry k(
; PTX:         or.b64 [[A:%rd[0-9]+]],
; PTX-NEXT:    cvta.global.u64 [[X:%rd[0-9]+]], [[A]];
; PTX-NEXT:    ldu.global.b32 {{%r[0-9]+}}, {{\[}}[[X]]{{\]}};
