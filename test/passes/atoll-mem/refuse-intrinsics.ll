; Intrinsics the pass cannot confine are refused: traps (a trap faults the shared
; context), texture and surface handles, bulk/TMA copies, mbarriers, wmma,
; distributed shared memory, gather/scatter, other memory intrinsics, intrinsics
; LLVM does not know (a made-up "llvm.nvvm.atomic.*" must not pass as an atomic),
; and va_arg. Each diagnostic names the kernel, the reason and the instruction.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/trap.ll 2>&1 | FileCheck %s --check-prefix=TRAP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/debugtrap.ll 2>&1 | FileCheck %s --check-prefix=DEBUGTRAP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ubsantrap.ll 2>&1 | FileCheck %s --check-prefix=UBSAN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/tex.ll 2>&1 | FileCheck %s --check-prefix=TEX
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/suld.ll 2>&1 | FileCheck %s --check-prefix=SULD
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/txq.ll 2>&1 | FileCheck %s --check-prefix=TXQ
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/bulk.ll 2>&1 | FileCheck %s --check-prefix=BULK
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/tma.ll 2>&1 | FileCheck %s --check-prefix=TMA
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/mbarrier.ll 2>&1 | FileCheck %s --check-prefix=MBAR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/wmma.ll 2>&1 | FileCheck %s --check-prefix=WMMA
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/mapa.ll 2>&1 | FileCheck %s --check-prefix=MAPA
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/gather.ll 2>&1 | FileCheck %s --check-prefix=GATHER
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/scatter.ll 2>&1 | FileCheck %s --check-prefix=SCATTER
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/expand.ll 2>&1 | FileCheck %s --check-prefix=EXPAND
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ldmatrixb8.ll 2>&1 | FileCheck %s --check-prefix=M16
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/memaccess.ll 2>&1 | FileCheck %s --check-prefix=MEMACC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/unknown.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/vaarg.ll 2>&1 | FileCheck %s --check-prefix=VAARG

; TRAP: error: atoll-mem: refused in 'traps': trap: a trap faults the shared CUDA context (use an early return): call void @llvm.trap()
; DEBUGTRAP: error: atoll-mem: refused in 'debug_traps': trap: a trap faults the shared CUDA context (use an early return): call void @llvm.debugtrap()
; UBSAN: error: atoll-mem: refused in 'ubsan_traps': trap: a trap faults the shared CUDA context (use an early return): call void @llvm.ubsantrap(i8 3)
; TEX: error: atoll-mem: refused in 'texture': texture/surface access is not supported: %t = call { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64 %h, i64 %h, i32 0)
; SULD: error: atoll-mem: refused in 'surface': texture/surface access is not supported: %v = call i32 @llvm.nvvm.suld.1d.i32.trap(i64 %h, i32 0)
; TXQ: error: atoll-mem: refused in 'tex_query': texture/surface access is not supported: %w = call i32 @llvm.nvvm.txq.width(i64 %h)
; BULK: error: atoll-mem: refused in 'bulk_copy': memory intrinsic 'llvm.nvvm.cp.async.bulk.global.to.shared.cluster' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not supported yet: call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(
; TMA: error: atoll-mem: refused in 'tma_copy': memory intrinsic 'llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not supported yet: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d(
; MBAR: error: atoll-mem: refused in 'mbarrier': memory intrinsic 'llvm.nvvm.mbarrier.init.shared' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not supported yet: call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %s, i32 32)
; WMMA: error: atoll-mem: refused in 'wmma': memory intrinsic 'llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not supported yet: %f = call
; MAPA: error: atoll-mem: refused in 'dsmem': memory intrinsic 'llvm.nvvm.mapa' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not supported yet: %r = call ptr @llvm.nvvm.mapa(ptr %p, i32 1)
; GATHER: error: atoll-mem: refused in 'gather': vector-of-pointers memory intrinsic (gather/scatter) is not supported: %v = call <2 x i32> @llvm.masked.gather.v2i32.v2p0(
; SCATTER: error: atoll-mem: refused in 'scatter': vector-of-pointers memory intrinsic (gather/scatter) is not supported: call void @llvm.masked.scatter.v2i32.v2p0(
; EXPAND: error: atoll-mem: refused in 'expandload': vector-of-pointers memory intrinsic (gather/scatter) is not supported: %v = call <2 x i32> @llvm.masked.expandload.v2i32(
; M16: error: atoll-mem: refused in 'ldmatrix_b8': unsupported memory intrinsic 'llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3': %x = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3(ptr addrspace(3) %s)
; MEMACC: error: atoll-mem: refused in 'wgmma_fence': intrinsic 'llvm.nvvm.wgmma.fence.sync.aligned' may access memory: call void @llvm.nvvm.wgmma.fence.sync.aligned()
; UNKNOWN: error: atoll-mem: refused in 'made_up': unknown intrinsic 'llvm.nvvm.atomic.made.up': %x = call i32 @llvm.nvvm.atomic.made.up(ptr %p)
; VAARG: error: atoll-mem: refused in 'varargs': va_arg is not supported: %x = va_arg ptr %ap, i32

;--- trap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.trap()
define ptx_kernel void @traps(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.trap()
  ret void
}

;--- debugtrap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.debugtrap()
define ptx_kernel void @debug_traps(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.debugtrap()
  ret void
}

;--- ubsantrap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.ubsantrap(i8)
define ptx_kernel void @ubsan_traps(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.ubsantrap(i8 3)
  ret void
}

;--- tex.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64, i64, i32)
define ptx_kernel void @texture(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %t = call { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64 %h, i64 %h, i32 0)
  ret void
}

;--- suld.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.suld.1d.i32.trap(i64, i32)
define ptx_kernel void @surface(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %v = call i32 @llvm.nvvm.suld.1d.i32.trap(i64 %h, i32 0)
  ret void
}

;--- txq.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.txq.width(i64)
define ptx_kernel void @tex_query(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %w = call i32 @llvm.nvvm.txq.width(i64 %h)
  ret void
}

;--- bulk.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
define ptx_kernel void @bulk_copy(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) null, ptr addrspace(3) %s, ptr addrspace(1) %g, i32 64, i16 0, i64 0, i1 false, i1 false)
  ret void
}

