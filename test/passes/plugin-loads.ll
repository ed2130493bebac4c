; The plugin loads into opt and registers both passes.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals,atoll-mem -disable-output %s
; RUN: not %opt-atoll -passes='atoll-mem<clamping-mode=bogus>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADMODE
; RUN: not %opt-atoll -passes='atoll-mem<frobnicate>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADPARAM
; BADMODE: invalid clamping-mode 'bogus' (expected mask-based or modulo-based)
; BADPARAM: unknown parameter 'frobnicate'
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k() {
  ret void
}
