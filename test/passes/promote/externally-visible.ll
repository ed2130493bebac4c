; Externally visible globals. A __device__ variable (clang: dso_local, global
; space, externally_initialized) that the module never writes is promoted: AToLL
; has no host API to write module symbols, so externally_initialized does not make
; it mutable; linkage and the flag are kept. One the module writes is refused.
; RUN: split-file %s %t
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/readonly.ll | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %t/readonly.ll | %llc-sm90 | FileCheck %s --check-prefix=PTX
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/written.ll 2>&1 | FileCheck %s --check-prefix=WRITTEN

;--- readonly.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dev = dso_local addrspace(1) externally_initialized global [4 x i32] [i32 5, i32 6, i32 7, i32 8], align 4
@pub = constant i64 77, align 8
@weak_tbl = weak addrspace(1) global [2 x i16] [i16 1, i16 2], align 2

; CHECK: @dev = dso_local addrspace(4) externally_initialized constant [4 x i32] [i32 5, i32 6, i32 7, i32 8], align 4
; CHECK: @pub = addrspace(4) constant i64 77, align 8
; CHECK: @weak_tbl = weak addrspace(4) constant [2 x i16] [i16 1, i16 2], align 2

define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(1) @dev to ptr), i64 %i
  %a = load i32, ptr %p, align 4
  %b = load i64, ptr @pub, align 8
  %q = getelementptr inbounds i16, ptr addrspace(1) @weak_tbl, i64 %i
  %c = load i16, ptr addrspace(1) %q, align 2
  %az = zext i32 %a to i64
  %cz = zext i16 %c to i64
  %s = add i64 %az, %b
  %t = add i64 %s, %cz
  store i64 %t, ptr %out, align 8
  ret void
}

; PTX-DAG: .visible .const .align 4 .b8 dev[16] = {5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 8};
; PTX-DAG: .visible .const .align 8 .u64 pub = 77;
; PTX-DAG: .weak .const .align 2 .b8 weak_tbl[4] = {1, 0, 2};

;--- written.ll
target triple = "nvptx64-nvidia-cuda"
@flag = dso_local addrspace(1) externally_initialized global i32 0, align 4
define ptx_kernel void @k(i32 %v) {
  store volatile i32 %v, ptr addrspacecast (ptr addrspace(1) @flag to ptr), align 4
  ret void
}
; WRITTEN: error: promote-ptx-constant-globals: refused global 'flag': writable module-scope storage (written by 'store volatile i32 %v, ptr addrspacecast (ptr addrspace(1) @flag to ptr), align 4' in 'k')
