; A call through a function pointer with call-site willreturn/mustprogress: the
; callee is unknown here, so the promise is all LLVM would know of it; stripped
; like any other call site's (atoll-mem refuses the indirect call later, but
; nothing between the two passes may use the promise).
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %fn, ptr %out) {
; CHECK:      %v = call i32 %fn(i32 7) [[NU:#[0-9]+]]
; CHECK-NEXT: store i32 %v, ptr %out, align 4
  %v = call i32 %fn(i32 7) #0
  store i32 %v, ptr %out, align 4
  ret void
}

attributes #0 = { mustprogress nounwind willreturn }

; CHECK: attributes [[NU]] = { nounwind }
