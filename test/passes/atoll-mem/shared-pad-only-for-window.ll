; The 256-byte shared pad __atoll_smem_pad (referenced by a volatile store so
; ptxas allocates it) exists only to keep the shared *window* clamp's
; bytes - S from underflowing; it is added only to kernels that use that clamp:
; dynamic shared memory (extern __shared__), or pointers of unknown space (the
; isspacep.shared path). A kernel that touches only static shared objects is
; confined into those objects and gets no pad, but its shared memory is still
; zeroed at entry (the atoll.zero.smem loop, then a CTA barrier).
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/static.ll | FileCheck %s --check-prefix=STATIC
; RUN: %opt-atoll -passes=atoll-mem %t/static.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=STATIC-PTX
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/window.ll | FileCheck %s --check-prefix=WINDOW
; RUN: %opt-atoll -passes=atoll-mem %t/window.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=WINDOW-PTX
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/mixed.ll | FileCheck %s --check-prefix=MIXED

; Static shared object only: no pad anywhere in the module, the object clamp,
; the zeroing loop and the barrier.
; STATIC-NOT:    __atoll_smem_pad
; STATIC-LABEL:  define ptx_kernel void @static_only(
; STATIC-NOT:    __atoll_smem_pad
; STATIC:        atoll.zero.smem:
; STATIC:        store <4 x i32> zeroinitializer, ptr addrspace(3) {{%.*}}, align 16
; STATIC-NOT:    __atoll_smem_pad
; STATIC:        atoll.zero.done:
; STATIC-NEXT:     call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; STATIC-NOT:    __atoll_smem_pad
; STATIC:        call i32 @llvm.umin.i32(i32 {{%.*}}, i32 252)
; STATIC:        getelementptr i8, ptr addrspace(3) @tile,
; STATIC-NOT:    __atoll_smem_pad
; STATIC-PTX-NOT: __atoll_smem_pad
; STATIC-PTX:    st.shared.v4.b32 [{{%rd[0-9]+}}{{.*}}], {0, 0, 0, 0};
; STATIC-PTX:    barrier.sync 0;
; STATIC-PTX-NOT: __atoll_smem_pad

; Dynamic shared memory and a pointer of unknown space: the window clamp, so the
; pad is defined and each kernel references it.
; WINDOW:        @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
; WINDOW-LABEL:  define ptx_kernel void @dynamic(
; WINDOW:          store volatile i8 0, ptr addrspace(3) @__atoll_smem_pad, align 1
; WINDOW:        atoll.zero.smem:
; WINDOW:          %atoll.smem.addr = add i64 %atoll.smem.lo,
; WINDOW-LABEL:  define ptx_kernel void @unknown(
; WINDOW:          store volatile i8 0, ptr addrspace(3) @__atoll_smem_pad, align 1
; WINDOW:        atoll.zero.smem:
; WINDOW:          call i1 @llvm.nvvm.isspacep.shared(
; WINDOW-PTX:    .shared .align 16 .b8 __atoll_smem_pad[256];
; WINDOW-PTX-LABEL: .entry dynamic(
; WINDOW-PTX:    st.volatile.shared.b8 [__atoll_smem_pad], 0;
; WINDOW-PTX:    barrier.sync 0;
; WINDOW-PTX-LABEL: .entry unknown(
; WINDOW-PTX:    st.volatile.shared.b8 [__atoll_smem_pad], 0;
; WINDOW-PTX:    barrier.sync 0;

; Both kinds in one module: the pad is defined, but only the window kernel
; references it; both kernels zero their shared memory.
; MIXED:         @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
; MIXED-LABEL:   define ptx_kernel void @static_only(
; MIXED-NOT:     __atoll_smem_pad
; MIXED:         atoll.zero.smem:
; MIXED-NOT:     __atoll_smem_pad
; MIXED:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; MIXED-NOT:     __atoll_smem_pad
; MIXED-LABEL:   define ptx_kernel void @dynamic(
; MIXED:           store volatile i8 0, ptr addrspace(3) @__atoll_smem_pad, align 1
; MIXED:         atoll.zero.smem:
; MIXED:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)

;--- static.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [64 x float] undef, align 4
define ptx_kernel void @static_only(i64 %i, float %x) {
  %p = getelementptr float, ptr addrspace(3) @tile, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  ret void
}
;--- window.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@dyn = external addrspace(3) global [0 x float], align 16
define ptx_kernel void @dynamic(i64 %i, float %x) {
  %p = getelementptr float, ptr addrspace(3) @dyn, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  ret void
}
define ptx_kernel void @unknown(ptr %t, float %x) {
  %p = load ptr, ptr %t, align 8
  store float %x, ptr %p, align 4
  ret void
}
;--- mixed.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [64 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 16
define ptx_kernel void @static_only(i64 %i, float %x) {
  %p = getelementptr float, ptr addrspace(3) @tile, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  ret void
}
define ptx_kernel void @dynamic(i64 %i, float %x) {
  %p = getelementptr float, ptr addrspace(3) @dyn, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  ret void
}
