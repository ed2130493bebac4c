; A group of loads from a static __shared__ tile, one of them one element past
; the tile's end (Base + 256 in 256 bytes): that load leaves the group and is
; clamped on its own (limit 252); the group keeps the limit of the members that
; fit (256 - 8 = 248). Were it a member, the group's limit (256 - 260) would wrap
; to 0xfffffffc: no clamp at all for any of the three.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4

define ptx_kernel void @k(i32 %i, ptr %out) {
  %b = getelementptr float, ptr addrspace(3) @tile, i32 %i
  %p1 = getelementptr i8, ptr addrspace(3) %b, i64 4
  %p2 = getelementptr i8, ptr addrspace(3) %b, i64 256
  %x0 = load float, ptr addrspace(3) %b, align 4
  %x1 = load float, ptr addrspace(3) %p1, align 4
  %x2 = load float, ptr addrspace(3) %p2, align 4
  %s = fadd float %x0, %x1
  %t = fadd float %s, %x2
  store float %t, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         call i32 @llvm.umin.i32(i32 %atoll.opaque, i32 248)
; CHECK:         [[BASE:%atoll.obj.addr]] = getelementptr i8, ptr addrspace(3) @tile, i64
; CHECK-NEXT:    %atoll.grp.addr = getelementptr i8, ptr addrspace(3) [[BASE]], i64 0
; CHECK-NEXT:    load float, ptr addrspace(3) %atoll.grp.addr, align 4
; CHECK-NEXT:    %atoll.grp.addr1 = getelementptr i8, ptr addrspace(3) [[BASE]], i64 4
; CHECK-NEXT:    load float, ptr addrspace(3) %atoll.grp.addr1, align 4
; CHECK-NOT:     getelementptr i8, ptr addrspace(3) [[BASE]], i64 256
; CHECK:         [[OFF:%atoll.obj.off[0-9]+]] = add i64 256,
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[O:%atoll.opaque[0-9]+]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[O]], i32 252)
; CHECK-NOT:     i32 -4)
; PTX-LABEL: .entry k(
; PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 248;
; PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 252;
