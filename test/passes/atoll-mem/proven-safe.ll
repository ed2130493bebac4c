; Proven safe: a constant offset C into a known object (alloca, shared or constant
; global, byval parameter) with 0 <= C, C + size <= object size, C a multiple of
; the access alignment and the object at least that aligned needs no rewrite; the
; instruction is left exactly as written and reported as proven safe.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=VERBOSE
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sm = internal addrspace(3) global [16 x i32] undef, align 16
@tab = addrspace(4) externally_initialized constant [8 x i64] zeroinitializer, align 8

define ptx_kernel void @safe(ptr byval([4 x i32]) align 4 %bv, ptr %out) {
  %arr = alloca [8 x i32], align 16
  store i32 1, ptr %arr, align 4
  %last = getelementptr [8 x i32], ptr %arr, i64 0, i64 7
  store i32 2, ptr %last, align 4
  %vec = getelementptr i8, ptr %arr, i64 16
  store <4 x i32> zeroinitializer, ptr %vec, align 16
  %s = getelementptr [16 x i32], ptr addrspace(3) @sm, i64 0, i64 15
  store i32 3, ptr addrspace(3) %s, align 4
  %sg = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @sm to ptr), i64 8
  %v0 = load i64, ptr %sg, align 8
  %t = getelementptr [8 x i64], ptr addrspace(4) @tab, i64 0, i64 7
  %v1 = load i64, ptr addrspace(4) %t, align 8
  %b = getelementptr i8, ptr %bv, i64 12
  %v2 = load i32, ptr %b, align 4
  %x = load i32, ptr %last, align 4
  %sum0 = add i64 %v0, %v1
  %w = trunc i64 %sum0 to i32
  %sum1 = add i32 %w, %v2
  %sum = add i32 %sum1, %x
  store i32 %sum, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @safe(
; CHECK:       atoll.body:
; CHECK-NEXT:    store i32 1, ptr %arr, align 4
; CHECK-NEXT:    %last = getelementptr [8 x i32], ptr %arr, i64 0, i64 7
; CHECK-NEXT:    store i32 2, ptr %last, align 4
; CHECK-NEXT:    %vec = getelementptr i8, ptr %arr, i64 16
; CHECK-NEXT:    store <4 x i32> zeroinitializer, ptr %vec, align 16
; CHECK-NEXT:    %s = getelementptr [16 x i32], ptr addrspace(3) @sm, i64 0, i64 15
; CHECK-NEXT:    store i32 3, ptr addrspace(3) %s, align 4
; CHECK-NEXT:    %sg = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @sm to ptr), i64 8
; CHECK-NEXT:    %v0 = load i64, ptr %sg, align 8
; CHECK-NEXT:    %t = getelementptr [8 x i64], ptr addrspace(4) @tab, i64 0, i64 7
; CHECK-NEXT:    %v1 = load i64, ptr addrspace(4) %t, align 8
; CHECK-NEXT:    %b = getelementptr i8, ptr %bv, i64 12
; CHECK-NEXT:    %v2 = load i32, ptr %b, align 4
; CHECK-NEXT:    %x = load i32, ptr %last, align 4
; Only the kernel buffer is confined.
; CHECK:         and i32 {{%.*}}, %atoll.arena.mask.a4
; CHECK:         store i32 %sum, ptr {{%.*}}, align 4

; VERBOSE: atoll-mem: safe: local store proven-safe: constant offset inside its object | store i32 1, ptr %arr, align 4
; VERBOSE: atoll-mem: safe: local store proven-safe: constant offset inside its object | store i32 2, ptr %last, align 4
; VERBOSE: atoll-mem: safe: local store proven-safe: constant offset inside its object | store <4 x i32> zeroinitializer, ptr %vec, align 16
; VERBOSE: atoll-mem: safe: shared store proven-safe: constant offset inside its object | store i32 3, ptr addrspace(3) %s, align 4
; VERBOSE: atoll-mem: safe: shared load proven-safe: constant offset inside its object | %v0 = load i64, ptr %sg, align 8
; VERBOSE: atoll-mem: safe: constant load proven-safe: constant offset inside its object | %v1 = load i64, ptr addrspace(4) %t, align 8
; VERBOSE: atoll-mem: safe: param load proven-safe: constant offset inside its object | %v2 = load i32, ptr %b, align 4
; VERBOSE: atoll-mem: safe: local load proven-safe: constant offset inside its object | %x = load i32, ptr %last, align 4
; VERBOSE: atoll-mem: safe: global store confined: into the arena (mask) | store i32 %sum, ptr %out, align 4
