; Memory intrinsics whose length is not a constant <= 256 bytes are expanded into IR
; loops over the already confined pointers and the already cut length, so each of
; their loops takes a preemption check like any other cycle (NVPTX codegen would
; otherwise emit a byte loop of up to 4 GiB without one). Constant lengths up to
; 256 bytes stay intrinsics (straight-line stores or a loop of at most 256 steps).
; preempt=off keeps the intrinsics (the output of earlier versions).
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -atoll-preempt-no-charge -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-no-charge %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -atoll-preempt-no-charge %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem = internal addrspace(3) global [1024 x i8] poison, align 4

; The review's kernel: a run-time memset then memmove in global memory. The cut
; length (umin with the arena window) is the loop bound; the stores go through the
; confined address.
; CHECK-LABEL: define ptx_kernel void @global_rt(
; CHECK-NOT:     call void @llvm.mem
; CHECK:         [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:         [[LEN:%atoll.len[0-9]*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 {{%.*}})
; CHECK:       loadstoreloop.atoll.backedge:
; CHECK:       atoll.poll.fresh:
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       loadstoreloop:
; CHECK:         store i8 7, ptr addrspace(1)
; CHECK:         icmp ult i64 {{%.*}}, [[LEN]]
; CHECK:       memmove_bwd_main_loop.atoll.backedge:
; CHECK:       memmove_fwd_main_loop.atoll.backedge:
; CHECK-NOT:     call void @llvm.mem
; CHECK:         ret void
; OFF-LABEL:   define ptx_kernel void @global_rt(
; OFF:           call void @llvm.memset.p1.i64(
; OFF:           call void @llvm.memmove.p1.p1.i64(
; OFF-NOT:       atoll.poll
; PTX-LABEL:   .entry global_rt(
; PTX:           ld.volatile.global.b32
define ptx_kernel void @global_rt(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %n) {
  call void @llvm.memset.p1.i64(ptr addrspace(1) %p, i8 7, i64 %n, i1 false)
  call void @llvm.memmove.p1.p1.i64(ptr addrspace(1) %q, ptr addrspace(1) %p, i64 %n, i1 false)
  ret void
}

; Shared, local and generic pointers, memcpy across spaces, memmove across spaces
; (compared as generic addresses).
; CHECK-LABEL: define ptx_kernel void @spaces_rt(
; CHECK-NOT:     call void @llvm.mem{{set|cpy|move}}.p{{.*}} i64 %
; CHECK:       atoll.poll:
; CHECK:         store i8 0, ptr addrspace(3)
; CHECK:         store i8 0, ptr
; CHECK:         addrspacecast ptr addrspace(1) {{%.*}} to ptr
; CHECK:         addrspacecast ptr addrspace(3) {{%.*}} to ptr
; CHECK-NOT:     call void @llvm.mem{{set|cpy|move}}.p{{.*}} i64 %
; CHECK:         ret void
; OFF-LABEL:   define ptx_kernel void @spaces_rt(
; OFF:           call void @llvm.memset.p3.i64(
; OFF:           call void @llvm.memset.p0.i64(
; OFF:           call void @llvm.memcpy.p0.p1.i64(
; OFF:           call void @llvm.memmove.p1.p3.i64(
define ptx_kernel void @spaces_rt(ptr addrspace(1) %g, ptr %gen, i64 %n, i32 %i) {
  %loc = alloca [64 x i8], align 4
  %s = getelementptr i8, ptr addrspace(3) @smem, i32 %i
  call void @llvm.memset.p3.i64(ptr addrspace(3) %s, i8 0, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %loc, i8 0, i64 %n, i1 false)
  call void @llvm.memcpy.p0.p1.i64(ptr %gen, ptr addrspace(1) %g, i64 %n, i1 false)
  call void @llvm.memmove.p1.p3.i64(ptr addrspace(1) %g, ptr addrspace(3) %s, i64 %n, i1 false)
  %v = load i8, ptr %loc
  store i8 %v, ptr addrspace(1) %g
  ret void
}

; A volatile run-time memset becomes a loop of volatile stores: a waiting loop that
; reads the cancel word on every iteration.
; CHECK-LABEL: define ptx_kernel void @volatile_rt(
; CHECK:       atoll.cancel.eager:
; CHECK:         store volatile i8 1, ptr addrspace(1)
define ptx_kernel void @volatile_rt(ptr addrspace(1) %p, i64 %n) {
  call void @llvm.memset.p1.i64(ptr addrspace(1) %p, i8 1, i64 %n, i1 true)
  ret void
}

; Constant lengths up to 64 bytes (and the .inline forms) stay intrinsics: no
; cycle, so only the entry poll.
; CHECK-LABEL: define ptx_kernel void @small_const(
; CHECK:         call void @llvm.memset.p1.i64(ptr addrspace(1) {{.*}}, i8 0, i64 64, i1 false)
; CHECK:         call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, i64 64, i1 false)
; CHECK:         call void @llvm.memset.inline.p1.i64(ptr addrspace(1) {{.*}}, i8 0, i64 16, i1 false)
; CHECK-NOT:     atoll.poll
; CHECK:         ret void
; OFF-LABEL:   define ptx_kernel void @small_const(
; OFF:           call void @llvm.memset.p1.i64(ptr addrspace(1) {{.*}}, i8 0, i64 64, i1 false)
define ptx_kernel void @small_const(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %p, i8 0, i64 64, i1 false)
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 %q, ptr addrspace(1) align 4 %p, i64 64, i1 false)
  call void @llvm.memset.inline.p1.i64(ptr addrspace(1) align 4 %p, i8 0, i64 16, i1 false)
  ret void
}

; A constant longer than 64 bytes (65, which codegen would turn into a loop) is
; expanded into a checked loop; so is the zero-init of a frame object longer than
; 64 bytes (a bounded loop, marked !atoll.bounded, no check).
; CHECK-LABEL: define ptx_kernel void @long_const(
; CHECK-NOT:     call void @llvm.mem
; CHECK:       atoll.poll:
; CHECK:         ret void
; CHECK-LABEL: define ptx_kernel void @frame_zero(
; CHECK-NOT:     call void @llvm.mem
; CHECK:         store i8 0, ptr
; CHECK:         br i1 {{.*}}, !atoll.bounded
; CHECK-NOT:     call void @llvm.mem
; CHECK:         ret void
define ptx_kernel void @long_const(ptr addrspace(1) %p) {
  call void @llvm.memset.p1.i64(ptr addrspace(1) %p, i8 0, i64 65, i1 false)
  ret void
}
define ptx_kernel void @frame_zero(ptr addrspace(1) %p, i32 %i) {
  %a = alloca [64 x i32], align 4
  %e = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %e
  store i32 %v, ptr addrspace(1) %p
  ret void
}

declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memset.inline.p1.i64(ptr addrspace(1), i8, i64, i1)
declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
declare void @llvm.memmove.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
declare void @llvm.memmove.p1.p3.i64(ptr addrspace(1), ptr addrspace(3), i64, i1)

; The verification after the preemption step refuses a cycle without a check and a
; memory intrinsic left with a run-time length (fault injection: pass bugs).
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-first-preempt-check -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOCHECK
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-mem-expansion -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOEXPAND
; NOCHECK: atoll-mem: refused in 'global_rt': internal: a cycle has no preemption check
; NOEXPAND: atoll-mem: refused in 'global_rt': internal: a memory intrinsic with a run-time or long length was not expanded into a checked loop
