; A constant in the global space (like libdevice's __cudart_i2opi_f) moves to
; constant memory; global-space GEP instructions, loads and casts (to generic, to
; constant) are retyped, and the global keeps its name.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__cudart_i2opi_f = internal unnamed_addr addrspace(1) constant [6 x i32] [i32 1011060801, i32 -614296167, i32 -181084736, i32 -64530479, i32 1313084713, i32 -1560706194], align 4

; CHECK: @__cudart_i2opi_f = internal unnamed_addr addrspace(4) constant [6 x i32] [i32 1011060801, i32 -614296167, i32 -181084736, i32 -64530479, i32 1313084713, i32 -1560706194], align 4
; CHECK-NOT: addrspace(1) @__cudart_i2opi_f

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %p = getelementptr inbounds nuw i32, ptr addrspace(4) @__cudart_i2opi_f, i64 %i
; CHECK: %v = load i32, ptr addrspace(4) %p, align 4
; CHECK: %w = load i32, ptr addrspace(4) @__cudart_i2opi_f, align 4
; CHECK: %gp = addrspacecast ptr addrspace(4) %p to ptr
; CHECK: %x = load i32, ptr %gp, align 4
; CHECK: %y = load i32, ptr addrspace(4) %p, align 4
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr inbounds nuw i32, ptr addrspace(1) @__cudart_i2opi_f, i64 %i
  %v = load i32, ptr addrspace(1) %p, align 4
  %w = load i32, ptr addrspace(1) @__cudart_i2opi_f, align 4
  %gp = addrspacecast ptr addrspace(1) %p to ptr
  %x = load i32, ptr %gp, align 4
  %cp = addrspacecast ptr addrspace(1) %p to ptr addrspace(4)
  %y = load i32, ptr addrspace(4) %cp, align 4
  %s0 = add i32 %v, %w
  %s1 = add i32 %s0, %x
  %s = add i32 %s1, %y
  store i32 %s, ptr %out, align 4
  ret void
}

; PTX: .const .align 4 .b8 __cudart_i2opi_f[24] = {65, 144, 67, 60,
; PTX-NOT: {{^(\.visible |\.extern )?\.global}}
; PTX: ld.const.b32
