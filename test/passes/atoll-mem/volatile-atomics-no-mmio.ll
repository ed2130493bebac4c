; R10-F3 (found by review): NVPTX emits a volatile monotonic/unordered atomic load
; or store in the global space as ld.mmio.relaxed.sys.global /
; st.mmio.relaxed.sys.global whenever the PTX ISA is 8.2 or later (LLVM's default
; for sm_100; RuntimeOptions::ptxVersion for sm_90): memory-mapped I/O semantics on
; ordinary device memory. atoll-mem drops 'volatile' from every atomic (load,
; store, atomicrmw, cmpxchg), so no mmio form is emitted; non-atomic volatile
; accesses keep it (ld.volatile, the spin loops' eager polls).
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s --check-prefix=IR
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=IR
; RUN: %opt-atoll -passes=atoll-mem -stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -mattr=+ptx83 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes=atoll-mem %s -o - | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_100 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes=atoll-mem %s -o - | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_100 -mattr=+ptx88 -o - | FileCheck %s --check-prefix=PTX
; Negative control: without the pass, the same IR gives the mmio forms.
; RUN: %llc-sm90 -mattr=+ptx83 %s -o - | FileCheck %s --check-prefix=RAW
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_100 %s -o - | FileCheck %s --check-prefix=RAW

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; IR-LABEL: define ptx_kernel void @mmio(
; IR-NOT: volatile
; IR: load atomic i32, ptr addrspace(1) %{{.*}} monotonic, align 4
; IR-NOT: volatile
; IR: load atomic i64, ptr addrspace(1) %{{.*}} unordered, align 8
; IR-NOT: volatile
; IR: load atomic i32, ptr %{{.*}} syncscope("block") acquire, align 4
; IR-NOT: volatile
; IR: store atomic i32 %{{.*}}, ptr addrspace(1) %{{.*}} monotonic, align 4
; IR-NOT: volatile
; IR: atomicrmw add ptr addrspace(1) %{{.*}}, i32 1 monotonic, align 4
; IR-NOT: volatile
; IR: cmpxchg ptr addrspace(1) %{{.*}}, i32 0, i32 1 seq_cst seq_cst, align 4
; IR-NOT: volatile
; IR: ret void
define ptx_kernel void @mmio(ptr addrspace(1) %p, ptr addrspace(1) %out) {
  %v = load atomic volatile i32, ptr addrspace(1) %p monotonic, align 4
  %q = getelementptr i8, ptr addrspace(1) %p, i64 8
  %w = load atomic volatile i64, ptr addrspace(1) %q unordered, align 8
  %g = addrspacecast ptr addrspace(1) %out to ptr
  %a = load atomic volatile i32, ptr %g syncscope("block") acquire, align 4
  %w32 = trunc i64 %w to i32
  %s = add i32 %v, %w32
  %t = add i32 %s, %a
  store atomic volatile i32 %t, ptr addrspace(1) %out monotonic, align 4
  %r = atomicrmw volatile add ptr addrspace(1) %p, i32 1 monotonic, align 4
  %c = cmpxchg volatile ptr addrspace(1) %p, i32 0, i32 1 seq_cst seq_cst, align 4
  ret void
}

; A non-atomic volatile access keeps 'volatile' (ld.volatile, never mmio), and its
; loop still reads the cancel word on every edge.
; IR-LABEL: define ptx_kernel void @spin(
; IR: load volatile i32, ptr addrspace(1)
; IR: load atomic i32, ptr addrspace(1) %{{.*}} monotonic, align 4
define ptx_kernel void @spin(ptr addrspace(1) %flag, ptr addrspace(1) %word) {
entry:
  br label %loop
loop:
  %f = load volatile i32, ptr addrspace(1) %flag, align 4
  %x = load atomic volatile i32, ptr addrspace(1) %word monotonic, align 4
  %z = or i32 %f, %x
  %done = icmp ne i32 %z, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; STATS: 7 atoll-mem - Atomics that lost 'volatile'

; PTX-NOT: .mmio
; PTX: ld.relaxed.sys.global.b32
; PTX-NOT: .mmio
; PTX: st.relaxed.sys.global.b32
; PTX-NOT: .mmio

; RAW: ld.mmio.relaxed.sys.global.b32
; RAW: st.mmio.relaxed.sys.global.b32
