; atoll-strip-facts on its own: value and pointer promises are removed from
; parameters, returns, call sites, instructions and globals; llvm.assume calls
; go with their operand bundles; an intrinsic declaration gets LLVM's own
; attributes back; what the clamps enforce or what narrows nothing is kept
; (alignment of memory-intrinsic pointers, noalias, readonly, nsw/inbounds flags).
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@g = global i32 0, !absolute_symbol !5

; CHECK: @g = global i32 0{{$}}
; CHECK: define ptx_kernel void @k(ptr noalias readonly %p, i32 %i, ptr %q, float %f, ptr addrspace(1) %d)
define ptx_kernel void @k(ptr noalias readonly nonnull align 16 dereferenceable(64) noundef %p,
                          i32 noundef range(i32 0, 8) %i, ptr dereferenceable_or_null(8) %q,
                          float nofpclass(nan) %f, ptr addrspace(1) %d) {
  ; CHECK-NEXT: %v = load i32, ptr %p, align 4{{$}}
  %v = load i32, ptr %p, align 4, !range !0, !noundef !1
  ; CHECK-NEXT: %r = load ptr, ptr %q, align 8{{$}}
  %r = load ptr, ptr %q, align 8, !nonnull !1, !align !2, !dereferenceable !3, !dereferenceable_or_null !3
  ; CHECK-NEXT: %w = load i32, ptr %r, align 4{{$}}
  %w = load i32, ptr %r, align 4, !noalias.addrspace !4
  ; CHECK-NEXT: %s = add nsw i32 %v, %w
  %s = add nsw i32 %v, %w
  ; CHECK-NEXT: %e = getelementptr inbounds nuw i8, ptr %p, i32 %s
  %e = getelementptr inbounds nuw i8, ptr %p, i32 %s
  ; CHECK-NEXT: %c = icmp ult i32 %s, 8
  %c = icmp ult i32 %s, 8
  ; CHECK-NEXT: %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.assume(i1 %c)
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 64), "nonnull"(ptr %r) ]
  %t = call range(i32 0, 2) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ; CHECK-NEXT: %h = call ptr @helper(ptr %p)
  %h = call nonnull align 8 ptr @helper(ptr nonnull returned %p)
  ; The memcpy keeps its pointers' alignment: the clamp aligns the addresses down to it.
  ; CHECK-NEXT: call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 4 %d, ptr align 4 %e, i64 16, i1 false)
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 4 %d, ptr align 4 %e, i64 16, i1 false)
  store i32 %t, ptr %h, align 4
  ret void
}

; A byval parameter keeps its alignment: it is the parameter's ABI layout.
; CHECK: define ptx_kernel void @b(ptr byval([4 x i32]) align 16 %s)
define ptx_kernel void @b(ptr byval([4 x i32]) align 16 %s) {
  ret void
}

; CHECK: declare ptr @helper(ptr)
declare nonnull align 8 ptr @helper(ptr returned nonnull)
; CHECK: declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare range(i32 0, 2) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.assume(i1)
declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)

!0 = !{i32 0, i32 8}
!1 = !{}
!2 = !{i64 16}
!3 = !{i64 8}
!4 = !{i32 3, i32 4}
!5 = !{i64 0, i64 256}
