; Inline asm is denied by default: only an asm whose exact template, constraint
; string and type are on the allow-list (libdevice's asm, generated at build time,
; and a few reads of special registers) passes. No text is parsed, so none of the
; tricks that fooled the earlier parser works: memory operands and instructions,
; trap/brkpt/branches, compiler registers (%rd1, %SP, %p1), register ranges
; ("%rd<4>" declares the compiler's %rd1 in scope), writes to input operands,
; outputs never written, dangling operand references, and any one-character
; change to an allowed template, constraint string or type. Each refusal names
; the function and the asm text.
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
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/regrange.ll 2>&1 | FileCheck %s --check-prefix=RANGE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/regrange2.ll 2>&1 | FileCheck %s --check-prefix=RANGE2
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/writeinput.ll 2>&1 | FileCheck %s --check-prefix=WRITEIN
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/nowrite.ll 2>&1 | FileCheck %s --check-prefix=NOWRITE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/onechar.ll 2>&1 | FileCheck %s --check-prefix=ONECHAR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/onespace.ll 2>&1 | FileCheck %s --check-prefix=ONESPACE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/constraint.ll 2>&1 | FileCheck %s --check-prefix=CONSTRAINT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/type.ll 2>&1 | FileCheck %s --check-prefix=TYPE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/canthrow.ll 2>&1 | FileCheck %s --check-prefix=UNWIND

; MEMOP: error: atoll-mem: refused in 'mem_constraint': inline asm "st.u32 $0, 1;" (constraints "=*m", type void (ptr)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; LDG: error: atoll-mem: refused in 'ld_global': inline asm "ld.global.u32 $0, [$1];" (constraints "=r,l", type i32 (ptr)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; STS: error: atoll-mem: refused in 'st_shared': inline asm "st.shared.u32 [$0], $1;" (constraints "r,r", type void (i32, i32)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; MIDDLE: error: atoll-mem: refused in 'hidden_store': inline asm "{\0A\09add.s32 $0, $1, 1;\0A\09st.global.u32 [$2], $0;\0A\09}" (constraints "=r,r,l", type i32 (i32, ptr)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; TRAP: error: atoll-mem: refused in 'asm_trap': inline asm "trap;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; BRKPT: error: atoll-mem: refused in 'asm_brkpt': inline asm "brkpt;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; BRANCH: error: atoll-mem: refused in 'asm_branch': inline asm "bra.uni $$L_done; $$L_done:" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; CLOBBER: error: atoll-mem: refused in 'clobbers_compiler_reg': inline asm "mov.u64 %rd1, -1;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; SP: error: atoll-mem: refused in 'moves_stack_pointer': inline asm "add.u64 %SP, %SP, 4096;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; GUARD: error: atoll-mem: refused in 'compiler_predicate': inline asm "@%p1 add.s32 $0, $1, 1;" (constraints "=r,r", type i32 (i32)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; ESCAPE: error: atoll-mem: refused in 'scope_escape': inline asm "{ .reg .b64 %rd2; mov.u64 %rd2, 0; }\0Amov.u64 %rd2, -1;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; TOPLEVEL: error: atoll-mem: refused in 'toplevel_decl': inline asm ".reg .b64 %rd3;\0Amov.u64 %rd3, -1;" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; DANGLING: error: atoll-mem: refused in 'dangling_operand': inline asm "rcp.approx.ftz.f32 $4,$1;" (constraints "=f,f", type float (float)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; BADOP: error: atoll-mem: refused in 'malformed_operand': inline asm "mov.u32 $-1, %laneid;" (constraints "=r", type i32 ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; RANGE: error: atoll-mem: refused in 'register_range': inline asm "{ .reg .b64 %rd<4>; mov.u64 %rd1, -1; }" (constraints "", type void ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; RANGE2: error: atoll-mem: refused in 'register_range_prefix': inline asm "{ .reg .b32 t<2>; mov.b32 t1, $1; mov.b32 %r1, t1; mov.b32 $0, t1; }" (constraints "=r,r", type i32 (i32)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; WRITEIN: error: atoll-mem: refused in 'write_input': inline asm "add.s32 $1, $1, 4096; mov.b32 $0, $1;" (constraints "=r,r", type i32 (i32)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; NOWRITE: error: atoll-mem: refused in 'output_never_written': inline asm "// $0 $1" (constraints "=r,r", type i32 (i32)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; ONECHAR: error: atoll-mem: refused in 'template_changed': inline asm "rcp.approx.ftz.f32 $0,$0;" (constraints "=f,f", type float (float)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; ONESPACE: error: atoll-mem: refused in 'template_space': inline asm "rcp.approx.ftz.f32 $0, $1;" (constraints "=f,f", type float (float)) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; CONSTRAINT: error: atoll-mem: refused in 'constraint_changed': inline asm "mov.u32 $0, %laneid;" (constraints "=r,~{memory}", type i32 ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; TYPE: error: atoll-mem: refused in 'type_changed': inline asm "mov.u32 $0, %laneid;" (constraints "=r", type i64 ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)
; UNWIND: error: atoll-mem: refused in 'unwinding_asm': inline asm "mov.u32 $0, %laneid;" (constraints "=r", type i32 ()) is not on the inline-asm allow-list (libdevice's asm and the register-only helpers in docs/passes.md)

;--- memop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @mem_constraint(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "st.u32 $0, 1;", "=*m"(ptr elementtype(i32) %p)
  ret void
}

;--- ldglobal.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @ld_global(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "ld.global.u32 $0, [$1];", "=r,l"(ptr %p)
  ret void
}

;--- stshared.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @st_shared(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "st.shared.u32 [$0], $1;", "r,r"(i32 0, i32 %a)
  ret void
}

;--- inmiddle.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @hidden_store(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "{\0A\09add.s32 $0, $1, 1;\0A\09st.global.u32 [$2], $0;\0A\09}", "=r,r,l"(i32 %a, ptr %p)
  ret void
}

;--- trap.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_trap(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "trap;", ""()
  ret void
}

;--- brkpt.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_brkpt(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "brkpt;", ""()
  ret void
}

;--- branch.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @asm_branch(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "bra.uni $$L_done; $$L_done:", ""()
  ret void
}

;--- clobber.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @clobbers_compiler_reg(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "mov.u64 %rd1, -1;", ""()
  ret void
}

;--- stackptr.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @moves_stack_pointer(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "add.u64 %SP, %SP, 4096;", ""()
  ret void
}

;--- guard.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @compiler_predicate(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "@%p1 add.s32 $0, $1, 1;", "=r,r"(i32 %a)
  ret void
}

;--- escape.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @scope_escape(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "{ .reg .b64 %rd2; mov.u64 %rd2, 0; }\0Amov.u64 %rd2, -1;", ""()
  ret void
}

;--- toplevel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @toplevel_decl(ptr %p, i32 %a, float %f) {
  call void asm sideeffect ".reg .b64 %rd3;\0Amov.u64 %rd3, -1;", ""()
  ret void
}

;--- danglingop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @dangling_operand(ptr %p, i32 %a, float %f) {
  %v = call float asm "rcp.approx.ftz.f32 $4,$1;", "=f,f"(float 1.0)
  ret void
}

;--- badop.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @malformed_operand(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "mov.u32 $-1, %laneid;", "=r"()
  ret void
}

;--- regrange.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @register_range(ptr %p, i32 %a, float %f) {
  call void asm sideeffect "{ .reg .b64 %rd<4>; mov.u64 %rd1, -1; }", ""()
  ret void
}

;--- regrange2.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @register_range_prefix(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "{ .reg .b32 t<2>; mov.b32 t1, $1; mov.b32 %r1, t1; mov.b32 $0, t1; }", "=r,r"(i32 %a)
  ret void
}

;--- writeinput.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @write_input(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "add.s32 $1, $1, 4096; mov.b32 $0, $1;", "=r,r"(i32 %a)
  ret void
}

;--- nowrite.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @output_never_written(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "// $0 $1", "=r,r"(i32 %a)
  ret void
}

;--- onechar.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @template_changed(ptr %p, i32 %a, float %f) {
  %v = call float asm "rcp.approx.ftz.f32 $0,$0;", "=f,f"(float %f)
  ret void
}

;--- onespace.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @template_space(ptr %p, i32 %a, float %f) {
  %v = call float asm "rcp.approx.ftz.f32 $0, $1;", "=f,f"(float %f)
  ret void
}

;--- constraint.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @constraint_changed(ptr %p, i32 %a, float %f) {
  %v = call i32 asm "mov.u32 $0, %laneid;", "=r,~{memory}"()
  ret void
}

;--- type.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @type_changed(ptr %p, i32 %a, float %f) {
  %v = call i64 asm "mov.u32 $0, %laneid;", "=r"()
  ret void
}

;--- canthrow.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @unwinding_asm(ptr %p, i32 %a, float %f) {
  %v = call i32 asm unwind "mov.u32 $0, %laneid;", "=r"()
  ret void
}
