; Found by review (F2, F4): undefined values become another tenant's data. A
; variable-index extractelement/insertelement made codegen build a stack
; temporary holding only the defined lanes and read any lane of it (stale local
; memory); undef/poison operands became unwritten registers stored to the arena.
; atoll-mem lowers every variable or out-of-range vector index to a kernel-owned
; slot (an entry alloca, zeroed at entry) written whole, the index clamped into the
; vector, and replaces every undef/poison operand (and undefined lane) by zero.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem -S %s | grep -vE '^(attributes|declare|; Function Attrs)' | FileCheck %s --check-prefix=NOUNDEF
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @lane(
; CHECK:         %atoll.lane.slot = alloca <8 x i32>
; CHECK:         %v = insertelement <8 x i32> zeroinitializer, i32 %a, i32 0
; CHECK:         [[I:%.*]] = zext i32 %i to i64
; CHECK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 [[I]], i64 7)
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i32, ptr %atoll.lane.slot, i64 [[L]]
; CHECK-NEXT:    store <8 x i32> %v, ptr %atoll.lane.slot
; CHECK:         %e = load i32, ptr
; CHECK-NOT:     extractelement
; CHECK-LABEL: define ptx_kernel void @undef_regs(
; CHECK:         %v = insertelement <4 x i32> zeroinitializer, i32 %a, i32 0
; CHECK:         %p = phi i64 [ 0, %t ], [ %x, %{{.*}} ]
; CHECK:         %f = freeze i32 0
; CHECK:         %s = shufflevector <4 x i32> %w, <4 x i32> zeroinitializer, <4 x i32> <i32 0, i32 4, i32 1, i32 4>
; CHECK-LABEL: define ptx_kernel void @bool_lanes(
; CHECK:         %atoll.lane.slot = alloca <5 x i8>
; CHECK:         call i64 @llvm.umin.i64(i64 {{%.*}}, i64 4)
; CHECK:         zext <5 x i1> %m to <5 x i8>
; CHECK-NEXT:    store <5 x i8> {{%.*}}, ptr %atoll.lane.slot
; CHECK:         %e = trunc i8 {{%.*}} to i1
; CHECK-LABEL: define ptx_kernel void @out_of_range_and_insert(
; CHECK:         %c = extractelement <4 x i32> %w, i32 2
; CHECK:         call i64 @llvm.umin.i64(i64 9, i64 3)
; CHECK:         %r = load <4 x i32>, ptr %atoll.lane.slot
; No undef or poison is left anywhere in the kernels (attributes name both).
; NOUNDEF-NOT:   {{\bundef\b|\bpoison\b}}
; NOUNDEF:       define ptx_kernel void @out_of_range_and_insert(
; NOUNDEF-NOT:   {{\bundef\b|\bpoison\b}}

; Every lane of the temporary is written (no stale lane), the index is clamped.
; PTX-LABEL: .entry lane(
; PTX:         st.local.v4.b32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, 0, 0, 0};
; PTX:         st.local.v4.b32 [{{%rd[0-9]+}}+16], {0, 0, 0, 0};
; PTX-LABEL: .entry undef_regs(
; PTX:         st.global.v4.b32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, 0, 0, 0};

define ptx_kernel void @lane(ptr %out, i32 %a, i32 %i) {
  %v = insertelement <8 x i32> poison, i32 %a, i32 0
  %e = extractelement <8 x i32> %v, i32 %i
  store i32 %e, ptr %out, align 4
  ret void
}

define ptx_kernel void @undef_regs(ptr %out, i32 %a, i64 %c, <4 x i32> %w) {
entry:
  %v = insertelement <4 x i32> poison, i32 %a, i32 0
  store <4 x i32> %v, ptr %out, align 16
  %x = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %b = icmp eq i64 %x, %c
  br i1 %b, label %t, label %e
t:
  br label %e
e:
  %p = phi i64 [ undef, %t ], [ %x, %entry ]
  %o = getelementptr i8, ptr %out, i64 16
  store i64 %p, ptr %o, align 8
  %f = freeze i32 poison
  %o2 = getelementptr i8, ptr %out, i64 24
  store i32 %f, ptr %o2, align 4
  %s = shufflevector <4 x i32> %w, <4 x i32> poison, <4 x i32> <i32 0, i32 poison, i32 1, i32 poison>
  %o3 = getelementptr i8, ptr %out, i64 32
  store <4 x i32> %s, ptr %o3, align 16
  ret void
}

define ptx_kernel void @bool_lanes(ptr %out, <5 x i8> %mb, i32 %i) {
  %m = trunc <5 x i8> %mb to <5 x i1>
  %e = extractelement <5 x i1> %m, i32 %i
  %z = zext i1 %e to i8
  store i8 %z, ptr %out
  ret void
}

define ptx_kernel void @out_of_range_and_insert(ptr %out, <4 x i32> %w, i32 %x, i64 %i) {
  %c = extractelement <4 x i32> %w, i32 2
  %d = extractelement <4 x i32> %w, i32 9
  %s = add i32 %c, %d
  %r = insertelement <4 x i32> %w, i32 %s, i64 %i
  store <4 x i32> %r, ptr %out, align 16
  ret void
}

declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
