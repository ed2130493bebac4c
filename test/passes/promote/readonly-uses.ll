; Uses that neither write nor leak the address: intrinsics that only read or only
; inspect the pointer (prefetch, isspacep, objectsize, an assume "align" bundle), a
; call that only reads memory and captures nothing, pointer comparisons, ptrmask,
; phi and select of generic pointers. The global is promoted.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@g = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
@h = internal addrspace(1) constant [4 x i32] [i32 5, i32 6, i32 7, i32 8], align 16

; CHECK: @g = internal addrspace(4) constant [4 x i32]
; CHECK: @h = internal addrspace(4) constant [4 x i32]

declare i32 @lookup(ptr captures(none), i64) memory(read)

define ptx_kernel void @k(ptr %out, i64 %i, i1 %c) {
entry:
  call void @llvm.prefetch.p0(ptr @g, i32 0, i32 3, i32 1)
  %sp = call i1 @llvm.nvvm.isspacep.const(ptr @g)
  %sz = call i64 @llvm.objectsize.i64.p0(ptr @g, i1 false, i1 false, i1 false)
  call void @llvm.assume(i1 true) [ "align"(ptr @g, i64 16) ]
  %l = call i32 @lookup(ptr @g, i64 %i)
  %eq = icmp eq ptr @g, %out
  %m = call ptr @llvm.ptrmask.p0.i64(ptr @g, i64 -16)
  %vm = load i32, ptr %m, align 16
  %hg = addrspacecast ptr addrspace(1) @h to ptr
  %gi = getelementptr i32, ptr @g, i64 %i
  %s = select i1 %c, ptr %gi, ptr %hg
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi ptr [ %s, %entry ], [ @g, %a ]
  %v = load i32, ptr %p, align 4
  %sum0 = add i32 %v, %l
  %sum = add i32 %sum0, %vm
  store i32 %sum, ptr %out, align 4
  %o1 = getelementptr i8, ptr %out, i64 8
  store i1 %sp, ptr %o1, align 1
  %o2 = getelementptr i8, ptr %out, i64 9
  store i1 %eq, ptr %o2, align 1
  %o3 = getelementptr i8, ptr %out, i64 16
  store i64 %sz, ptr %o3, align 8
  ret void
}

; CHECK: call i1 @llvm.nvvm.isspacep.const(ptr addrspacecast (ptr addrspace(4) @g to ptr))
; CHECK: call i32 @lookup(ptr addrspacecast (ptr addrspace(4) @g to ptr), i64 %i)
; CHECK: %hg = addrspacecast ptr addrspace(4) @h to ptr
; CHECK: %p = phi ptr [ %s, %entry ], [ addrspacecast (ptr addrspace(4) @g to ptr), %a ]
