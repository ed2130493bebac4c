; Stack accesses that cannot be confined are refused; the diagnostic names the
; kernel, the reason and the instruction.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/atomic.ll 2>&1 | FileCheck %s --check-prefix=ATOMIC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cmpxchg.ll 2>&1 | FileCheck %s --check-prefix=CMPXCHG
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/nvvmatomic.ll 2>&1 | FileCheck %s --check-prefix=NVVMATOMIC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/toowide.ll 2>&1 | FileCheck %s --check-prefix=WIDE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/forgedlocal.ll 2>&1 | FileCheck %s --check-prefix=FORGED
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/memcpytoolong.ll 2>&1 | FileCheck %s --check-prefix=MEMCPY
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/vla.ll 2>&1 | FileCheck %s --check-prefix=VLA

; ATOMIC: error: atoll-mem: refused in 'atomic_on_stack': atomic on local memory (undefined in PTX): %o = atomicrmw add ptr %a, i32 1 monotonic, align 4
; CMPXCHG: error: atoll-mem: refused in 'cmpxchg_on_stack': atomic on local memory (undefined in PTX): %r = cmpxchg ptr %a, i64 0, i64 1 monotonic monotonic, align 8
; NVVMATOMIC: error: atoll-mem: refused in 'nvvm_atomic_on_stack': atomic on local memory (undefined in PTX): %r = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %a, i32 1)
; WIDE: error: atoll-mem: refused in 'too_wide': access of 16 bytes is larger than its object (8 bytes): %v = load <4 x i32>, ptr %a, align 4
; FORGED: error: atoll-mem: refused in 'forged_local': pointer into local memory whose object cannot be determined: store i32 0, ptr addrspace(5) %p, align 4
; MEMCPY: error: atoll-mem: refused in 'memcpy_too_long': access of 64 bytes is larger than its object (16 bytes): call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %src, i64 64, i1 false)
; VLA: error: atoll-mem: refused in 'vla': dynamic stack allocation (alloca with a run-time size): %a = alloca i32, i64 %n, align 4

;--- atomic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @atomic_on_stack() {
  %a = alloca i32, align 4
  %o = atomicrmw add ptr %a, i32 1 monotonic, align 4
  ret void
}

;--- cmpxchg.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @cmpxchg_on_stack() {
  %a = alloca i64, align 8
  %r = cmpxchg ptr %a, i64 0, i64 1 monotonic monotonic, align 8
  ret void
}

;--- nvvmatomic.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @nvvm_atomic_on_stack() {
  %a = alloca i32, align 4
  %r = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %a, i32 1)
  ret void
}

;--- toowide.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @too_wide(ptr %out) {
  %a = alloca [2 x i32], align 4
  %v = load <4 x i32>, ptr %a, align 4
  store <4 x i32> %v, ptr %out, align 16
  ret void
}

;--- forgedlocal.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @forged_local(i64 %addr) {
  %p = inttoptr i64 %addr to ptr addrspace(5)
  store i32 0, ptr addrspace(5) %p, align 4
  ret void
}

;--- memcpytoolong.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @memcpy_too_long(ptr %src) {
  %a = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %src, i64 64, i1 false)
  ret void
}

;--- vla.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @vla(i64 %n) {
  %a = alloca i32, i64 %n, align 4
  store i32 0, ptr %a, align 4
  ret void
}
