; Inlining every device function can grow a kernel exponentially (each level
; calls the next twice: 2^23 copies here). Past a budget of 500000 instructions
; the module is refused with a clear message instead of exhausting the
; toolchain's time and memory.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': kernel exceeds 500000 instructions once its device functions are inlined: call void @f{{[0-9]+}}(ptr %p)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @f0(ptr %p) {
  store i32 0, ptr %p, align 4
  store i32 1, ptr %p, align 4
  ret void
}
define void @f1(ptr %p) {
  call void @f0(ptr %p)
  call void @f0(ptr %p)
  ret void
}
define void @f2(ptr %p) {
  call void @f1(ptr %p)
  call void @f1(ptr %p)
  ret void
}
define void @f3(ptr %p) {
  call void @f2(ptr %p)
  call void @f2(ptr %p)
  ret void
}
define void @f4(ptr %p) {
  call void @f3(ptr %p)
  call void @f3(ptr %p)
  ret void
}
define void @f5(ptr %p) {
  call void @f4(ptr %p)
  call void @f4(ptr %p)
  ret void
}
define void @f6(ptr %p) {
  call void @f5(ptr %p)
  call void @f5(ptr %p)
  ret void
}
define void @f7(ptr %p) {
  call void @f6(ptr %p)
  call void @f6(ptr %p)
  ret void
}
define void @f8(ptr %p) {
  call void @f7(ptr %p)
  call void @f7(ptr %p)
  ret void
}
define void @f9(ptr %p) {
  call void @f8(ptr %p)
  call void @f8(ptr %p)
  ret void
}
define void @f10(ptr %p) {
  call void @f9(ptr %p)
  call void @f9(ptr %p)
  ret void
}
define void @f11(ptr %p) {
  call void @f10(ptr %p)
  call void @f10(ptr %p)
  ret void
}
define void @f12(ptr %p) {
  call void @f11(ptr %p)
  call void @f11(ptr %p)
  ret void
}
define void @f13(ptr %p) {
  call void @f12(ptr %p)
  call void @f12(ptr %p)
  ret void
}
define void @f14(ptr %p) {
  call void @f13(ptr %p)
  call void @f13(ptr %p)
  ret void
}
define void @f15(ptr %p) {
  call void @f14(ptr %p)
  call void @f14(ptr %p)
  ret void
}
define void @f16(ptr %p) {
  call void @f15(ptr %p)
  call void @f15(ptr %p)
  ret void
}
define void @f17(ptr %p) {
  call void @f16(ptr %p)
  call void @f16(ptr %p)
  ret void
}
define void @f18(ptr %p) {
  call void @f17(ptr %p)
  call void @f17(ptr %p)
  ret void
}
define void @f19(ptr %p) {
  call void @f18(ptr %p)
  call void @f18(ptr %p)
  ret void
}
define void @f20(ptr %p) {
  call void @f19(ptr %p)
  call void @f19(ptr %p)
  ret void
}
define void @f21(ptr %p) {
  call void @f20(ptr %p)
  call void @f20(ptr %p)
  ret void
}
define void @f22(ptr %p) {
  call void @f21(ptr %p)
  call void @f21(ptr %p)
  ret void
}
define void @f23(ptr %p) {
  call void @f22(ptr %p)
  call void @f22(ptr %p)
  ret void
}
define ptx_kernel void @k(ptr %p) {
  call void @f23(ptr %p)
  ret void
}
