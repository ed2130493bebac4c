; R9-F1 (found by review): the toolchain's -O2 runs after atoll-strip-facts and
; turns a tenant's branch to `unreachable` into llvm.assume again (the IR below is
; what it makes of `if (n & 1) unreachable;` and `if (n >= 100) unreachable;`). The
; loop counts' ScalarEvolution believed it: @even's loop (i != n, step 2) became a
; copy without checks that an odd n never ends; @below's was charged
; min(n - 1, 98) + 1 while it runs n - 1 times. atoll-mem drops every assumption
; before it reads the module: @even keeps its check (no copy), @below is versioned
; on its real run-time count (the checked original takes n = 2^32 - 1).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.assume(i1)

; CHECK-LABEL: define ptx_kernel void @even(
; CHECK-NOT:     call void @llvm.assume
; CHECK-NOT:     atoll.fast
; CHECK-NOT:     atoll.bounded
; CHECK:       loop.atoll.backedge:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       }
define ptx_kernel void @even(ptr addrspace(1) %out, i32 %n) {
entry:
  %odd = and i32 %n, 1
  %even = icmp eq i32 %odd, 0
  call void @llvm.assume(i1 %even)
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %entry ], [ %acc1, %loop ]
  %x = mul i32 %acc, 1664525
  %acc1 = add i32 %x, %i
  %i1 = add i32 %i, 2
  %d = icmp ne i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  %r = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @below(
; CHECK-NOT:     call void @llvm.assume
; CHECK:         %atoll.tc = freeze i32
; CHECK-NEXT:    %atoll.tc.ok = icmp ult i32 %atoll.tc, 4096
; CHECK-NEXT:    br i1 %atoll.tc.ok, label %loop.ph.atoll.fast, label %loop.ph
; CHECK:       loop.atoll.backedge:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       }
define ptx_kernel void @below(ptr addrspace(1) %out, i32 %n) {
entry:
  %c = icmp ult i32 %n, 100
  call void @llvm.assume(i1 %c)
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %entry ], [ %acc1, %loop ]
  %x = mul i32 %acc, 1664525
  %acc1 = add i32 %x, %i
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  %r = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

; STATS: 2 atoll-mem - llvm.assume calls dropped before hardening
