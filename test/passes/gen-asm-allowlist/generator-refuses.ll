; The build-time generator of the inline-asm allow-list refuses (and so fails the
; build on) any asm in its input that is not register-only by construction, and
; writes the sorted, deduplicated entries of libdevice as C++ initialisers.
; RUN: rm -rf %t && split-file %s %t && mkdir -p %t/out
; RUN: llvm-as %t/memory.ll -o %t/memory.bc
; RUN: not %gen-asm-allowlist %t/memory.bc -o %t/out/memory.inc 2>&1 | FileCheck %s --check-prefix=MEMORY
; RUN: llvm-as %t/indirect.ll -o %t/indirect.bc
; RUN: not %gen-asm-allowlist %t/indirect.bc -o %t/out/indirect.inc 2>&1 | FileCheck %s --check-prefix=INDIRECT
; RUN: llvm-as %t/clobber.ll -o %t/clobber.bc
; RUN: not %gen-asm-allowlist %t/clobber.bc -o %t/out/clobber.inc 2>&1 | FileCheck %s --check-prefix=CLOBBER
; RUN: llvm-as %t/tied.ll -o %t/tied.bc
; RUN: not %gen-asm-allowlist %t/tied.bc -o %t/out/tied.inc 2>&1 | FileCheck %s --check-prefix=TIED
; RUN: llvm-as %t/register.ll -o %t/register.bc
; RUN: not %gen-asm-allowlist %t/register.bc -o %t/out/register.inc 2>&1 | FileCheck %s --check-prefix=REGISTER
; RUN: llvm-as %t/trap.ll -o %t/trap.bc
; RUN: not %gen-asm-allowlist %t/trap.bc -o %t/out/trap.inc 2>&1 | FileCheck %s --check-prefix=TRAP
; RUN: llvm-as %t/none.ll -o %t/none.bc
; RUN: not %gen-asm-allowlist %t/none.bc -o %t/out/none.inc 2>&1 | FileCheck %s --check-prefix=NONE
; RUN: %gen-asm-allowlist %cuda-path/nvvm/libdevice/libdevice.10.bc -o %t/out/libdevice.inc
; RUN: FileCheck %s --check-prefix=LIBDEVICE --input-file=%t/out/libdevice.inc

; MEMORY: error: libdevice asm in 'f' is not register-only (memory or control-flow instruction)
; INDIRECT: error: libdevice asm in 'f' is not register-only (non-register operand)
; CLOBBER: error: libdevice asm in 'f' is not register-only (clobber)
; TIED: error: libdevice asm in 'f' is not register-only (non-register operand)
; REGISTER: error: libdevice asm in 'f' is not register-only (names a '%' register (compiler or special register)): mov.b32 $0, %r1;
; TRAP: error: libdevice asm in 'f' is not register-only (memory or control-flow instruction)
; NONE: error: no inline asm found
; LIBDEVICE: // Generated from libdevice.10.bc by atoll-gen-asm-allowlist; do not edit.
; LIBDEVICE: {"bfind.shiftamt.u32 $0, $1;", "=r,r", "i32 (i32)"},
; LIBDEVICE: {"rcp.approx.ftz.f32 $0,$1;", "=f,f", "float (float)"},
; LIBDEVICE: {"{\012\011mad.lo.cc.u32   $0, $2, $3, $4;\012\011madc.hi.u32     $1, $2, $3,  0;\012\011}", "=r,=r,r,r,r", "{ i32, i32 } (i32, i32, i32)"},

;--- memory.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  call void asm sideeffect "st.u32 [$0], 1;", "l"(ptr %p)
  ret void
}

;--- indirect.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  call void asm sideeffect "// $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}

;--- clobber.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  %v = call i32 asm "mov.b32 $0, 1;", "=r,~{memory}"()
  ret void
}

;--- tied.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  %v = call i32 asm "add.s32 $0, $0, 1;", "=r,0"(i32 %a)
  ret void
}

;--- register.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  %v = call i32 asm "mov.b32 $0, %r1;", "=r"()
  ret void
}

;--- trap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f(ptr %p, i32 %a) {
  call void asm sideeffect "trap;", ""()
  ret void
}

;--- none.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"
define void @f() {
  ret void
}
