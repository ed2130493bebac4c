; memcpy/memset through a pointer of unknown space: the length is cut to
; the window of the space the pointer is in at run time (shared window bytes, or
; the arena window min(size, 4 GiB)), then
; the pointer takes the run-time space test.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @copy_out(ptr %table, ptr %src, i64 %n) {
  %dst = load ptr, ptr %table, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr align 1 %dst, i8 0, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @copy_out(
; CHECK:         %dst = load ptr, ptr {{%.*}}, align 8
; A copy through a pointer of unknown space keeps the length of its space's window:
; the shared window when it is shared at run time, else the arena.
; The window test and the confinement read one frozen pointer (R2-F5).
; CHECK-NEXT:    [[LF:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[PF0:%atoll.ptr.fr[0-9]*]] = freeze ptr %dst
; CHECK-NEXT:    [[ISW:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; CHECK-NEXT:    [[W:%atoll.window]] = select i1 [[ISW]], i64 %atoll.smem.bytes, i64 %atoll.arena.window
; CHECK-NEXT:    [[L0:%.*]] = call i64 @llvm.umin.i64(i64 [[LF]], i64 [[W]])
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %atoll.arena.window)
; CHECK-NEXT:    [[IS:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; CHECK-NEXT:    [[S:%.*]] = addrspacecast ptr [[PF0]] to ptr addrspace(3)
; CHECK-NEXT:    [[SR:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
; CHECK-NEXT:    [[SLIM:%.*]] = sub i64 %atoll.smem.bytes, [[L]]
; CHECK-NEXT:    [[SRF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[SR]]
; CHECK-NEXT:    [[SO:%.*]] = sub i64 [[SRF]], %atoll.smem.lo
; CHECK-NEXT:    [[ST:%.*]] = trunc i64 [[SO]] to i32
; CHECK-NEXT:    [[SLT:%.*]] = trunc i64 [[SLIM]] to i32
; CHECK-NEXT:    [[SC:%.*]] = call i32 @llvm.umin.i32(i32 [[ST]], i32 [[SLT]])
; CHECK-NEXT:    [[SA:%.*]] = and i32 [[SC]], -8
; CHECK:         [[GO:%.*]] = and i32 {{%.*}}, %atoll.arena.mask.a8
; CHECK-NEXT:    [[GS:%.*]] = sub i64 %atoll.arena.window, [[L]]
; CHECK-NEXT:    [[GLIM:%.*]] = and i64 [[GS]], -8
; CHECK-NEXT:    [[GLT:%.*]] = trunc i64 [[GLIM]] to i32
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[GO]], i32 [[GLT]])
; CHECK:         [[D:%atoll.generic]] = select i1 [[IS]], ptr {{%.*}}, ptr {{%.*}}
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[D]], ptr align 8 {{%.*}}, i64 [[L]], i1 false)
; A 16-byte constant memset keeps its constant length.
; CHECK:         [[PF1:%atoll.ptr.fr[0-9]*]] = freeze ptr %dst
; CHECK-NEXT:    [[IS2:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF1]])
; CHECK:         [[D2:%.*]] = select i1 [[IS2]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 1 [[D2]], i8 0, i64 16, i1 false)
