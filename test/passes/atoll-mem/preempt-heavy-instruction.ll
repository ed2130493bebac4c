; One instruction of at least the straight-line budget (a store of <1024 x i32>: 4 KiB,
; 256 16-byte pieces, 16384 units): right after a poll it fits the default budget (the
; poll's compare and branch are part of the poll, not work); under a smaller budget no
; poll can help, and the kernel is refused at once. Before, the pass asked for a poll
; before it again and again until it ran out of memory (the residue_vector_lane attack
; of the suite, 24 GB in the compile worker).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-straight-budget=16000 -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED
; RUN: not %opt-atoll -passes=atoll-mem -atoll-preempt-straight-budget=16383 -disable-output %s 2>&1 | FileCheck %s --check-prefix=REFUSED2

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The pass's own lane slot for a variable-index extract of a vector with undefined
; lanes (review F2 of the first review) is such a store.
; CHECK-LABEL: define ptx_kernel void @wide_store(
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl.straight
; CHECK:       atoll.cancel.straight:
; CHECK:         store <1024 x i32> %v, ptr %atoll.lane.slot, align 4096
; REFUSED: internal: a path without loops runs more than 16000 units of work without a cancel poll: store <1024 x i32>
; REFUSED2: internal: a path without loops runs more than 16383 units of work without a cancel poll: store <1024 x i32>
define ptx_kernel void @wide_store(ptr addrspace(1) %out, i32 %a, i32 %i) {
entry:
  %slot = alloca i32, align 4
  %v = insertelement <1024 x i32> poison, i32 %a, i32 0
  %x = load volatile i32, ptr addrspace(1) %out
  store volatile i32 %i, ptr %slot, align 4
  %iv = load volatile i32, ptr %slot, align 4
  %e = extractelement <1024 x i32> %v, i32 %iv
  store i32 %e, ptr addrspace(1) %out
  ret void
}
