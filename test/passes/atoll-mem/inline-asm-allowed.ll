; Inline asm on the allow-list passes untouched and is reported as proven safe:
; libdevice's asm, byte for byte (rcp.approx; the mad.lo.cc/madc block that
; sinf, cosf and tanf use; the .reg-scoped 128-bit multiply of sincos), and the
; register-only reads of special registers, with or without sideeffect. A tenant
; may paste libdevice's exact asm into its own code: each entry writes only its
; output operands and the registers it declares inside its braces.
; RUN: %opt-atoll -passes='atoll-mem<verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @regs(ptr %out, float %x, i32 %a, i32 %b, i64 %c, i64 %d) {
  %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %x)
  %m = call { i32, i32 } asm "{\0A\09mad.lo.cc.u32   $0, $2, $3, $4;\0A\09madc.hi.u32     $1, $2, $3,  0;\0A\09}", "=r,=r,r,r,r"(i32 %a, i32 %b, i32 3)
  %w = call { i64, i64 } asm "{\0A\09.reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi;\0A\09mov.b64         {alo,ahi}, $2;   \0A\09mov.b64         {blo,bhi}, $3;   \0A\09mul.lo.u32      r0, alo, blo;    \0A\09mul.hi.u32      r1, alo, blo;    \0A\09mad.lo.cc.u32   r1, alo, bhi, r1;\0A\09madc.hi.u32     r2, alo, bhi,  0;\0A\09mad.lo.cc.u32   r1, ahi, blo, r1;\0A\09madc.hi.cc.u32  r2, ahi, blo, r2;\0A\09madc.hi.u32     r3, ahi, bhi,  0;\0A\09mad.lo.cc.u32   r2, ahi, bhi, r2;\0A\09addc.u32        r3, r3,  0;      \0A\09mov.b64         $0, {r0,r1};     \0A\09mov.b64         $1, {r2,r3};     \0A\09}", "=l,=l,l,l"(i64 %c, i64 %d)
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %s = call i32 asm sideeffect "mov.u32 $0, %smid;", "=r"()
  %t = call i64 asm sideeffect "mov.u64 $0, %clock64;", "=l"()
  %g = call i64 asm sideeffect "mov.u64 $0, %globaltimer;", "=l"()
  %m0 = extractvalue { i32, i32 } %m, 0
  %s1 = add i32 %m0, %l
  %s2 = add i32 %s1, %s
  store i32 %s2, ptr %out, align 4
  store float %r, ptr %out, align 4
  %w0 = extractvalue { i64, i64 } %w, 0
  %t1 = add i64 %t, %g
  %t2 = add i64 %t1, %w0
  store i64 %t2, ptr %out, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @regs(
; CHECK:         %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %x)
; CHECK-NEXT:    %m = call { i32, i32 } asm "{\0A\09mad.lo.cc.u32   $0, $2, $3, $4;
; CHECK-NEXT:    %w = call { i64, i64 } asm "{\0A\09.reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi;
; CHECK-NEXT:    %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
; CHECK-NEXT:    %s = call i32 asm sideeffect "mov.u32 $0, %smid;", "=r"()
; CHECK-NEXT:    %t = call i64 asm sideeffect "mov.u64 $0, %clock64;", "=l"()
; CHECK-NEXT:    %g = call i64 asm sideeffect "mov.u64 $0, %globaltimer;", "=l"()

; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %r = call float asm "rcp.approx.ftz.f32
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %m = call { i32, i32 } asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %w = call { i64, i64 } asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %l = call i32 asm
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %s = call i32 asm sideeffect
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %t = call i64 asm sideeffect
; VERBOSE: atoll-mem: regs: unknown inline-asm proven-safe: inline asm on the allow-list | %g = call i64 asm sideeffect
