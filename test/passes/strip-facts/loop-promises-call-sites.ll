; Call-site willreturn/mustprogress (a promise about this one call) go, whatever
; the callee: a defined helper, an external declaration. An intrinsic call keeps
; its attributes (LLVM's facts about the intrinsic).
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal i32 @helper(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

declare i32 @ext(i32)

define ptx_kernel void @k(ptr %out) {
; CHECK:      %a = call i32 @helper(i32 1) [[NU:#[0-9]+]]
; CHECK-NEXT: %b = call i32 @ext(i32 %a) [[NU]]
; CHECK-NEXT: %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() [[KEEP:#[0-9]+]]
  %a = call i32 @helper(i32 1) #0
  %b = call i32 @ext(i32 %a) #1
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
  %s = add i32 %b, %t
  store i32 %s, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { nounwind willreturn }
attributes #1 = { mustprogress nounwind }

; CHECK-DAG: attributes [[NU]] = { nounwind }
; CHECK-DAG: attributes [[KEEP]] = { nounwind willreturn }
