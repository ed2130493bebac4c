; Review R7-F6 (division part): the GPU has no integer division, remainder or
; float conversion wider than 64 bits. Code generation expands a wider division
; or remainder (__int128, i65, ...) into a loop of shifts and subtractions
; (ExpandLargeDivRem) after the preemption checks were placed, and the check after
; code generation refused the kernel as "a bug in the AToLL passes"; a wider float
; conversion failed code generation with "unsupported library call operation".
; atoll-mem refuses them, naming the instruction and the real cause. A scalar
; division by a constant power of two (a shift whatever the width), 64-bit division,
; and wide division with the checks off (no loop needs one) are accepted and
; compile; a vector of wide divisions is refused even by a splat power of two (code
; generation expands every element into a loop).
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/udiv128.ll 2>&1 | FileCheck %s --check-prefix=UDIV128
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/srem128.ll 2>&1 | FileCheck %s --check-prefix=SREM128
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/sdiv65.ll 2>&1 | FileCheck %s --check-prefix=SDIV65
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/urem_vec.ll 2>&1 | FileCheck %s --check-prefix=UREMVEC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/udiv_const10.ll 2>&1 | FileCheck %s --check-prefix=CONST10
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/fptosi128.ll 2>&1 | FileCheck %s --check-prefix=FPTOSI
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/uitofp256.ll 2>&1 | FileCheck %s --check-prefix=UITOFP
; RUN: not %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/fptosi128.ll 2>&1 | FileCheck %s --check-prefix=FPTOSI
; The toolchain (-O2, codegen): the same message, not a pass bug.
; RUN: not %atoll-harden %t/udiv128.ll --emit=ptx -o %t/udiv128.ptx 2>&1 | FileCheck %s --check-prefix=UDIV128 --implicit-check-not="bug in the AToLL passes"
; RUN: not %atoll-harden %t/fptosi128.ll --emit=ptx -o %t/fptosi128.ptx 2>&1 | FileCheck %s --check-prefix=FPTOSI --implicit-check-not="library call operation"
; Accepted: powers of two, 64 bits, and no checks.
; RUN: %atoll-harden %t/accepted.ll --emit=ptx -O0 -o - | FileCheck %s --check-prefix=OK
; RUN: %atoll-harden %t/accepted.ll --emit=ptx --clamping-mode=modulo-based -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -disable-output %t/udiv128.ll
;
; UDIV128: error: atoll-mem: refused in 'udiv128': integer division of 128-bit values is not supported: the GPU has no integer division wider than 64 bits, and code generation would make a loop of it that no cancel check reaches (divide 64-bit parts, or a scalar by a constant power of two): %q = udiv i128 %a, %b
; SREM128: error: atoll-mem: refused in 'srem128': integer remainder of 128-bit values is not supported: the GPU has no integer division wider than 64 bits{{.*}}: %q = srem i128 %a, %b
; SDIV65: error: atoll-mem: refused in 'sdiv65': integer division of 65-bit values is not supported
; UREMVEC: error: atoll-mem: refused in 'urem_vec': integer remainder of 128-bit values is not supported{{.*}}: %q = urem <2 x i128> %a, splat (i128 8)
; CONST10: error: atoll-mem: refused in 'udiv_const10': integer division of 128-bit values is not supported{{.*}}: %q = udiv i128 %a, 10
; FPTOSI: error: atoll-mem: refused in 'fptosi128': conversion between floating point and 128-bit integers is not supported: the GPU has no such conversion wider than 64 bits (code generation would need a library call, and there is none): %c = fptosi double %d to i128
; UITOFP: error: atoll-mem: refused in 'uitofp256': conversion between floating point and 256-bit integers is not supported{{.*}}: %c = uitofp i256 %s to float
; OK-LABEL: .entry accepted(
; OK-NOT:   udiv-do-while
; OK:       ret;

;--- udiv128.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @udiv128(ptr addrspace(1) %g, i128 %a, i128 %b) {
  %q = udiv i128 %a, %b
  store i128 %q, ptr addrspace(1) %g, align 16
  ret void
}

;--- srem128.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @srem128(ptr addrspace(1) %g, i128 %a, i128 %b) {
  %q = srem i128 %a, %b
  store i128 %q, ptr addrspace(1) %g, align 16
  ret void
}

;--- sdiv65.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @sdiv65(ptr addrspace(1) %g, i64 %x, i64 %y) {
  %a = sext i64 %x to i65
  %b = sext i64 %y to i65
  %s = shl i65 %a, 1
  %q = sdiv i65 %s, %b
  %t = trunc i65 %q to i64
  store i64 %t, ptr addrspace(1) %g, align 8
  ret void
}

;--- urem_vec.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
; A splat of a power of two: code generation still makes a loop per element.
define ptx_kernel void @urem_vec(ptr addrspace(1) %g, <2 x i128> %a) {
  %q = urem <2 x i128> %a, splat (i128 8)
  store <2 x i128> %q, ptr addrspace(1) %g, align 32
  ret void
}

;--- udiv_const10.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @udiv_const10(ptr addrspace(1) %g, i128 %a) {
  %q = udiv i128 %a, 10
  store i128 %q, ptr addrspace(1) %g, align 16
  ret void
}

;--- fptosi128.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @fptosi128(ptr addrspace(1) %g, double %d) {
  %c = fptosi double %d to i128
  store i128 %c, ptr addrspace(1) %g, align 16
  ret void
}

;--- uitofp256.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @uitofp256(ptr addrspace(1) %g, i64 %x) {
  %z = zext i64 %x to i256
  %s = shl i256 %z, 100
  %c = uitofp i256 %s to float
  store float %c, ptr addrspace(1) %g, align 4
  ret void
}

;--- accepted.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @accepted(ptr addrspace(1) %g, i128 %a, i64 %x, i64 %y, double %d) {
  %q1 = udiv i128 %a, 16
  %q2 = sdiv i128 %a, -8
  %q3 = urem i128 %a, 4096
  %e = srem i128 %a, -4
  %q5 = udiv i64 %x, %y
  %c = fptosi double %d to i64
  %m = mul i128 %a, %a
  %s1 = add i128 %q1, %q2
  %s2 = add i128 %s1, %q3
  %s3 = add i128 %s2, %e
  %s4 = add i128 %s3, %m
  store i128 %s4, ptr addrspace(1) %g, align 16
  %p = getelementptr i64, ptr addrspace(1) %g, i64 2
  %s5 = add i64 %q5, %c
  store i64 %s5, ptr addrspace(1) %p, align 8
  ret void
}
