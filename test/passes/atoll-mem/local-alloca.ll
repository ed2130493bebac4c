; Stack arrays: an access through an alloca (clang's generic pointers, and an
; addrspace(5) cast of one) is confined into that alloca,
;   obj + zext(umin(trunc32(p - obj), objsize - S) & ~(A-1)),
; with p - obj taken from the GEP indices,
; the same in both modes; the alloca is zeroed at entry.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @stack(i64 %i, i64 %j, ptr %out) {
  %arr = alloca [16 x i32], align 4
  %p = getelementptr i32, ptr %arr, i64 %i
  store i32 7, ptr %p, align 4
  %l = addrspacecast ptr %arr to ptr addrspace(5)
  %q = getelementptr i32, ptr addrspace(5) %l, i64 %j
  %v = load i32, ptr addrspace(5) %q, align 4
  %wide = load <2 x i32>, ptr %p, align 4
  %w0 = extractelement <2 x i32> %wide, i32 0
  %s = add i32 %v, %w0
  store i32 %s, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @stack(
; CHECK-NEXT:    %arr = alloca [16 x i32], align 4
; CHECK:         call void @llvm.memset.p0.i64(ptr align 4 %arr, i8 0, i64 64, i1 false)
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr i32, ptr %arr, i64 %i
; CHECK-NEXT:    [[O0:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[OPQT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT0]], i32 60)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr %arr, i64 [[Z0]]
; CHECK-NEXT:    store i32 7, ptr [[P0]], align 4
; The local-space view: the object is the same alloca, cast to addrspace(5).
; CHECK-NEXT:    %l = addrspacecast ptr %arr to ptr addrspace(5)
; CHECK-NEXT:    %q = getelementptr i32, ptr addrspace(5) %l, i64 %j
; CHECK-NEXT:    [[O1:%.*]] = mul i64 %j, 4
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 60)
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr addrspace(5) %arr.atoll, i64 [[Z1]]
; CHECK-NEXT:    %v = load i32, ptr addrspace(5) [[P1]], align 4
; 8 bytes align 4: offset <= 56.
; CHECK-NEXT:    [[O2:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 56)
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -4
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr %arr, i64 [[Z2]]
; CHECK-NEXT:    %wide = load <2 x i32>, ptr [[P2]], align 4

; PTX-LABEL: .entry stack(
; PTX:         .local .align 4 .b8 __local_depot0[64];
; PTX:         st.local.b32 [{{%rd[0-9]+}}], 0;
; PTX:         min.u32 [[C0:%r[0-9]+]], {{%r[0-9]+}}, 60;
; PTX-NEXT:    and.b32 [[C0A:%r[0-9]+]], [[C0]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[C0A]];
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z0]];
; PTX-NEXT:    st.local.b32 {{\[}}[[A0]]{{\]}}, 7;
; PTX:         min.u32 [[C1:%r[0-9]+]], {{%r[0-9]+}}, 60;
; PTX-NEXT:    and.b32 [[C1A:%r[0-9]+]], [[C1]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z1:%rd[0-9]+]], [[C1A]];
; PTX-NEXT:    add.s64 [[A1:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z1]];
; PTX-NEXT:    ld.local.b32 {{%r[0-9]+}}, {{\[}}[[A1]]{{\]}};
; PTX:         min.u32 [[C2:%r[0-9]+]], {{%r[0-9]+}}, 56;
