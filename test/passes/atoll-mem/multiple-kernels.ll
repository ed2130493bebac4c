; Several kernels in one module: each gets its own hidden parameters, attribute,
; zero-init and inlined copy of a shared device function (confined with its own
; windows); only the kernel that touches shared memory pays for the window.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [8 x i32] undef, align 4

define internal void @bump(ptr %p, i64 %i) {
  %q = getelementptr i32, ptr %p, i64 %i
  %v = load i32, ptr %q, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %q, align 4
  ret void
}

define ptx_kernel void @on_buffer(ptr %buf, i64 %i) {
  call void @bump(ptr %buf, i64 %i)
  ret void
}

define ptx_kernel void @on_tile(i64 %i) {
  call void @bump(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %i)
  ret void
}

; The tile is a static object: no shared pad (only the window clamp needs it).
; CHECK-NOT:   @__atoll_smem_pad
; CHECK-NOT:   define internal void @bump
; CHECK:       define ptx_kernel void @on_buffer(ptr %buf, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[A:[0-9]+]]
; CHECK-NOT:     smem
; CHECK:         and i32 {{%.*}}, %atoll.arena.mask.a4
; CHECK:         load i32
; CHECK:         and i32 {{%.*}}, %atoll.arena.mask.a4
; CHECK:         store i32
; CHECK:       define ptx_kernel void @on_tile(i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[A]]
; CHECK:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 28)
; CHECK:         load i32
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 28)
; CHECK:         store i32
; CHECK-NOT:   define internal void @bump
; CHECK:       attributes #[[A]] = { "atoll-hardened"="mask-based" }
