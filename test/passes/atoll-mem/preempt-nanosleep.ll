; R3-F5: every nanosleep (up to ~2 ms each) gets a poll of the cancel word right
; before it, in loops and in loop-free code alike, so a cancelled thread never
; starts a sleep; 2000 straight-line sleeps were seconds per block without a poll.
; The verification refuses a nanosleep without its poll (fault injection).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: not %opt-atoll -passes=atoll-mem -atoll-test-skip-sleep-polls -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOPOLL

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @straight_sleeps(
; CHECK:         %atoll.cancel = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    %atoll.cancelled = icmp ne i32 %atoll.cancel, 0
; CHECK-NEXT:    br i1 %atoll.cancelled, label %atoll.cancel.sleep, label %[[S1:[0-9]+]], !prof
; CHECK:       atoll.cancel.sleep:
; CHECK-NEXT:    br label %atoll.leave
; CHECK:       {{^}}[[S1]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000000)
; CHECK-NEXT:    %atoll.cancel1 = load volatile i32, ptr addrspace(1) %atoll.ctrl, align 4
; CHECK-NEXT:    %atoll.cancelled2 = icmp ne i32 %atoll.cancel1, 0
; CHECK-NEXT:    br i1 %atoll.cancelled2, label %atoll.cancel.sleep3, label %[[S2:[0-9]+]], !prof
; CHECK:       {{^}}[[S2]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000000)
; CHECK-NEXT:    %atoll.cancel4 = load volatile i32
; CHECK:       {{^}}[[S3:[0-9]+]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000000)
; CHECK-NOT:     nanosleep
; CHECK:         store i32 1
; CHECK-NOT:   atoll.fuel.exhausted
; CHECK:       atoll.leave:
; CHECK-NEXT:    ret void
define ptx_kernel void @straight_sleeps(ptr addrspace(1) %out) {
  call void @llvm.nvvm.nanosleep(i32 1000000)
  call void @llvm.nvvm.nanosleep(i32 1000000)
  call void @llvm.nvvm.nanosleep(i32 1000000)
  store i32 1, ptr addrspace(1) %out
  ret void
}

; In a loop: the poll before the sleep and the eager poll on the back edge, on a back
; edge that the loop takes (R10-F4: it had no predecessors), with its counted check.
; CHECK-LABEL: define ptx_kernel void @sleep_loop(
; CHECK:       spin.atoll.backedge: ; preds = %{{[0-9]+}}
; CHECK-NEXT:    load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:       spin:
; CHECK:         load volatile i32, ptr addrspace(1) %atoll.ctrl
; CHECK:         br i1 %{{.*}}, label %atoll.cancel.sleep, label %[[T:.*]], !prof
; CHECK:       [[T]]:
; CHECK-NEXT:    call void @llvm.nvvm.nanosleep(i32 1000)
define ptx_kernel void @sleep_loop(ptr addrspace(1) %flag) {
entry:
  br label %spin
spin:
  call void @llvm.nvvm.nanosleep(i32 1000)
  %v = load volatile i32, ptr addrspace(1) %flag, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %spin, label %done
done:
  ret void
}

; PTX-LABEL: .entry straight_sleeps(
; PTX:         ld.volatile.global.b32
; PTX:         nanosleep.u32 1000000;
; PTX:         ld.volatile.global.b32
; PTX:         nanosleep.u32 1000000;
; The sleep loop counts its fuel: the counter's decrement and the fuel bit.
; PTX-LABEL: .entry sleep_loop(
; PTX:         nanosleep.u32 1000;
; PTX:         add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, -1;
; PTX:         atom.global.or.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}+4], 1;

; NOPOLL: error: atoll-mem: refused in 'straight_sleeps': internal: a nanosleep has no cancel poll right before it

declare void @llvm.nvvm.nanosleep(i32)
