; Calls are inlined or refused: recursion (direct and mutual: the stack cannot be
; bounded), indirect calls, address-taken device functions, external functions and
; the CUDA runtime's device-side services. Each diagnostic names the kernel, the
; reason and the call.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/recursion.ll 2>&1 | FileCheck %s --check-prefix=REC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/mutual.ll 2>&1 | FileCheck %s --check-prefix=MUTUAL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/selfkernel.ll 2>&1 | FileCheck %s --check-prefix=SELF
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/indirect.ll 2>&1 | FileCheck %s --check-prefix=INDIRECT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/addrtaken.ll 2>&1 | FileCheck %s --check-prefix=ADDR
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/external.ll 2>&1 | FileCheck %s --check-prefix=EXTERNAL
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/malloc.ll 2>&1 | FileCheck %s --check-prefix=MALLOC
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/free.ll 2>&1 | FileCheck %s --check-prefix=FREE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/printf.ll 2>&1 | FileCheck %s --check-prefix=PRINTF
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/assert.ll 2>&1 | FileCheck %s --check-prefix=ASSERT
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/libdevice.ll 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/launch.ll 2>&1 | FileCheck %s --check-prefix=LAUNCH
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/paramsbuf.ll 2>&1 | FileCheck %s --check-prefix=PARAMBUF

; REC: error: atoll-mem: refused in 'recurse': recursion through 'fact' (the stack cannot be bounded): call void @fact(ptr %p, i32 %m)
; MUTUAL: error: atoll-mem: refused in 'mutual': recursion through '{{ping|pong}}' (the stack cannot be bounded): call void @{{ping|pong}}(i32 %n)
; SELF: error: atoll-mem: refused in 'self': recursion through 'self' (the stack cannot be bounded): call void @self(i32 %n)
; INDIRECT: error: atoll-mem: refused in 'indirect': indirect call: call void %fp(i32 1)
; ADDR: error: atoll-mem: refused in 'addr_taken': address of function 'callback' is taken (indirect calls are not allowed): store ptr @callback, ptr %out, align 8
; EXTERNAL: error: atoll-mem: refused in 'external': call to external function 'mystery': %v = call i32 @mystery(i32 1)
; MALLOC: error: atoll-mem: refused in 'heap': device heap allocation (malloc/free) is not supported: %p = call ptr @malloc(i64 64)
; FREE: error: atoll-mem: refused in 'release': device heap allocation (malloc/free) is not supported: call void @free(ptr %p)
; PRINTF: error: atoll-mem: refused in 'print': printf is not supported (its buffer is shared by every tenant): %r = call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @fmt to ptr), ptr %args)
; ASSERT: error: atoll-mem: refused in 'check': assert: __assertfail traps, which faults the shared CUDA context: call void @__assertfail(
; LIBDEVICE: error: atoll-mem: refused in 'sine': call to libdevice function '__nv_sinf' that was not linked: %s = call float @__nv_sinf(float %x)
; LAUNCH: error: atoll-mem: refused in 'dynpar': device-side kernel launch is not supported: %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
; PARAMBUF: error: atoll-mem: refused in 'parambuf': device-side kernel launch is not supported: %b = call ptr @cudaGetParameterBufferV2(ptr null, i64 0, i64 0, i64 0)

;--- recursion.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @fact(ptr %p, i32 %n) {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %m = sub i32 %n, 1
  call void @fact(ptr %p, i32 %m)
  br label %done
done:
  ret void
}
define ptx_kernel void @recurse(ptr %p) {
  call void @fact(ptr %p, i32 5)
  ret void
}

;--- mutual.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @ping(i32 %n) {
  call void @pong(i32 %n)
  ret void
}
define void @pong(i32 %n) {
  call void @ping(i32 %n)
  ret void
}
define ptx_kernel void @mutual(i32 %n) {
  call void @ping(i32 %n)
  ret void
}

;--- selfkernel.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @self(i32 %n) {
  call void @self(i32 %n)
  ret void
}

;--- indirect.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @indirect(ptr %fp) {
  call void %fp(i32 1)
  ret void
}

;--- addrtaken.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @callback(i32 %x) {
  ret void
}
define ptx_kernel void @addr_taken(ptr %out) {
  store ptr @callback, ptr %out, align 8
  ret void
}

;--- external.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @mystery(i32)
define ptx_kernel void @external(ptr %out) {
  %v = call i32 @mystery(i32 1)
  store i32 %v, ptr %out, align 4
  ret void
}

;--- malloc.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare ptr @malloc(i64)
define ptx_kernel void @heap(ptr %out) {
  %p = call ptr @malloc(i64 64)
  store ptr %p, ptr %out, align 8
  ret void
}

;--- free.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @free(ptr)
define ptx_kernel void @release(ptr %p) {
  call void @free(ptr %p)
  ret void
}

;--- printf.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@fmt = private unnamed_addr addrspace(4) constant [4 x i8] c"%d\0A\00", align 1
declare i32 @vprintf(ptr, ptr)
define ptx_kernel void @print(ptr %args) {
  %r = call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @fmt to ptr), ptr %args)
  ret void
}

;--- assert.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@msg = private unnamed_addr addrspace(4) constant [2 x i8] c"x\00", align 1
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
define ptx_kernel void @check(i32 %x) {
  %c = icmp eq i32 %x, 0
  br i1 %c, label %fail, label %ok
fail:
  call void @__assertfail(ptr addrspacecast (ptr addrspace(4) @msg to ptr), ptr addrspacecast (ptr addrspace(4) @msg to ptr), i32 1, ptr addrspacecast (ptr addrspace(4) @msg to ptr), i64 1)
  unreachable
ok:
  ret void
}

;--- libdevice.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare float @__nv_sinf(float)
define ptx_kernel void @sine(ptr %out, float %x) {
  %s = call float @__nv_sinf(float %x)
  store float %s, ptr %out, align 4
  ret void
}

;--- launch.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @cudaLaunchDeviceV2(ptr, ptr)
define ptx_kernel void @dynpar(ptr %buf) {
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
  ret void
}

;--- paramsbuf.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare ptr @cudaGetParameterBufferV2(ptr, i64, i64, i64)
define ptx_kernel void @parambuf(ptr %out) {
  %b = call ptr @cudaGetParameterBufferV2(ptr null, i64 0, i64 0, i64 0)
  store ptr %b, ptr %out, align 8
  ret void
}
