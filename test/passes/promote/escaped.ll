; A global whose address escapes cannot be proven read-only: refused, naming the
; instruction through which it escapes and why.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/extcall.ll 2>&1 | FileCheck %s --check-prefix=EXTCALL
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/stored.ll 2>&1 | FileCheck %s --check-prefix=STORED
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/ptrtoint.ll 2>&1 | FileCheck %s --check-prefix=PTRTOINT
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/ptrtoint-init.ll 2>&1 | FileCheck %s --check-prefix=PTRTOINT-INIT
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/asm.ll 2>&1 | FileCheck %s --check-prefix=ASM
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/returned.ll 2>&1 | FileCheck %s --check-prefix=RETURNED
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/indirect.ll 2>&1 | FileCheck %s --check-prefix=INDIRECT
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/readonly-call.ll | FileCheck %s --check-prefix=READONLY

; EXTCALL: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, passed to 'ext', which may write or keep it: 'call void @ext(ptr addrspacecast (ptr addrspace(1) @tbl to ptr))' in 'k')
; STORED: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, stored to memory: 'store ptr @tbl, ptr %out, align 8' in 'k')
; PTRTOINT: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, converted to an integer: '%a = ptrtoint ptr addrspace(1) %p to i64' in 'k')
; PTRTOINT-INIT: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, converted to an integer: in the initializer of 'addr')
; ASM: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, passed to inline asm: 'call void asm sideeffect "st.u32 [$0], 0;", "l"(ptr @tbl)' in 'k')
; RETURNED: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, returned from the function: 'ret ptr @tbl' in 'get')
; INDIRECT: error: promote-ptx-constant-globals: refused global 'tbl': writable module-scope storage (address escapes, passed to an indirect call: 'call void %fn(ptr @tbl)' in 'k')

;--- extcall.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
declare void @ext(ptr)
define ptx_kernel void @k() {
  call void @ext(ptr addrspacecast (ptr addrspace(1) @tbl to ptr))
  ret void
}

;--- stored.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define ptx_kernel void @k(ptr %out) {
  store ptr @tbl, ptr %out, align 8
  ret void
}

;--- ptrtoint.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i32, ptr addrspace(1) @tbl, i64 %i
  %a = ptrtoint ptr addrspace(1) %p to i64
  store i64 %a, ptr %out, align 8
  ret void
}

;--- ptrtoint-init.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
@addr = internal addrspace(4) constant i64 ptrtoint (ptr addrspace(1) @tbl to i64), align 8
define ptx_kernel void @k(ptr %out) {
  %a = load i64, ptr addrspace(4) @addr, align 8
  store i64 %a, ptr %out, align 8
  ret void
}

;--- asm.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define ptx_kernel void @k() {
  call void asm sideeffect "st.u32 [$0], 0;", "l"(ptr @tbl)
  ret void
}

;--- returned.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define ptr @get() {
  ret ptr @tbl
}
define ptx_kernel void @k() {
  %p = call ptr @get()
  store i32 0, ptr %p, align 4
  ret void
}

;--- indirect.ll
target triple = "nvptx64-nvidia-cuda"
@tbl = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
define ptx_kernel void @k(ptr %fn) {
  call void %fn(ptr @tbl)
  ret void
}

;--- readonly-call.ll
; An external function whose parameter is readonly and captures nothing only reads.
target triple = "nvptx64-nvidia-cuda"
@tbl = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
declare i32 @sum(ptr readonly captures(none))
define ptx_kernel void @k(ptr %out) {
  %s = call i32 @sum(ptr @tbl)
  store i32 %s, ptr %out, align 4
  ret void
}
; READONLY: @tbl = internal addrspace(4) constant [4 x i32]
; READONLY: call i32 @sum(ptr addrspacecast (ptr addrspace(4) @tbl to ptr))
