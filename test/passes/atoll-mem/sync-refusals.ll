; Synchronisation primitives that are refused (docs/passes.md, "Synchronisation
; primitives"): a constant barrier id outside 0..15, a barrier thread count that
; is not a constant multiple of 32 in 32..1024 (a run-time count can fault or
; hang: refused, not confined), the mask-less warp primitives, sm_100 redux,
; every cluster primitive, griddepcontrol, setmaxnreg, proxy fences and pmevent.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_id_const.ll 2>&1 | FileCheck %s --check-prefix=BARIDCONST
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_count_runtime.ll 2>&1 | FileCheck %s --check-prefix=BARCOUNTRUNTIME
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_count_33.ll 2>&1 | FileCheck %s --check-prefix=BARCOUNT33
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_count_0.ll 2>&1 | FileCheck %s --check-prefix=BARCOUNT0
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_count_big.ll 2>&1 | FileCheck %s --check-prefix=BARCOUNTBIG
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/legacy_count.ll 2>&1 | FileCheck %s --check-prefix=LEGACYCOUNT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/shfl_nosync.ll 2>&1 | FileCheck %s --check-prefix=SHFLNOSYNC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/vote_nosync.ll 2>&1 | FileCheck %s --check-prefix=VOTENOSYNC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/redux_f.ll 2>&1 | FileCheck %s --check-prefix=REDUXF
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cluster_bar.ll 2>&1 | FileCheck %s --check-prefix=CLUSTERBAR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ctarank.ll 2>&1 | FileCheck %s --check-prefix=CTARANK
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/fence_cluster.ll 2>&1 | FileCheck %s --check-prefix=FENCECLUSTER
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/griddep.ll 2>&1 | FileCheck %s --check-prefix=GRIDDEP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/maxnreg.ll 2>&1 | FileCheck %s --check-prefix=MAXNREG
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/proxy.ll 2>&1 | FileCheck %s --check-prefix=PROXY
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/pmevent.ll 2>&1 | FileCheck %s --check-prefix=PMEVENT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bar_count_valid.ll 2>&1 | FileCheck %s --check-prefix=BARCOUNTVALID
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/cluster_sreg.ll 2>&1 | FileCheck %s --check-prefix=CLUSTERSREG
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/elect.ll 2>&1 | FileCheck %s --check-prefix=ELECT

; A count that is a valid multiple of 32 is refused too: once a counted thread has
; exited (an early return, a cancelled kernel) the barrier never completes.
; BARCOUNTVALID: error: atoll-mem: refused in 'bar_count_valid': a barrier with an explicit thread count is not supported (it never completes once a thread it counts has exited, and waiting threads cannot be cancelled; use a whole-CTA barrier such as __syncthreads): call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 64)
; CLUSTERSREG: error: atoll-mem: refused in 'cluster_sreg': 'llvm.nvvm.read.ptx.sreg.clusterid.x': cluster special register (kernels are launched without a cluster)
; ELECT: error: atoll-mem: refused in 'elect': 'llvm.nvvm.elect.sync': elect.sync is not supported
; BARIDCONST: error: atoll-mem: refused in 'bar_id_const': barrier id 16 is out of range (a CTA has barriers 0..15): call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 16)
; BARCOUNTRUNTIME: error: atoll-mem: refused in 'bar_count_runtime': a barrier with an explicit thread count is not supported (it never completes once a thread it counts has exited, and waiting threads cannot be cancelled; use a whole-CTA barrier such as __syncthreads): call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 0, i32 %v)
; BARCOUNT33: error: atoll-mem: refused in 'bar_count_33': a barrier with an explicit thread count is not supported (it never completes once a thread it counts has exited, and waiting threads cannot be cancelled; use a whole-CTA barrier such as __syncthreads): call void @llvm.nvvm.barrier.cta.sync.count(i32 1, i32 33)
; BARCOUNT0: error: atoll-mem: refused in 'bar_count_0': a barrier with an explicit thread count is not supported (it never completes once a thread it counts has exited, and waiting threads cannot be cancelled; use a whole-CTA barrier such as __syncthreads): call void @llvm.nvvm.barrier.cta.arrive.count(i32 1, i32 0)
; BARCOUNTBIG: error: atoll-mem: refused in 'bar_count_big': 'llvm.nvvm.barrier.cta.red.popc.count': barrier reductions (__syncthreads_count/_and/_or, bar.red) are not supported (mixed with bar.sync on one barrier the result is unpredictable, PTX ISA): %r = call i32 @llvm.nvvm.barrier.cta.red.popc.count(i32 1, i32 1056, i1 true)
; LEGACYCOUNT: error: atoll-mem: refused in 'legacy_count': a barrier with an explicit thread count is not supported (it never completes once a thread it counts has exited, and waiting threads cannot be cancelled; use a whole-CTA barrier such as __syncthreads): call void @llvm.nvvm.barrier.cta.sync.count(i32 %v, i32 %v)
; SHFLNOSYNC: error: atoll-mem: refused in 'shfl_nosync': 'llvm.nvvm.shfl.idx.i32': warp primitive without a member mask (shfl/vote without .sync is not supported on sm_70 and later)
; VOTENOSYNC: error: atoll-mem: refused in 'vote_nosync': 'llvm.nvvm.vote.any': warp primitive without a member mask
; REDUXF: error: atoll-mem: refused in 'redux_f': 'llvm.nvvm.redux.sync.fmax': floating-point redux.sync needs sm_100a (the target is sm_90)
; CLUSTERBAR: error: atoll-mem: refused in 'cluster_bar': 'llvm.nvvm.barrier.cluster.arrive': cluster primitive (kernels are launched without a cluster)
; CTARANK: error: atoll-mem: refused in 'ctarank': 'llvm.nvvm.getctarank': cluster primitive (kernels are launched without a cluster)
; FENCECLUSTER: error: atoll-mem: refused in 'fence_cluster': 'llvm.nvvm.fence.sc.cluster': cluster primitive (kernels are launched without a cluster)
; GRIDDEP: error: atoll-mem: refused in 'griddep': 'llvm.nvvm.griddepcontrol.launch.dependents': griddepcontrol (programmatic dependent launch) is not supported
; MAXNREG: error: atoll-mem: refused in 'maxnreg': 'llvm.nvvm.setmaxnreg.inc.sync.aligned.u32': setmaxnreg is not supported
; PROXY: error: atoll-mem: refused in 'proxy': 'llvm.nvvm.fence.proxy.async.shared_cta': proxy fence (async proxy) is not supported
; PMEVENT: error: atoll-mem: refused in 'pmevent': 'llvm.nvvm.pm.event.mask': performance-monitor event (pmevent) is not supported

