; Device constructors run at every module load and initialise writable module
; state: a module with a non-empty llvm.global_ctors (or dtors) is refused. An
; empty list is fine.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/ctor.ll 2>&1 | FileCheck %s --check-prefix=CTOR
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/dtor.ll 2>&1 | FileCheck %s --check-prefix=DTOR
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/empty.ll | FileCheck %s --check-prefix=EMPTY

; CTOR: error: promote-ptx-constant-globals: refused global 'llvm.global_ctors': module constructors and destructors are not supported: they run at every module load and write module state
; DTOR: error: promote-ptx-constant-globals: refused global 'llvm.global_dtors': module constructors and destructors are not supported: they run at every module load and write module state
; EMPTY: @tbl = internal addrspace(4) constant [2 x i32]

;--- ctor.ll
target triple = "nvptx64-nvidia-cuda"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() {
  ret void
}

;--- dtor.ll
target triple = "nvptx64-nvidia-cuda"
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @fini, ptr null }]
define internal void @fini() {
  ret void
}

;--- empty.ll
target triple = "nvptx64-nvidia-cuda"
@llvm.global_ctors = appending global [0 x { i32, ptr, ptr }] zeroinitializer
@tbl = internal addrspace(1) constant [2 x i32] [i32 1, i32 2], align 4
define ptx_kernel void @k(ptr %out) {
  %v = load i32, ptr addrspace(1) @tbl, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
