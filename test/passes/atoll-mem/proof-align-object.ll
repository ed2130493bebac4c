; A constant offset proves an access safe only when the object is at least as
; aligned as the access: a 16-aligned vector load at offset 0 of a 4-aligned
; constant object is confined, and the object's alignment is raised, so that no
; address of a misaligned vector access can reach the hardware.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=VERBOSE
; RUN: FileCheck %s --input-file=%t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(4) constant [8 x i32] zeroinitializer, align 4
@tile = internal addrspace(3) global [8 x i32] undef, align 4

define ptx_kernel void @underaligned(ptr %out) {
  %v = load <4 x i32>, ptr addrspace(4) @table, align 16
  %w = load <4 x i32>, ptr addrspace(3) @tile, align 16
  %s = add <4 x i32> %v, %w
  store <4 x i32> %s, ptr %out, align 16
  ret void
}

; VERBOSE:      constant load confined: into its constant object | %v = load <4 x i32>
; VERBOSE-NEXT: shared load confined: into its shared object | %w = load <4 x i32>

; CHECK: @table = internal addrspace(4) constant [8 x i32] zeroinitializer, align 16
; CHECK: @tile = internal addrspace(3) global [8 x i32] undef, align 16
