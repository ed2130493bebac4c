; __constant__ tables (addrspace(4) globals) are known objects: a run-time index
; is confined into the table (in constant space, or through a generic pointer);
; the same in both modes.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tab = addrspace(4) externally_initialized constant [16 x float] zeroinitializer, align 4
@wide = internal addrspace(4) externally_initialized constant [4 x <4 x i32>] zeroinitializer, align 16

define ptx_kernel void @lookup(i64 %i, ptr %out) {
  %p = getelementptr float, ptr addrspace(4) @tab, i64 %i
  %v = load float, ptr addrspace(4) %p, align 4
  %g = addrspacecast ptr addrspace(4) @tab to ptr
  %q = getelementptr float, ptr %g, i64 %i
  %w = load float, ptr %q, align 4
  %r = getelementptr <4 x i32>, ptr addrspace(4) @wide, i64 %i
  %x = load <4 x i32>, ptr addrspace(4) %r, align 16
  %s = fadd float %v, %w
  store float %s, ptr %out, align 4
  store <4 x i32> %x, ptr %out, align 16
  ret void
}

; The offsets come from the GEP indices (also through the addrspacecast), are
; clamped in 32 bits to objsize - S and aligned, then widened for the GEP.
; CHECK-LABEL: define ptx_kernel void @lookup(
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr float, ptr addrspace(4) @tab, i64 %i
; CHECK-NEXT:    [[O0:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[OPQT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT0]], i32 60)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr addrspace(4) @tab, i64 [[Z0]]
; CHECK-NEXT:    %v = load float, ptr addrspace(4) [[P0]], align 4
; CHECK-NEXT:    %g = addrspacecast ptr addrspace(4) @tab to ptr
; CHECK-NEXT:    %q = getelementptr float, ptr %g, i64 %i
; CHECK-NEXT:    [[O1:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 60)
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(4) @tab to ptr), i64 [[Z1]]
; CHECK-NEXT:    %w = load float, ptr [[P1]], align 4
; 16 bytes of the 64-byte @wide: offset <= 48, 16-aligned.
; CHECK-NEXT:    %r = getelementptr <4 x i32>, ptr addrspace(4) @wide, i64 %i
; CHECK-NEXT:    [[O2:%.*]] = mul i64 %i, 16
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 48)
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -16
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr addrspace(4) @wide, i64 [[Z2]]
; CHECK-NEXT:    %x = load <4 x i32>, ptr addrspace(4) [[P2]], align 16

; PTX-LABEL: .entry lookup(
; PTX:         min.u32 [[C0:%r[0-9]+]], {{%r[0-9]+}}, 60;
; PTX-NEXT:    and.b32 [[C0A:%r[0-9]+]], [[C0]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[C0A]];
; PTX-NEXT:    mov.b64 [[TAB:%rd[0-9]+]], tab;
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], [[TAB]], [[Z0]];
; PTX-NEXT:    ld.const.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}};
; PTX:         min.u32 [[C2:%r[0-9]+]], {{%r[0-9]+}}, 48;
; PTX:         ld.const.v4.b32 {{.*}}, [{{%rd[0-9]+}}];
