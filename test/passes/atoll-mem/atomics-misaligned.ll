; Review R8-F5: atomics that NVPTX can only lower to a call of a library function
; (AtomicExpand's __atomic_* libcalls) failed code generation with just "PTX code
; generation failed for sm_90". atoll-mem refuses them, naming the instruction and
; the reason: an atomic aligned below its size (the GPU has no misaligned atomic;
; sub-word ones too: an i16 at offset 3 would straddle two words), and an atomic
; load or store wider than 64 bits. The same forms aligned to their size (and an
; i8 atomic, whose size is its alignment) are accepted and compile.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/rmw_add_a1.ll 2>&1 | FileCheck %s --check-prefix=RMW_ADD_A1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cmpxchg_a1.ll 2>&1 | FileCheck %s --check-prefix=CMPXCHG_A1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/shared_fadd_a1.ll 2>&1 | FileCheck %s --check-prefix=SHARED_FADD_A1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/nand_a2.ll 2>&1 | FileCheck %s --check-prefix=NAND_A2
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/fadd_f64_a4.ll 2>&1 | FileCheck %s --check-prefix=FADD_F64_A4
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/fadd_v2f32_a4.ll 2>&1 | FileCheck %s --check-prefix=FADD_V2F32_A4
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cmpxchg_i16_a1.ll 2>&1 | FileCheck %s --check-prefix=CMPXCHG_I16_A1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/generic_fsub_a1.ll 2>&1 | FileCheck %s --check-prefix=GENERIC_FSUB_A1
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/load_atomic_a2.ll 2>&1 | FileCheck %s --check-prefix=LOAD_ATOMIC_A2
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/load_atomic_i128.ll 2>&1 | FileCheck %s --check-prefix=LOAD_ATOMIC_I128
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/store_atomic_i128.ll 2>&1 | FileCheck %s --check-prefix=STORE_ATOMIC_I128
; RUN: %opt-atoll -passes=atoll-mem %t/byte_a1.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=BYTE
; RUN: %opt-atoll -passes=atoll-mem %t/aligned.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=OK
;
; RMW_ADD_A1: error: atoll-mem: refused in 'rmw_add_a1': an atomic of 4 bytes aligned to 1 (below its size) has no native form: the GPU has no misaligned atomic (align it to its size): %r = atomicrmw add ptr addrspace(1) %q, i32 1 monotonic, align 1
; CMPXCHG_A1: error: atoll-mem: refused in 'cmpxchg_a1': an atomic of 4 bytes aligned to 1 (below its size) has no native form: the GPU has no misaligned atomic (align it to its size): %r = cmpxchg ptr addrspace(1) %q, i32 1, i32 2 monotonic monotonic, align 1
; SHARED_FADD_A1: error: atoll-mem: refused in 'shared_fadd_a1': an atomic of 4 bytes aligned to 1 (below its size) has no native form
; NAND_A2: error: atoll-mem: refused in 'nand_a2': an atomic of 4 bytes aligned to 2 (below its size) has no native form
; FADD_F64_A4: error: atoll-mem: refused in 'fadd_f64_a4': an atomic of 8 bytes aligned to 4 (below its size) has no native form
; FADD_V2F32_A4: error: atoll-mem: refused in 'fadd_v2f32_a4': an atomic of 8 bytes aligned to 4 (below its size) has no native form
; CMPXCHG_I16_A1: error: atoll-mem: refused in 'cmpxchg_i16_a1': an atomic of 2 bytes aligned to 1 (below its size) has no native form
; GENERIC_FSUB_A1: error: atoll-mem: refused in 'generic_fsub_a1': an atomic of 4 bytes aligned to 1 (below its size) has no native form
; LOAD_ATOMIC_A2: error: atoll-mem: refused in 'load_atomic_a2': an atomic load of 4 bytes aligned to 2 (below its size) has no native form: the GPU has no misaligned atomic (align it to its size): %r = load atomic i32, ptr addrspace(1) %q monotonic, align 2
; LOAD_ATOMIC_I128: error: atoll-mem: refused in 'load_atomic_i128': an atomic load of a 128-bit value has no native form (supported: 8 to 64 bits): %r = load atomic i128, ptr addrspace(1) %q monotonic, align 16
; STORE_ATOMIC_I128: error: atoll-mem: refused in 'store_atomic_i128': an atomic store of a 128-bit value has no native form (supported: 8 to 64 bits): store atomic i128 0, ptr addrspace(1) %q monotonic, align 16
; BYTE: .entry byte_a1(
; OK-DAG: .entry rmw_add_a1(
; OK-DAG: .entry cmpxchg_a1(
; OK-DAG: .entry shared_fadd_a1(
; OK-DAG: .entry nand_a2(
; OK-DAG: .entry fadd_f64_a4(
; OK-DAG: .entry fadd_v2f32_a4(
; OK-DAG: .entry cmpxchg_i16_a1(
; OK-DAG: .entry generic_fsub_a1(
; OK-DAG: .entry load_atomic_a2(
; OK-DAG: .entry load_atomic_i64(
; OK-DAG: .entry store_atomic_i64(

;--- rmw_add_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @rmw_add_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw add ptr addrspace(1) %q, i32 1 monotonic, align 1
  ret void
}

;--- cmpxchg_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @cmpxchg_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = cmpxchg ptr addrspace(1) %q, i32 1, i32 2 monotonic monotonic, align 1
  ret void
}

;--- shared_fadd_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [256 x i8] undef, align 4
define ptx_kernel void @shared_fadd_a1(i64 %off) {
  %q = getelementptr i8, ptr addrspace(3) @s, i64 %off
  %r = atomicrmw fadd ptr addrspace(3) %q, float 1.0 monotonic, align 1
  ret void
}

;--- nand_a2.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @nand_a2(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw nand ptr addrspace(1) %q, i32 1 monotonic, align 2
  ret void
}

;--- fadd_f64_a4.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @fadd_f64_a4(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw fadd ptr addrspace(1) %q, double 1.0 monotonic, align 4
  ret void
}

;--- fadd_v2f32_a4.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @fadd_v2f32_a4(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw fadd ptr addrspace(1) %q, <2 x float> <float 1.0, float 1.0> monotonic, align 4
  ret void
}

;--- cmpxchg_i16_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @cmpxchg_i16_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = cmpxchg ptr addrspace(1) %q, i16 1, i16 2 monotonic monotonic, align 1
  ret void
}

;--- generic_fsub_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @generic_fsub_a1(ptr %p, i64 %off) {
  %q = getelementptr i8, ptr %p, i64 %off
  %r = atomicrmw fsub ptr %q, float 1.0 monotonic, align 1
  ret void
}

;--- load_atomic_a2.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @load_atomic_a2(ptr addrspace(1) %p, ptr addrspace(1) %o, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = load atomic i32, ptr addrspace(1) %q monotonic, align 2
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}

;--- load_atomic_i128.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @load_atomic_i128(ptr addrspace(1) %p, ptr addrspace(1) %o, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = load atomic i128, ptr addrspace(1) %q monotonic, align 16
  store i128 %r, ptr addrspace(1) %o, align 16
  ret void
}

;--- store_atomic_i128.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @store_atomic_i128(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  store atomic i128 0, ptr addrspace(1) %q monotonic, align 16
  ret void
}

;--- byte_a1.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @byte_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw xchg ptr addrspace(1) %q, i8 1 monotonic, align 1
  ret void
}

;--- aligned.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @rmw_add_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw add ptr addrspace(1) %q, i32 1 monotonic, align 4
  ret void
}
define ptx_kernel void @cmpxchg_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = cmpxchg ptr addrspace(1) %q, i32 1, i32 2 monotonic monotonic, align 4
  ret void
}
@s = internal addrspace(3) global [256 x i8] undef, align 4
define ptx_kernel void @shared_fadd_a1(i64 %off) {
  %q = getelementptr i8, ptr addrspace(3) @s, i64 %off
  %r = atomicrmw fadd ptr addrspace(3) %q, float 1.0 monotonic, align 4
  ret void
}
define ptx_kernel void @nand_a2(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw nand ptr addrspace(1) %q, i32 1 monotonic, align 4
  ret void
}
define ptx_kernel void @fadd_f64_a4(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw fadd ptr addrspace(1) %q, double 1.0 monotonic, align 8
  ret void
}
define ptx_kernel void @fadd_v2f32_a4(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = atomicrmw fadd ptr addrspace(1) %q, <2 x float> <float 1.0, float 1.0> monotonic, align 8
  ret void
}
define ptx_kernel void @cmpxchg_i16_a1(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = cmpxchg ptr addrspace(1) %q, i16 1, i16 2 monotonic monotonic, align 2
  ret void
}
define ptx_kernel void @generic_fsub_a1(ptr %p, i64 %off) {
  %q = getelementptr i8, ptr %p, i64 %off
  %r = atomicrmw fsub ptr %q, float 1.0 monotonic, align 4
  ret void
}
define ptx_kernel void @load_atomic_a2(ptr addrspace(1) %p, ptr addrspace(1) %o, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = load atomic i32, ptr addrspace(1) %q monotonic, align 4
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
define ptx_kernel void @load_atomic_i64(ptr addrspace(1) %p, ptr addrspace(1) %o, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %r = load atomic i64, ptr addrspace(1) %q monotonic, align 8
  store i64 %r, ptr addrspace(1) %o, align 8
  ret void
}
define ptx_kernel void @store_atomic_i64(ptr addrspace(1) %p, i64 %off) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  store atomic i64 0, ptr addrspace(1) %q monotonic, align 8
  ret void
}
