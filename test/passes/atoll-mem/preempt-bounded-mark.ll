; The loops atoll-mem adds after the preemption step (the cooperative zero-init of
; the shared window, which must run to the end) are the only cycles without a
; check; their branches carry !atoll.bounded, which the toolchain's check after
; code generation accepts. A tenant cannot set the mark: input carrying it is
; refused. Tenant cycles never carry it.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-atoll -atoll-preempt-no-charge -passes=atoll-mem -S %t/zero.ll | FileCheck %s
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forged.ll 2>&1 | FileCheck %s --check-prefix=FORGED
; RUN: %atoll-harden %t/zero.ll --emit=ptx -o - | FileCheck %s --check-prefix=PTX
; The marks the check of the first-poll flag reads (R9-R2-F2) are reserved too.
; RUN: sed 's/!atoll.bounded/!atoll.entry.check/' %t/forged.ll > %t/forged-entry.ll
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forged-entry.ll 2>&1 | FileCheck %s --check-prefix=FORGED-ENTRY
; RUN: sed 's/!atoll.bounded/!atoll.first.poll/' %t/forged.ll > %t/forged-first.ll
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forged-first.ll 2>&1 | FileCheck %s --check-prefix=FORGED-FIRST

; CHECK-LABEL: define ptx_kernel void @zero(
; CHECK:       atoll.zero.smem:
; CHECK:         br i1 {{%.*}}, label %atoll.zero.smem, label %atoll.zero.tail, !atoll.bounded
; CHECK:       atoll.zero.tail.store:
; CHECK:         br {{.*}}, !atoll.bounded
; CHECK:       loop.atoll.backedge:
; CHECK-NOT:     !atoll.bounded
; CHECK:       atoll.poll:
; CHECK:       loop:
; CHECK-NOT:     !atoll.bounded
; CHECK:         ret void
; PTX: .entry zero(

; FORGED: atoll-mem: refused in 'forged': metadata !atoll.bounded is reserved for the passes
; FORGED-ENTRY: atoll-mem: refused in 'forged': metadata !atoll.entry.check is reserved for the passes
; FORGED-FIRST: atoll-mem: refused in 'forged': metadata !atoll.first.poll is reserved for the passes

;--- zero.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@dyn = external addrspace(3) global [0 x i32], align 4
define ptx_kernel void @zero(ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr i32, ptr addrspace(3) @dyn, i32 %i
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr %out
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

;--- forged.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @forged(ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr %out
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit, !atoll.bounded !0
exit:
  ret void
}
!0 = !{}
