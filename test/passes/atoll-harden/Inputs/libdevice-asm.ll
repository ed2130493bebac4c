; Every libdevice function with inline asm in it (each generated allow-list entry
; is used by at least one of them): --emit=ptx links libdevice and hardens it.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_sinf(float)
declare float @__nv_cosf(float)
declare float @__nv_tanf(float)
declare float @__nv_atanf(float)
declare float @__nv_fdimf(float, float)
declare float @__nv_fsub_rn(float, float)
declare float @__nv_fsub_rz(float, float)
declare float @__nv_fsub_rd(float, float)
declare float @__nv_fsub_ru(float, float)
declare i32 @__nv_ffs(i32)
declare double @__nv_acos(double)
declare double @__nv_cbrt(double)
declare double @__nv_dsub_rn(double, double)
declare double @__nv_dsub_rz(double, double)
declare double @__nv_dsub_ru(double, double)
declare double @__nv_dsub_rd(double, double)
declare double @__nv_fdim(double, double)
declare void @__nv_sincos(double, ptr, ptr)

define ptx_kernel void @math(ptr %out, float %f, double %d, i32 %i) {
  %v0 = call float @__nv_sinf(float %f)
  %p0 = getelementptr i8, ptr %out, i64 0
  store float %v0, ptr %p0, align 8
  %v1 = call float @__nv_cosf(float %f)
  %p1 = getelementptr i8, ptr %out, i64 8
  store float %v1, ptr %p1, align 8
  %v2 = call float @__nv_tanf(float %f)
  %p2 = getelementptr i8, ptr %out, i64 16
  store float %v2, ptr %p2, align 8
  %v3 = call float @__nv_atanf(float %f)
  %p3 = getelementptr i8, ptr %out, i64 24
  store float %v3, ptr %p3, align 8
  %v4 = call float @__nv_fdimf(float %f, float %f)
  %p4 = getelementptr i8, ptr %out, i64 32
  store float %v4, ptr %p4, align 8
  %v5 = call float @__nv_fsub_rn(float %f, float %f)
  %p5 = getelementptr i8, ptr %out, i64 40
  store float %v5, ptr %p5, align 8
  %v6 = call float @__nv_fsub_rz(float %f, float %f)
  %p6 = getelementptr i8, ptr %out, i64 48
  store float %v6, ptr %p6, align 8
  %v7 = call float @__nv_fsub_rd(float %f, float %f)
  %p7 = getelementptr i8, ptr %out, i64 56
  store float %v7, ptr %p7, align 8
  %v8 = call float @__nv_fsub_ru(float %f, float %f)
  %p8 = getelementptr i8, ptr %out, i64 64
  store float %v8, ptr %p8, align 8
  %v9 = call i32 @__nv_ffs(i32 %i)
  %p9 = getelementptr i8, ptr %out, i64 72
  store i32 %v9, ptr %p9, align 8
  %v10 = call double @__nv_acos(double %d)
  %p10 = getelementptr i8, ptr %out, i64 80
  store double %v10, ptr %p10, align 8
  %v11 = call double @__nv_cbrt(double %d)
  %p11 = getelementptr i8, ptr %out, i64 88
  store double %v11, ptr %p11, align 8
  %v12 = call double @__nv_dsub_rn(double %d, double %d)
  %p12 = getelementptr i8, ptr %out, i64 96
  store double %v12, ptr %p12, align 8
  %v13 = call double @__nv_dsub_rz(double %d, double %d)
  %p13 = getelementptr i8, ptr %out, i64 104
  store double %v13, ptr %p13, align 8
  %v14 = call double @__nv_dsub_ru(double %d, double %d)
  %p14 = getelementptr i8, ptr %out, i64 112
  store double %v14, ptr %p14, align 8
  %v15 = call double @__nv_dsub_rd(double %d, double %d)
  %p15 = getelementptr i8, ptr %out, i64 120
  store double %v15, ptr %p15, align 8
  %v16 = call double @__nv_fdim(double %d, double %d)
  %p16 = getelementptr i8, ptr %out, i64 128
  store double %v16, ptr %p16, align 8
  %sp = getelementptr i8, ptr %out, i64 136
  %cp = getelementptr i8, ptr %out, i64 144
  call void @__nv_sincos(double %d, ptr %sp, ptr %cp)
  ret void
}
