; Synchronisation scopes of atomics and fences (session 9). NVPTX knows the system
; scope, "device", "block", "cluster" and "singlethread"; atoll-mem accepts the
; first three. The cluster scope reached the PTX and was refused only by the PTX
; validator, naming a PTX line (kernels are never launched in clusters);
; "singlethread" atomics failed code generation; any other name made the NVPTX
; backend end the process (LLVM's fatal usage error: atoll-harden exited with
; status 1 and no message, a compile worker died without an answer). Each is now
; refused by atoll-mem, naming the instruction.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cluster_cas.ll 2>&1 | FileCheck %s --check-prefix=CLUSTERCAS
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cluster_fence.ll 2>&1 | FileCheck %s --check-prefix=CLUSTERFENCE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/singlethread.ll 2>&1 | FileCheck %s --check-prefix=SINGLE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/unknown.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/unknown.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %atoll-harden %t/unknown.ll --emit=ptx -o %t/unknown.ptx 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %atoll-harden %t/cluster_cas.ll --emit=ptx -o %t/cluster.ptx 2>&1 | FileCheck %s --check-prefix=CLUSTERCAS --implicit-check-not="PTX line"
; RUN: %atoll-harden %t/accepted.ll --emit=ptx -o - | FileCheck %s --check-prefix=OK
;
; CLUSTERCAS: error: atoll-mem: refused in 'cluster_cas': synchronisation scope syncscope("cluster") is not supported (kernels are never launched in clusters): %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("cluster") acq_rel acquire, align 4
; CLUSTERFENCE: error: atoll-mem: refused in 'cluster_fence': synchronisation scope syncscope("cluster") is not supported (kernels are never launched in clusters): fence syncscope("cluster") seq_cst
; SINGLE: error: atoll-mem: refused in 'singlethread': synchronisation scope syncscope("singlethread") is not supported (supported: the system scope, "device" and "block"): %l = load atomic i32, ptr addrspace(1) %g syncscope("singlethread") monotonic, align 4
; UNKNOWN: error: atoll-mem: refused in 'unknown': synchronisation scope syncscope("foo") is not supported (supported: the system scope, "device" and "block"): %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("foo") monotonic monotonic, align 4
; OK-LABEL: .entry accepted(
; OK: atom.acq_rel.cta.global.cas.b32
; OK: fence.sc.gpu;
; OK: ld.acquire.sys.global.b32

;--- cluster_cas.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @cluster_cas(ptr addrspace(1) %g) {
  %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("cluster") acq_rel acquire, align 4
  ret void
}

;--- cluster_fence.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @cluster_fence(ptr addrspace(1) %g) {
  fence syncscope("cluster") seq_cst
  store i32 1, ptr addrspace(1) %g, align 4
  ret void
}

;--- singlethread.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @singlethread(ptr addrspace(1) %g) {
  %l = load atomic i32, ptr addrspace(1) %g syncscope("singlethread") monotonic, align 4
  store i32 %l, ptr addrspace(1) %g, align 4
  ret void
}

;--- unknown.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @unknown(ptr addrspace(1) %g) {
  %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("foo") monotonic monotonic, align 4
  ret void
}

;--- accepted.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @accepted(ptr addrspace(1) %g) {
  %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("block") acq_rel acquire, align 4
  fence syncscope("device") seq_cst
  %l = load atomic i32, ptr addrspace(1) %g acquire, align 4
  %p = getelementptr i32, ptr addrspace(1) %g, i64 1
  store i32 %l, ptr addrspace(1) %p, align 4
  ret void
}
