; Unused globals: one with local linkage is removed (it would take bank space for
; nothing and is not counted); an externally visible one is promoted and counted;
; an unused __constant__ one stays.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 65536 bytes that would overflow the bank if counted.
@dead = internal addrspace(1) global [16384 x i32] zeroinitializer, align 4
@dead_str = private unnamed_addr constant [4 x i8] c"abc\00", align 1
@exported = dso_local addrspace(1) externally_initialized global i32 3, align 4
@cunused = addrspace(4) externally_initialized constant i32 4, align 4

; CHECK-NOT: @dead
; CHECK: @exported = dso_local addrspace(4) externally_initialized constant i32 3, align 4
; CHECK: @cunused = addrspace(4) externally_initialized constant i32 4, align 4
; CHECK-NOT: @dead

define ptx_kernel void @k() {
  ret void
}
