; Found by review (F5): NVPTX makes an i8/i16 atomicrmw/cmpxchg a 32-bit atomic on
; the aligned word holding the byte. Confined as a 4-byte access at the byte's own
; address, that word stays inside the window even when the dynamic shared size
; is not a multiple of 4 (limit bytes - 4, not bytes - 1 or - 2); the byte keeps
; its offset in the word (no alignment mask). 32-bit atomics are unchanged.
; RUN: split-file %s %t
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/window.ll | FileCheck %s --check-prefix=WIN
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %t/window.ll | FileCheck %s --check-prefix=WIN
; RUN: %opt-atoll -passes=atoll-mem %t/window.ll -o - | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/small-object.ll 2>&1 | FileCheck %s --check-prefix=SMALL

; WIN-LABEL: define ptx_kernel void @k(
; WIN:         %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; WIN-NEXT:    %atoll.smem.lim = sub i64 %atoll.smem.bytes, 4
; WIN-NEXT:    %atoll.smem.lim{{[0-9]+}} = sub i64 %atoll.smem.bytes, 4
; WIN-NEXT:    %atoll.smem.lim{{[0-9]+}} = sub i64 %atoll.smem.bytes, 4
; WIN-NOT:     sub i64 %atoll.smem.bytes, 1
; WIN-NOT:     sub i64 %atoll.smem.bytes, 2
; WIN:         atomicrmw add ptr addrspace(3) {{%.*}}, i8 1 monotonic, align 1
; WIN:         cmpxchg ptr addrspace(3) {{%.*}}, i16 0, i16 %x monotonic monotonic, align 2
; WIN:         atomicrmw add ptr addrspace(3) {{%.*}}, i32 1 monotonic, align 4
; SMALL: error: atoll-mem: refused in 'k': access of 4 bytes is larger than its object (2 bytes)

;--- window.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@dyn = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k(i64 %i, i16 %x) {
  %p = getelementptr i8, ptr addrspace(3) @dyn, i64 %i
  %a = atomicrmw add ptr addrspace(3) %p, i8 1 monotonic, align 1
  %c = cmpxchg ptr addrspace(3) %p, i16 0, i16 %x monotonic monotonic, align 2
  %w = atomicrmw add ptr addrspace(3) %p, i32 1 monotonic, align 4
  ret void
}

;--- small-object.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global i16 undef, align 2
define ptx_kernel void @k(i16 %x) {
  %c = cmpxchg ptr addrspace(3) @s, i16 0, i16 %x monotonic monotonic, align 2
  ret void
}
