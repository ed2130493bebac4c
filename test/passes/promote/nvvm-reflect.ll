; libdevice's __nvvm_reflect("__CUDA_FTZ") only reads its string: the string is
; promoted, and llc's NVVMReflect still folds the call through the generic cast.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [11 x i8] c"__CUDA_FTZ\00", align 1

; CHECK: @.str = private unnamed_addr addrspace(4) constant [11 x i8] c"__CUDA_FTZ\00", align 1
; CHECK: call i32 @__nvvm_reflect(ptr addrspacecast (ptr addrspace(4) @.str to ptr))

declare i32 @__nvvm_reflect(ptr)

define ptx_kernel void @k(ptr %o) {
  %r = call i32 @__nvvm_reflect(ptr @.str)
  store i32 %r, ptr %o, align 4
  ret void
}

; PTX-NOT: __nvvm_reflect
; PTX: st.global.b32 [%rd{{[0-9]+}}], 0;
