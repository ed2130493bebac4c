; Inline asm is allowed only when it provably touches no memory and nothing of
; the compiler's: memory constraints, any instruction outside the register-only
; allow-list (loads, stores, trap, brkpt, branches) and any %-register the asm does
; not declare itself in a brace scope (the compiler's registers hold confined
; addresses, masks, the arena base and the stack pointer) are refused, and so are
; operand references that name no operand (a fatal error in the NVPTX asm printer,
; which would abort the process compiling the module; found by the fuzz run).
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/memop.ll 2>&1 | FileCheck %s --check-prefix=MEMOP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/ldglobal.ll 2>&1 | FileCheck %s --check-prefix=LDG
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/stshared.ll 2>&1 | FileCheck %s --check-prefix=STS
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/inmiddle.ll 2>&1 | FileCheck %s --check-prefix=MIDDLE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/trap.ll 2>&1 | FileCheck %s --check-prefix=TRAP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/brkpt.ll 2>&1 | FileCheck %s --check-prefix=BRKPT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/branch.ll 2>&1 | FileCheck %s --check-prefix=BRANCH
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/clobber.ll 2>&1 | FileCheck %s --check-prefix=CLOBBER
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/stackptr.ll 2>&1 | FileCheck %s --check-prefix=SP
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/guard.ll 2>&1 | FileCheck %s --check-prefix=GUARD
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/escape.ll 2>&1 | FileCheck %s --check-prefix=ESCAPE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/toplevel.ll 2>&1 | FileCheck %s --check-prefix=TOPLEVEL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/danglingop.ll 2>&1 | FileCheck %s --check-prefix=DANGLING
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/badop.ll 2>&1 | FileCheck %s --check-prefix=BADOP

; MEMOP: error: atoll-mem: refused in 'mem_constraint': inline asm with a memory operand: call void asm sideeffect "st.u32 $0, 1;", "=*m"(ptr elementtype(i32) %p)
; LDG: error: atoll-mem: refused in 'ld_global': inline asm instruction 'ld.global.u32' is not register-only (allowed: arithmetic, logic, compare, convert, move): %v = call i32 asm "ld.global.u32 $0, [$1];", "=r,l"(ptr %p)
; STS: error: atoll-mem: refused in 'st_shared': inline asm instruction 'st.shared.u32' is not register-only (allowed: arithmetic, logic, compare, convert, move): call void asm sideeffect "st.shared.u32 [$0], $1;", "r,r"(i32 0, i32 %a)
; MIDDLE: error: atoll-mem: refused in 'hidden_store': inline asm instruction 'st.global.u32' is not register-only (allowed: arithmetic, logic, compare, convert, move): %v = call i32 asm
; TRAP: error: atoll-mem: refused in 'asm_trap': inline asm instruction 'trap' is not register-only (allowed: arithmetic, logic, compare, convert, move): call void asm sideeffect "trap;", ""()
; BRKPT: error: atoll-mem: refused in 'asm_brkpt': inline asm instruction 'brkpt' is not register-only (allowed: arithmetic, logic, compare, convert, move): call void asm sideeffect "brkpt;", ""()
; BRANCH: error: atoll-mem: refused in 'asm_branch': inline asm instruction 'bra.uni' is not register-only (allowed: arithmetic, logic, compare, convert, move): call void asm sideeffect
; CLOBBER: error: atoll-mem: refused in 'clobbers_compiler_reg': inline asm names register '%rd1', which it does not declare (only its operands, its own registers and special registers are allowed): call void asm sideeffect "mov.u64 %rd1, -1;", ""()
; SP: error: atoll-mem: refused in 'moves_stack_pointer': inline asm names register '%SP', which it does not declare (only its operands, its own registers and special registers are allowed): call void asm sideeffect "add.u64 %SP, %SP, 4096;", ""()
; GUARD: error: atoll-mem: refused in 'compiler_predicate': inline asm names register '%p1', which it does not declare (only its operands, its own registers and special registers are allowed): %v = call i32 asm "@%p1 add.s32 $0, $1, 1;", "=r,r"(i32 %a)
; ESCAPE: error: atoll-mem: refused in 'scope_escape': inline asm names register '%rd2', which it does not declare (only its operands, its own registers and special registers are allowed): call void asm sideeffect
; TOPLEVEL: error: atoll-mem: refused in 'toplevel_decl': inline asm names register '%rd3', which it does not declare (only its operands, its own registers and special registers are allowed): call void asm sideeffect
; DANGLING: error: atoll-mem: refused in 'dangling_operand': inline asm refers to operand $4, which does not exist: %v = call float asm "rcp.approx.ftz.f32 $4,$1;", "=f,f"(float 1.000000e+00)
; BADOP: error: atoll-mem: refused in 'malformed_operand': inline asm with a malformed operand reference: %v = call i32 asm "mov.u32 $-1, %laneid;", "=r"()

;--- memop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @mem_constraint(ptr %p, i32 %a) {
  call void asm sideeffect "st.u32 $0, 1;", "=*m"(ptr elementtype(i32) %p)
  ret void
}

;--- ldglobal.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @ld_global(ptr %p, i32 %a) {
  %v = call i32 asm "ld.global.u32 $0, [$1];", "=r,l"(ptr %p)
  ret void
}

;--- stshared.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @st_shared(ptr %p, i32 %a) {
  call void asm sideeffect "st.shared.u32 [$0], $1;", "r,r"(i32 0, i32 %a)
  ret void
}

;--- inmiddle.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @hidden_store(ptr %p, i32 %a) {
  %v = call i32 asm "{\0A\09add.s32 $0, $1, 1;\0A\09st.global.u32 [$2], $0;\0A\09}", "=r,r,l"(i32 %a, ptr %p)
  ret void
}

;--- trap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_trap(ptr %p, i32 %a) {
  call void asm sideeffect "trap;", ""()
  ret void
}

;--- brkpt.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_brkpt(ptr %p, i32 %a) {
  call void asm sideeffect "brkpt;", ""()
  ret void
}

;--- branch.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_branch(ptr %p, i32 %a) {
  call void asm sideeffect "bra.uni $$L_done; $$L_done:", ""()
  ret void
}

;--- clobber.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @clobbers_compiler_reg(ptr %p, i32 %a) {
  call void asm sideeffect "mov.u64 %rd1, -1;", ""()
  ret void
}

;--- stackptr.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @moves_stack_pointer(ptr %p, i32 %a) {
  call void asm sideeffect "add.u64 %SP, %SP, 4096;", ""()
  ret void
}

;--- guard.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @compiler_predicate(ptr %p, i32 %a) {
  %v = call i32 asm "@%p1 add.s32 $0, $1, 1;", "=r,r"(i32 %a)
  ret void
}

;--- escape.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @scope_escape(ptr %p, i32 %a) {
  call void asm sideeffect "{ .reg .b64 %rd2; mov.u64 %rd2, 0; }\0Amov.u64 %rd2, -1;", ""()
  ret void
}

;--- toplevel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @toplevel_decl(ptr %p, i32 %a) {
  call void asm sideeffect ".reg .b64 %rd3;\0Amov.u64 %rd3, -1;", ""()
  ret void
}

;--- danglingop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @dangling_operand(ptr %p, i32 %a) {
  %v = call float asm "rcp.approx.ftz.f32 $4,$1;", "=f,f"(float 1.0)
  ret void
}

;--- badop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @malformed_operand(ptr %p, i32 %a) {
  %v = call i32 asm "mov.u32 $-1, %laneid;", "=r"()
  ret void
}
