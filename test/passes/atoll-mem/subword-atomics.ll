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
; Review R8-F4: the scoped NVVM atomic intrinsics on i8/i16 (atomicAdd_block, ...)
; are expanded (or lowered) the same way, on the aligned word: the same 4-byte rule,
; on a generic pointer into the dynamic shared window as on a shared one; an i32
; one keeps its own size.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %t/nvvm.ll | FileCheck %s --check-prefix=NVVM
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %t/nvvm.ll | FileCheck %s --check-prefix=NVVM
; RUN: %opt-atoll -passes=atoll-mem %t/nvvm.ll -o - | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/nvvm-small.ll 2>&1 | FileCheck %s --check-prefix=NVVMSMALL

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

; NVVM-LABEL: define ptx_kernel void @k(
; NVVM:         %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; NVVM-NEXT:    %atoll.smem.lim = sub i64 %atoll.smem.bytes, 4
; NVVM-NEXT:    %atoll.smem.lim{{[0-9]+}} = sub i64 %atoll.smem.bytes, 4
; NVVM-NEXT:    %atoll.smem.lim{{[0-9]+}} = sub i64 %atoll.smem.bytes, 4
; NVVM-NOT:     sub i64 %atoll.smem.bytes, 1
; NVVM-NOT:     sub i64 %atoll.smem.bytes, 2
; NVVM:         call i8 @llvm.nvvm.atomic.add.gen.i.cta.i8.p0(
; NVVM:         call i16 @llvm.nvvm.atomic.cas.gen.i.sys.i16.p0(
; NVVM:         call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(
; NVVMSMALL: error: atoll-mem: refused in 'k': access of 4 bytes is larger than its object (2 bytes)

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

;--- nvvm.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@w = external addrspace(3) global [0 x i8], align 16
declare i8 @llvm.nvvm.atomic.add.gen.i.cta.i8.p0(ptr, i8)
declare i16 @llvm.nvvm.atomic.cas.gen.i.sys.i16.p0(ptr, i16, i16)
declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr, i32)
define ptx_kernel void @k(ptr addrspace(1) %p, i64 %off) {
  %g = addrspacecast ptr addrspace(3) @w to ptr
  %q = getelementptr i8, ptr %g, i64 %off
  %r = call i8 @llvm.nvvm.atomic.add.gen.i.cta.i8.p0(ptr %q, i8 1)
  %r2 = call i16 @llvm.nvvm.atomic.cas.gen.i.sys.i16.p0(ptr %q, i16 1, i16 2)
  %r3 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %q, i32 1)
  %v = zext i8 %r to i32
  store i32 %v, ptr addrspace(1) %p
  ret void
}

;--- nvvm-small.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global i16 undef, align 2
declare i16 @llvm.nvvm.atomic.cas.gen.i.sys.i16.p0(ptr, i16, i16)
define ptx_kernel void @k(i16 %x) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %c = call i16 @llvm.nvvm.atomic.cas.gen.i.sys.i16.p0(ptr %g, i16 0, i16 %x)
  ret void
}
