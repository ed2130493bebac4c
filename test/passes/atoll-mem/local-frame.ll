; A local pointer whose object is ambiguous (a select or phi of two stack
; arrays) is contained, not refused: the allocas it may reach are merged into
; one frame object (an i8 array, each former alloca a constant offset into it),
; and the pointer is clamped into the frame like any pointer into a known
; object. The frame is zeroed at entry like every alloca. A pointer that may
; also come from a forged local address has no frame and stays refused, and so
; does one whose frame would exceed the 512 KiB of local memory a thread has.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -passes=atoll-mem -S %t/select.ll | FileCheck %s --check-prefix=SEL
; RUN: %opt-atoll -passes=atoll-mem %t/select.ll -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes=atoll-mem -S %t/loop.ll | FileCheck %s --check-prefix=LOOP
; RUN: %opt-atoll -passes=atoll-mem %t/loop.ll -o - | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forged.ll 2>&1 | FileCheck %s --check-prefix=FORGED
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/toolarge.ll 2>&1 | FileCheck %s --check-prefix=TOOLARGE

; SEL-LABEL: define ptx_kernel void @two_arrays(
; SEL-NEXT:    %atoll.frame = alloca [48 x i8], align 8
; The untouched third alloca keeps its own object.
; SEL-NEXT:    %other = alloca i64, align 8
; SEL-NOT:     alloca
; SEL:         call void @llvm.memset.p0.i64(ptr align 8 %atoll.frame, i8 0, i64 48, i1 false)
; SEL:       atoll.body:
; SEL-NEXT:    %a = getelementptr inbounds i8, ptr %atoll.frame, i64 0
; SEL-NEXT:    %b = getelementptr inbounds i8, ptr %atoll.frame, i64 16
; SEL-NEXT:    %p = select i1 %c, ptr %a, ptr %b
; SEL-NEXT:    %q = getelementptr i32, ptr %p, i64 %i
; The store is clamped into the frame: offset <= 48 - 4, aligned to 4.
; SEL:         [[F:%.*]] = ptrtoint ptr %atoll.frame to i64
; SEL-NEXT:    [[Q:%.*]] = ptrtoint ptr %q to i64
; SEL-NEXT:    [[O:%.*]] = sub i64 [[Q]], [[F]]
; SEL-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
; SEL-NEXT:    [[OP:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; SEL-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OP]], i32 44)
; SEL-NEXT:    [[A:%.*]] = and i32 [[C]], -4
; SEL-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
; SEL-NEXT:    [[P:%.*]] = getelementptr i8, ptr %atoll.frame, i64 [[Z]]
; SEL-NEXT:    store i32 %v, ptr [[P]], align 4
; SEL:         store volatile i64 1, ptr %other, align 8

;--- select.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @two_arrays(i1 %c, i64 %i, i32 %v, ptr %out) {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i64], align 8
  %other = alloca i64, align 8
  call void @llvm.lifetime.start.p0(ptr %a)
  %p = select i1 %c, ptr %a, ptr %b
  %q = getelementptr i32, ptr %p, i64 %i
  store i32 %v, ptr %q, align 4
  %w = load i32, ptr %a, align 4
  store volatile i64 1, ptr %other, align 8
  store i32 %w, ptr %out, align 4
  call void @llvm.lifetime.end.p0(ptr %a)
  ret void
}
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

; A pointer walking a phi across two arrays, in a loop.
; LOOP-LABEL: define ptx_kernel void @walk(
; LOOP:         %atoll.frame = alloca [96 x i8], align 4
; LOOP:         %p = phi ptr [ %a, %{{.*}} ], [ %next, %{{.*}} ]
; LOOP:         getelementptr i8, ptr %atoll.frame, i64
; LOOP-NEXT:    store i32 %n, ptr

;--- loop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @walk(i32 %n, ptr %out) {
entry:
  %a = alloca [8 x i32], align 4
  %b = alloca [16 x i32], align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = phi ptr [ %a, %entry ], [ %next, %loop ]
  store i32 %n, ptr %p, align 4
  %odd = trunc i32 %i to i1
  %pa = getelementptr i32, ptr %p, i64 3
  %pb = getelementptr i32, ptr %b, i32 %i
  %next = select i1 %odd, ptr %pa, ptr %pb
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  %v = load i32, ptr %b, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

; FORGED: error: atoll-mem: refused in 'forged_or_stack': pointer into local memory whose object cannot be determined: store i32 1, ptr addrspace(5) %p, align 4

;--- forged.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @forged_or_stack(i1 %c, i64 %x) {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  %s = addrspacecast ptr %a to ptr addrspace(5)
  %f = inttoptr i64 %x to ptr addrspace(5)
  %t = addrspacecast ptr %b to ptr addrspace(5)
  %u = select i1 %c, ptr addrspace(5) %s, ptr addrspace(5) %t
  %p = select i1 %c, ptr addrspace(5) %u, ptr addrspace(5) %f
  store i32 1, ptr addrspace(5) %p, align 4
  ret void
}

; Since R5-F4 the frame limit (16 KiB by default, 512 KiB at most) refuses such a
; kernel first; the merge's own 512 KiB check stays behind it.
; TOOLARGE: error: atoll-mem: refused in 'too_large': the kernel's stack frame is {{[0-9]+}} bytes per thread (at most 16384:

;--- toolarge.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @too_large(i1 %c) {
  %a = alloca [300000 x i8], align 4
  %b = alloca [300000 x i8], align 4
  %p = select i1 %c, ptr %a, ptr %b
  store i32 1, ptr %p, align 4
  ret void
}
