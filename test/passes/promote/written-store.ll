; A global that the module stores to is writable module-scope storage: refused,
; naming the global, the store and its function. Also through a GEP instruction,
; a generic cast, and for a global marked constant (the store is UB, still refused).
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/direct.ll 2>&1 | FileCheck %s --check-prefix=DIRECT
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/derived.ll 2>&1 | FileCheck %s --check-prefix=DERIVED
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/constant.ll 2>&1 | FileCheck %s --check-prefix=CONSTANT

; DIRECT: error: promote-ptx-constant-globals: refused global 'counter': writable module-scope storage (written by 'store i32 %n, ptr addrspace(1) @counter, align 4' in '_Z3fooi')
; DERIVED: error: promote-ptx-constant-globals: refused global 'hist': writable module-scope storage (written by 'store i32 1, ptr %p, align 4' in 'k')
; CONSTANT: error: promote-ptx-constant-globals: refused global 'ro': writable module-scope storage (written by 'store i8 0, ptr getelementptr inbounds nuw (i8, ptr @ro, i64 2), align 1' in 'k')

;--- direct.ll
target triple = "nvptx64-nvidia-cuda"
@counter = dso_local addrspace(1) externally_initialized global i32 0, align 4
define void @_Z3fooi(i32 %n) {
  store i32 %n, ptr addrspace(1) @counter, align 4
  ret void
}

;--- derived.ll
target triple = "nvptx64-nvidia-cuda"
@hist = internal addrspace(1) global [16 x i32] zeroinitializer, align 4
define ptx_kernel void @k(i64 %i) {
  %g = getelementptr inbounds i32, ptr addrspace(1) @hist, i64 %i
  %p = addrspacecast ptr addrspace(1) %g to ptr
  %v = load i32, ptr %p, align 4
  store i32 1, ptr %p, align 4
  ret void
}

;--- constant.ll
target triple = "nvptx64-nvidia-cuda"
@ro = internal constant [4 x i8] c"abc\00", align 1
define ptx_kernel void @k() {
  store i8 0, ptr getelementptr inbounds nuw (i8, ptr @ro, i64 2), align 1
  ret void
}
