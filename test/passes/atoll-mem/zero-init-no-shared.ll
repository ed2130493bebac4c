; A kernel that cannot reach shared memory (only kernel buffers and its stack)
; pays nothing for shared memory: no pad, no window zeroing loop, no barrier; its
; stack objects are still zeroed. In the same module, a kernel that does use
; shared memory gets the loop and the barrier (but, touching only a static
; shared object, not the pad: that is for the shared window clamp).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [4 x i32] undef, align 4

define ptx_kernel void @no_shared(ptr %p, i64 %i) {
  %a = alloca [4 x i32], align 4
  %q = getelementptr i32, ptr %a, i64 %i
  store i32 1, ptr %q, align 4
  %v = load i32, ptr %a, align 4
  store i32 %v, ptr %p, align 4
  ret void
}

define ptx_kernel void @with_shared(ptr %p) {
  %v = load i32, ptr addrspace(3) @s, align 4
  store i32 %v, ptr %p, align 4
  ret void
}

; CHECK-NOT:   @__atoll_smem_pad
; CHECK-LABEL: define ptx_kernel void @no_shared(
; CHECK-NEXT:    %a = alloca [4 x i32], align 4
; CHECK-NEXT:    [[SM1:%.*]] = sub i64 %__atoll_arena_size, 1
; CHECK-NEXT:    %atoll.arena.mask = call i64 @llvm.umin.i64(i64 [[SM1]], i64 4294967295)
; CHECK-NEXT:    %atoll.arena.window = add i64 %atoll.arena.mask, 1
; CHECK-NEXT:    %atoll.arena.base = and i64 %__atoll_arena_base, -2097152
; CHECK-NEXT:    %atoll.arena.mask32 = trunc i64 %atoll.arena.mask to i32
; CHECK-NEXT:    %atoll.arena.mask.a4 = and i32 %atoll.arena.mask32, -4
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 16, i1 false)
; CHECK-NEXT:    br label %atoll.body
; CHECK-NOT:     smem
; CHECK-NOT:     barrier
; CHECK:       }
; CHECK-LABEL: define ptx_kernel void @with_shared(
; CHECK-NOT:     __atoll_smem_pad
; CHECK:       atoll.zero.smem:
; CHECK:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)

; PTX-LABEL: .entry no_shared(
; PTX-NOT:     bar.sync
; PTX-NOT:     {{\.shared|%total_smem_size|%reserved_smem}}
; PTX:         ret;
; PTX-LABEL: .entry with_shared(
; PTX:         barrier.sync 0;
