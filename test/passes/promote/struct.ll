; A struct global (externally initialised, so nothing folds its loads) moves to constant memory; constant GEP expressions on it (field
; addresses) are rebuilt on the new global, in the global space and in generic.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Params = type { i32, [3 x float], double }

@params = dso_local addrspace(1) externally_initialized constant %struct.Params { i32 7, [3 x float] [float 1.0, float 2.0, float 3.0], double 5.0e-01 }, align 8

; CHECK: @params = dso_local addrspace(4) externally_initialized constant %struct.Params { i32 7, [3 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00], double 5.000000e-01 }, align 8

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: load i32, ptr addrspace(4) @params, align 8
; CHECK: load float, ptr addrspace(4) getelementptr inbounds (%struct.Params, ptr addrspace(4) @params, i64 0, i32 1, i64 2), align 4
; CHECK: load double, ptr addrspacecast (ptr addrspace(4) getelementptr inbounds (%struct.Params, ptr addrspace(4) @params, i64 0, i32 2) to ptr), align 8
define ptx_kernel void @k(ptr %out) {
  %n = load i32, ptr addrspace(1) @params, align 8
  %f = load float, ptr addrspace(1) getelementptr inbounds (%struct.Params, ptr addrspace(1) @params, i64 0, i32 1, i64 2), align 4
  %d = load double, ptr addrspacecast (ptr addrspace(1) getelementptr inbounds (%struct.Params, ptr addrspace(1) @params, i64 0, i32 2) to ptr), align 8
  %nf = sitofp i32 %n to double
  %ff = fpext float %f to double
  %s = fadd double %nf, %ff
  %t = fadd double %s, %d
  store double %t, ptr %out, align 8
  ret void
}

; PTX: .visible .const .align 8 .b8 params[24] = {7, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 0, 0, 0, 0, 224, 63};
; PTX-DAG: ld.const.b32 {{.*}}[params];
; PTX-DAG: ld.const.b32 {{.*}}[params+12];
