; A declaration's willreturn/mustprogress is a promise every call site inherits
; (LLVM reads a call's attributes from its callee too): stripped from external
; declarations like from definitions. An intrinsic declaration gets LLVM's own
; attributes instead (its willreturn is LLVM's fact, not the tenant's).
; RUN: %opt-atoll -passes=atoll-strip-facts -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %out) {
  %v = call i32 @ext(i32 1)
  store i32 %v, ptr %out, align 4
  ret void
}

; CHECK: declare i32 @ext(i32) [[EXT:#[0-9]+]]
declare i32 @ext(i32) #0
; CHECK: declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() [[TID:#[0-9]+]]
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

attributes #0 = { mustprogress nounwind willreturn }

; CHECK: attributes [[EXT]] = { nounwind }
; CHECK: attributes [[TID]] = { {{.*}}willreturn
