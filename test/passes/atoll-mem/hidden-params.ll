; The ABI v2 (include/atoll/abi.h): every kernel gets three i64 parameters appended
; after its own, in this order, __atoll_arena_base, __atoll_arena_size and
; __atoll_control (the control block's address), and
; the attribute "atoll-hardened" with the clamping mode; existing attributes,
; parameter attributes, metadata and the calling convention are kept. Kernels
; marked only through nvvm.annotations count as kernels. Device functions are
; inlined and removed, so no non-kernel function takes the parameters.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefixes=CHECK,MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefixes=CHECK,MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @no_params() #0 {
  ret void
}

define ptx_kernel void @mixed(ptr noalias readonly %in, i32 signext %n, ptr byval({ i64, i64 }) align 8 %s, float %f) #0 !dbg.marker !0 {
  ret void
}

define void @annotated(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}

define internal void @helper(ptr %p) {
  store i32 1, ptr %p, align 4
  ret void
}

define ptx_kernel void @calls_helper(ptr %p) {
  call void @helper(ptr %p)
  ret void
}

attributes #0 = { nounwind "target-cpu"="sm_90" }
!nvvm.annotations = !{!1}
!0 = !{!"marker"}
!1 = !{ptr @annotated, !"kernel", i32 1}

; CHECK:       define ptx_kernel void @no_params(i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[ATTR:[0-9]+]] {
; CHECK:       define ptx_kernel void @mixed(ptr noalias readonly %in, i32 signext %n, ptr byval({ i64, i64 }) align 8 %s, float %f, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[ATTR]] !dbg.marker !0 {
; CHECK:       define ptx_kernel void @annotated(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[ATTR2:[0-9]+]] {
; MASK:          and i32 {{%.*}}, %atoll.arena.mask.a4
; MOD:           urem i64 {{%.*}}, %__atoll_arena_size
; CHECK:       define ptx_kernel void @calls_helper(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #[[ATTR2]] {
; CHECK-NOT:     call void @helper
; CHECK:         store i32 1, ptr {{%.*}}, align 4
; CHECK-NOT:   define {{.*}}@helper
; MASK:        attributes #[[ATTR]] = { nounwind "atoll-hardened"="mask-based" "target-cpu"="sm_90" }
; MASK:        attributes #[[ATTR2]] = { "atoll-hardened"="mask-based" }
; MOD:         attributes #[[ATTR]] = { nounwind "atoll-hardened"="modulo-based" "target-cpu"="sm_90" }
; MOD:         attributes #[[ATTR2]] = { "atoll-hardened"="modulo-based" }

; In the PTX output the three hidden parameters are the last .param entries, both .u64.
; PTX-LABEL: .entry no_params(
; PTX-NEXT:    .param .u64 no_params_param_0,
; PTX-NEXT:    .param .u64 no_params_param_1,
; PTX-NEXT:    .param .u64 no_params_param_2
; PTX-NEXT:  ){{ *(//.*)?}}
; PTX-LABEL: .entry mixed(
; PTX-NEXT:    .param .u64 .ptr .align 1 mixed_param_0,
; PTX-NEXT:    .param .u32 mixed_param_1,
; PTX-NEXT:    .param .align 8 .b8 mixed_param_2[16],
; PTX-NEXT:    .param .f32 mixed_param_3,
; PTX-NEXT:    .param .u64 mixed_param_4,
; PTX-NEXT:    .param .u64 mixed_param_5,
; PTX-NEXT:    .param .u64 mixed_param_6
; PTX-NEXT:  ){{ *(//.*)?}}