;--- tma.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i16, i64, i1, i1, i32)
define ptx_kernel void @tma_copy(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d(ptr addrspace(7) null, ptr addrspace(3) %s, ptr %p, i32 0, i16 0, i64 0, i1 false, i1 false, i32 0)
  ret void
}

;--- mbarrier.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
define ptx_kernel void @mbarrier(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %s, i32 32)
  ret void
}

;--- wmma.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
define ptx_kernel void @wmma(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %f = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %p, i32 16)
  ret void
}

;--- mapa.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare ptr @llvm.nvvm.mapa(ptr, i32)
define ptx_kernel void @dsmem(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %r = call ptr @llvm.nvvm.mapa(ptr %p, i32 1)
  ret void
}

;--- gather.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr>, <2 x i1>, <2 x i32>)
define ptx_kernel void @gather(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %v = call <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr> zeroinitializer, <2 x i1> splat (i1 true), <2 x i32> poison)
  ret void
}

;--- scatter.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.masked.scatter.v2i32.v2p0(<2 x i32>, <2 x ptr>, <2 x i1>)
define ptx_kernel void @scatter(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.masked.scatter.v2i32.v2p0(<2 x i32> zeroinitializer, <2 x ptr> zeroinitializer, <2 x i1> splat (i1 true))
  ret void
}

;--- expand.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare <2 x i32> @llvm.masked.expandload.v2i32(ptr, <2 x i1>, <2 x i32>)
define ptx_kernel void @expandload(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %v = call <2 x i32> @llvm.masked.expandload.v2i32(ptr %p, <2 x i1> splat (i1 true), <2 x i32> poison)
  ret void
}

;--- ldmatrixb8.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3(ptr addrspace(3))
define ptx_kernel void @ldmatrix_b8(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %x = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3(ptr addrspace(3) %s)
  ret void
}

;--- memaccess.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
define ptx_kernel void @wgmma_fence(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  ret void
}

;--- unknown.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.atomic.made.up(ptr)
define ptx_kernel void @made_up(ptr %p, ptr addrspace(1) %g, i64 %h) {
  %s = addrspacecast ptr %p to ptr addrspace(3)
  %x = call i32 @llvm.nvvm.atomic.made.up(ptr %p)
  ret void
}

;--- vaarg.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @varargs(ptr %ap) {
  %x = va_arg ptr %ap, i32
  ret void
}
