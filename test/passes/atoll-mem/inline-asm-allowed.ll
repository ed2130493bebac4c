; Register-only inline asm passes: libdevice's own asm (rcp.approx, mad.lo.cc and
; madc blocks with .reg declarations and braces), predicated instructions, moves
; of special registers and braced vector operands, %-registers the asm declares
; itself inside its braces (also as a "%t<2>" range). It is left untouched and
; reported as proven safe.
; RUN: %opt-atoll -passes='atoll-mem<verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @regs(ptr %out, float %x, i32 %a, i32 %b) {
  %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %x)
  %m = call i32 asm "{\0A\09.reg .u32 t1;\0A\09mad.lo.cc.u32 t1, $1, $2, 0;\0A\09madc.hi.u32 $0, $1, $2, 0;\0A\09}", "=r,r,r"(i32 %a, i32 %b)
  %p = call i32 asm "{ .reg .pred p; setp.ne.s32 p, $1, 0; @p add.s32 $0, $1, 1; }", "=r,r"(i32 %a)
  %c = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"()
  %v = call i64 asm "mov.b64 $0, {$1, $2};", "=l,r,r"(i32 %a, i32 %b)
  %q = call i32 asm "{\0A\09.reg .pred %pp;\0A\09.reg .b32 %t<2>;\0A\09setp.ne.s32 %pp, $1, 0;\0A\09selp.b32 %t1, 1, 0, %pp;\0A\09mov.b32 $0, %t1;\0A\09}", "=r,r"(i32 %a)
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %s = add i32 %m, %p
  %s1 = add i32 %s, %c
  %s3 = add i32 %s1, %q
  %s2 = add i32 %s3, %l
  store i32 %s2, ptr %out, align 4
  store float %r, ptr %out, align 4
  store i64 %v, ptr %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @regs(
; CHECK:         %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %x)
; CHECK-NEXT:    %m = call i32 asm "{\0A\09.reg .u32 t1;\0A\09mad.lo.cc.u32 t1, $1, $2, 0;\0A\09madc.hi.u32 $0, $1, $2, 0;\0A\09}", "=r,r,r"(i32 %a, i32 %b)
; CHECK-NEXT:    %p = call i32 asm "{ .reg .pred p; setp.ne.s32 p, $1, 0; @p add.s32 $0, $1, 1; }", "=r,r"(i32 %a)
; CHECK-NEXT:    %c = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"()
; CHECK-NEXT:    %v = call i64 asm "mov.b64 $0, {$1, $2};", "=l,r,r"(i32 %a, i32 %b)
; CHECK-NEXT:    %q = call i32 asm "{\0A\09.reg .pred %pp;\0A\09.reg .b32 %t<2>;
; CHECK-NEXT:    %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()

; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %r = call float asm "rcp.approx.ftz.f32
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %m = call i32 asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %p = call i32 asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %c = call i32 asm sideeffect
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %v = call i64 asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %q = call i32 asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: register-only inline asm | %l = call i32 asm