;--- bar_id_const.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
define ptx_kernel void @bar_id_const(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 16)
  ret void
}

;--- bar_count_runtime.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
define ptx_kernel void @bar_count_runtime(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 0, i32 %v)
  ret void
}

;--- bar_count_33.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.sync.count(i32, i32)
define ptx_kernel void @bar_count_33(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.cta.sync.count(i32 1, i32 33)
  ret void
}

;--- bar_count_0.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.arrive.count(i32, i32)
define ptx_kernel void @bar_count_0(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.cta.arrive.count(i32 1, i32 0)
  ret void
}

;--- bar_count_big.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.barrier.cta.red.popc.count(i32, i32, i1)
define ptx_kernel void @bar_count_big(ptr %p, i32 %v) {
  %r = call i32 @llvm.nvvm.barrier.cta.red.popc.count(i32 1, i32 1056, i1 true)
  ret void
}

;--- legacy_count.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)
define ptx_kernel void @legacy_count(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.sync.cnt(i32 %v, i32 %v)
  ret void
}

;--- shfl_nosync.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.shfl.idx.i32(i32, i32, i32)
define ptx_kernel void @shfl_nosync(ptr %p, i32 %v) {
  %r = call i32 @llvm.nvvm.shfl.idx.i32(i32 %v, i32 0, i32 31)
  ret void
}

;--- vote_nosync.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i1 @llvm.nvvm.vote.any(i1)
define ptx_kernel void @vote_nosync(ptr %p, i32 %v) {
  %r = call i1 @llvm.nvvm.vote.any(i1 true)
  ret void
}

;--- redux_f.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare float @llvm.nvvm.redux.sync.fmax(float, i32)
define ptx_kernel void @redux_f(ptr %p, i32 %v) {
  %r = call float @llvm.nvvm.redux.sync.fmax(float 1.0, i32 -1)
  ret void
}

;--- cluster_bar.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cluster.arrive()
define ptx_kernel void @cluster_bar(ptr %p, i32 %v) {
  call void @llvm.nvvm.barrier.cluster.arrive()
  ret void
}

;--- ctarank.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.getctarank(ptr)
define ptx_kernel void @ctarank(ptr %p, i32 %v) {
  %r = call i32 @llvm.nvvm.getctarank(ptr %p)
  ret void
}

;--- fence_cluster.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.fence.sc.cluster()
define ptx_kernel void @fence_cluster(ptr %p, i32 %v) {
  call void @llvm.nvvm.fence.sc.cluster()
  ret void
}

;--- griddep.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
define ptx_kernel void @griddep(ptr %p, i32 %v) {
  call void @llvm.nvvm.griddepcontrol.launch.dependents()
  ret void
}

;--- maxnreg.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 immarg)
define ptx_kernel void @maxnreg(ptr %p, i32 %v) {
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 256)
  ret void
}

;--- proxy.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
define ptx_kernel void @proxy(ptr %p, i32 %v) {
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  ret void
}

;--- pmevent.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.pm.event.mask(i16 immarg)
define ptx_kernel void @pmevent(ptr %p, i32 %v) {
  call void @llvm.nvvm.pm.event.mask(i16 1)
  ret void
}

;--- bar_count_valid.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
define ptx_kernel void @bar_count_valid() {
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 64)
  ret void
}

;--- cluster_sreg.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
define ptx_kernel void @cluster_sreg(ptr %p) {
  %c = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  store i32 %c, ptr %p, align 4
  ret void
}

;--- elect.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
define ptx_kernel void @elect(ptr %p) {
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  %v = extractvalue { i32, i1 } %e, 0
  store i32 %v, ptr %p, align 4
  ret void
}
