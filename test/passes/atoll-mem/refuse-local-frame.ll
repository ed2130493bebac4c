; R5-F4: a kernel's stack frame (its static allocas after inlining) is bounded,
; 16 KiB per thread by default (max-local-bytes=, ATOLL_DEFAULT_MAX_LOCAL_BYTES).
; The driver reserves local memory for every resident thread of the device,
; outside every arena and budget, and grows that reservation when a launch needs
; more (measured on the H200: 409,600 bytes per thread took 103 GiB of device
; memory and waited 1.9 s for another tenant's kernel). Deny by default.
; RUN: split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/big.ll 2>&1 | FileCheck %s --check-prefix=BIG
; RUN: %opt-atoll -passes=atoll-mem -disable-output %t/limit.ll
; RUN: not %opt-atoll -passes='atoll-mem<max-local-bytes=64>' -disable-output %t/limit.ll 2>&1 | FileCheck %s --check-prefix=SMALL
; RUN: not %opt-atoll -passes='atoll-mem<max-local-bytes=0>' -disable-output %t/limit.ll 2>&1 | FileCheck %s --check-prefix=BADPARAM
; RUN: not %opt-atoll -atoll-max-local-bytes=600000 -passes=atoll-mem -disable-output %t/limit.ll 2>&1 | FileCheck %s --check-prefix=BADFLAG

; BIG: error: atoll-mem: refused in 'big_local': the kernel's stack frame is 409600 bytes per thread (at most 16384: local memory is reserved for every resident thread of the device, outside every arena)
; SMALL: error: atoll-mem: refused in 'at_limit': the kernel's stack frame is 16384 bytes per thread (at most 64:
; BADPARAM: invalid max-local-bytes '0' (expected 1..524288)
; BADFLAG: atoll-mem: invalid -atoll-max-local-bytes 600000 (expected 1..524288)

;--- big.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 409,600 bytes: refused.
define ptx_kernel void @big_local(ptr addrspace(1) %out, i64 %i) {
  %a = alloca [409600 x i8], align 16
  %p = getelementptr i8, ptr %a, i64 %i
  store i8 1, ptr %p, align 1
  %v = load i8, ptr %a, align 1
  store i8 %v, ptr addrspace(1) %out, align 1
  ret void
}

;--- limit.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Exactly 16 KiB in two objects: accepted by default, refused under 64 bytes.
define ptx_kernel void @at_limit(ptr addrspace(1) %out, i64 %i) {
  %a = alloca [2048 x i32], align 4
  %b = alloca [2048 x i32], align 4
  %p = getelementptr i32, ptr %a, i64 %i
  store i32 1, ptr %p, align 4
  %q = getelementptr i32, ptr %b, i64 %i
  store i32 2, ptr %q, align 4
  %v = load i32, ptr %a, align 4
  %w = load i32, ptr %b, align 4
  %s = add i32 %v, %w
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

