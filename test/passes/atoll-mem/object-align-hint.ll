; When LLVM can prove an object offset is aligned beyond the access alignment
; (up to 16), the clamp keeps that alignment visible: the object's alignment is
; raised to it and the alignment mask is an inline-asm and ("atoll.align.hint",
; and.b32 with 0xfffffff0) that ptxas cannot see through umin without: knowing
; the offset 16-aligned lets it merge neighbouring shared accesses into one
; 128-bit access, as for the unhardened kernel (tiled GEMM: As[ty][k], k = 0..3).
; The mask is still applied (it is an and), so a forged offset stays aligned and
; in bounds. When the offset is only as aligned as the access (Bs + tx*4), the
; plain and with -4 is used and the object keeps its alignment.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@As = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@Bs = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @row_dot(ptr %out, i64 %ty, i64 %tx) {
  %row = getelementptr [16 x float], ptr addrspace(3) @As, i64 %ty
  %r4 = getelementptr inbounds nuw i8, ptr addrspace(3) %row, i64 4
  %r8 = getelementptr inbounds nuw i8, ptr addrspace(3) %row, i64 8
  %r12 = getelementptr inbounds nuw i8, ptr addrspace(3) %row, i64 12
  %a0 = load float, ptr addrspace(3) %row, align 4
  %a1 = load float, ptr addrspace(3) %r4, align 4
  %a2 = load float, ptr addrspace(3) %r8, align 4
  %a3 = load float, ptr addrspace(3) %r12, align 4
  %col = getelementptr float, ptr addrspace(3) @Bs, i64 %tx
  %c4 = getelementptr inbounds nuw i8, ptr addrspace(3) %col, i64 4
  %c8 = getelementptr inbounds nuw i8, ptr addrspace(3) %col, i64 8
  %c12 = getelementptr inbounds nuw i8, ptr addrspace(3) %col, i64 12
  %b0 = load float, ptr addrspace(3) %col, align 4
  %b1 = load float, ptr addrspace(3) %c4, align 4
  %b2 = load float, ptr addrspace(3) %c8, align 4
  %b3 = load float, ptr addrspace(3) %c12, align 4
  %p0 = fmul float %a0, %b0
  %p1 = fmul float %a1, %b1
  %p2 = fmul float %a2, %b2
  %p3 = fmul float %a3, %b3
  %s0 = fadd float %p0, %p1
  %s1 = fadd float %p2, %p3
  %s = fadd float %s0, %s1
  store float %s, ptr %out, align 4
  ret void
}

; As (rows of 64 bytes) is raised to align 16; Bs keeps its align 4.
; CHECK: @As = internal addrspace(3) global [16 x [16 x float]] undef, align 16
; CHECK: @Bs = internal addrspace(3) global [256 x float] undef, align 4

; The row As[ty] (offset ty*64, known 16-aligned): one clamp for the four loads,
; limit 1024 - 16, aligned by the hint.
; CHECK-LABEL: define ptx_kernel void @row_dot(
; CHECK:         %r12 = getelementptr inbounds nuw i8, ptr addrspace(3) %row, i64 12
; CHECK-NEXT:    [[AO:%.*]] = mul i64 %ty, 64
; CHECK-NEXT:    [[AT:%.*]] = trunc i64 [[AO]] to i32
; CHECK-NEXT:    [[OPQAT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[AT]])
; CHECK-NEXT:    [[AC:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQAT]], i32 1008)
; CHECK-NEXT:    [[AH:%atoll.align.hint]] = call i32 asm "and.b32 $0, $1, 0xfffffff0;", "=r,r"(i32 [[AC]])
; CHECK-NEXT:    [[AZ:%.*]] = zext i32 [[AH]] to i64
; CHECK-NEXT:    [[AB:%.*]] = getelementptr i8, ptr addrspace(3) @As, i64 [[AZ]]
; CHECK-NEXT:    [[A0:%.*]] = getelementptr i8, ptr addrspace(3) [[AB]], i64 0
; CHECK-NEXT:    %a0 = load float, ptr addrspace(3) [[A0]], align 4
; CHECK-NEXT:    [[A1:%.*]] = getelementptr i8, ptr addrspace(3) [[AB]], i64 4
; CHECK-NEXT:    %a1 = load float, ptr addrspace(3) [[A1]], align 4
; CHECK-NEXT:    [[A2:%.*]] = getelementptr i8, ptr addrspace(3) [[AB]], i64 8
; CHECK-NEXT:    %a2 = load float, ptr addrspace(3) [[A2]], align 4
; CHECK-NEXT:    [[A3:%.*]] = getelementptr i8, ptr addrspace(3) [[AB]], i64 12
; CHECK-NEXT:    %a3 = load float, ptr addrspace(3) [[A3]], align 4
; The column Bs + tx*4 (only 4-aligned): a plain and, no hint.
; CHECK-NOT:     asm
; CHECK:         %c12 = getelementptr inbounds nuw i8, ptr addrspace(3) %col, i64 12
; CHECK-NEXT:    [[BO:%.*]] = mul i64 %tx, 4
; CHECK-NEXT:    [[BT:%.*]] = trunc i64 [[BO]] to i32
; CHECK-NEXT:    [[OPQBT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[BT]])
; CHECK-NEXT:    [[BC:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQBT]], i32 1008)
; CHECK-NEXT:    [[BA:%.*]] = and i32 [[BC]], -4
; CHECK-NEXT:    [[BZ:%.*]] = zext i32 [[BA]] to i64
; CHECK-NEXT:    getelementptr i8, ptr addrspace(3) @Bs, i64 [[BZ]]
; CHECK-NOT:     asm
; CHECK:         ret void

; PTX-LABEL: .entry row_dot(
; PTX:         .shared .align 16 .b8 As[1024];
; PTX:         .shared .align 4 .b8 Bs[1024];
; PTX:         min.u32 [[C:%r[0-9]+]], {{%r[0-9]+}}, 1008;
; PTX-NEXT:    // begin inline asm
; PTX-NEXT:    and.b32 [[H:%r[0-9]+]], [[C]], 0xfffffff0;
; PTX-NEXT:    // end inline asm
; PTX-NEXT:    cvt.u64.u32 [[Z:%rd[0-9]+]], [[H]];
; PTX-NEXT:    mov.b64 [[AS:%rd[0-9]+]], As;
; PTX-NEXT:    add.s64 [[R:%rd[0-9]+]], [[AS]], [[Z]];
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]{{\]}};
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]+4{{\]}};
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]+8{{\]}};
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]+12{{\]}};
; PTX-NOT:     0xfffffff0
; PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1008;
; PTX-NOT:     0xfffffff0
; PTX:         ret;
