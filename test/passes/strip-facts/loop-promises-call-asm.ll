; An inline-asm call with call-site willreturn/mustprogress: asm is no
; intrinsic, and its promise is the tenant's (an asm loop need not end):
; stripped, the rest kept.
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %out, i32 %x) {
; CHECK:      %v = call i32 asm sideeffect "mov.u32 $0, $1;", "=r,r"(i32 %x) [[NU:#[0-9]+]]
; CHECK-NEXT: store i32 %v, ptr %out, align 4
  %v = call i32 asm sideeffect "mov.u32 $0, $1;", "=r,r"(i32 %x) #0
  store i32 %v, ptr %out, align 4
  ret void
}

attributes #0 = { mustprogress nounwind willreturn }

; CHECK: attributes [[NU]] = { nounwind }
