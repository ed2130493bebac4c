; Time, not only iterations, between polls (fifth review):
; - R5-F1: a loop is charged only for as many iterations as fit 2^20 units of work
;   (StraightLine.h: a memory access 64, other instructions 1); 4000 iterations of 16
;   same-address atomics (the review's atomic_charged.ll) keep the per-edge check,
;   4000 iterations of one atomic are still charged;
; - R5-F2: a kernel whose zero-init clears a frame longer than the straight-line budget
;   (256 bytes of byte stores) polls at entry, before the zero-init; a small frame
;   does not (an entry poll cost up to 3.4x on streaming kernels);
; - R5-F7: willreturn (which -O2 infers again after atoll-strip-facts) is dropped
;   before any loop is counted: i != n with step 2 stays checked.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-entry-poll -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED
; The reviewer's big_local.ll (at 8 KiB, under the frame cap) through the whole toolchain: the poll is in the PTX.
; RUN: %atoll-harden %S/Inputs/big-local-8k.ll --emit=ptx -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @atomic_charged(
; CHECK-NOT:     sub i32 %{{.*}}, 4000
; CHECK:       loop.atoll.backedge:
; CHECK:       loop:
; CHECK-NOT:     !atoll.bounded
; CHECK:       }
define ptx_kernel void @atomic_charged(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a1 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a2 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a3 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a4 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a5 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a6 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a7 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a8 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a9 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a10 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a11 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a12 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a13 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a14 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %a15 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 4000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @atomic_small_body(
; CHECK:         %atoll.poll.next = sub i32 %{{.*}}, 4000
; CHECK-NOT:   atoll.backedge
; CHECK:         br i1 %c, label %loop, label %exit, !atoll.bounded
; CHECK:       }
define ptx_kernel void @atomic_small_body(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 4000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; 4 KiB of frame: a poll ends the entry block, before the zero-init.
; CHECK-LABEL: define ptx_kernel void @big_frame(
; CHECK:         %atoll.cancel = load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       atoll.cancel.entry:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:       loadstoreloop:
; CHECK:         store i8 0, ptr
; REFUSED: internal: the kernel has no cancel poll at entry
define ptx_kernel void @big_frame(ptr addrspace(1) %out, i32 %i) {
  %buf = alloca [1024 x i32], align 4
  %pi = getelementptr [1024 x i32], ptr %buf, i32 0, i32 %i
  %v = load i32, ptr %pi, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; 64 bytes of frame: no entry poll.
; CHECK-LABEL: define ptx_kernel void @small_frame(
; CHECK-NOT:     load volatile
; CHECK-NOT:     atoll.cancel.entry
; CHECK:       }
define ptx_kernel void @small_frame(ptr addrspace(1) %out, i32 %i) {
  %buf = alloca [16 x i32], align 4
  %pi = getelementptr [16 x i32], ptr %buf, i32 0, i32 %i
  %v = load i32, ptr %pi, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @willreturn_step2(
; CHECK-NOT:     atoll.tc.ok
; CHECK-NOT:     atoll.fast
; CHECK:       loop.atoll.backedge:
; CHECK:       }
define ptx_kernel void @willreturn_step2(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = and i32 %i, 255
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 2
  %c = icmp ne i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
; The kernel keeps no willreturn.
; CHECK: attributes #{{[0-9]+}} = { "atoll-hardened"="mask-based" }
; CHECK-NOT: willreturn }

attributes #0 = { willreturn }

; PTX-LABEL: .entry big_local(
; PTX:         ld.volatile.global.b32
; PTX:         st.local.b8
