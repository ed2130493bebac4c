; Stack arrays: an access through an alloca (clang's generic pointers, and an
; addrspace(5) cast of one) is confined into that alloca,
;   obj + (umin(p - obj, objsize - S) & ~(A-1)),
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
; CHECK-NEXT:    [[R0:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[B0:%.*]] = ptrtoint ptr %arr to i64
; CHECK-NEXT:    [[O0:%.*]] = sub i64 [[R0]], [[B0]]
; CHECK-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[O0]], i64 60)
; CHECK-NEXT:    [[A0:%.*]] = and i64 [[C0]], -4
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr %arr, i64 [[A0]]
; CHECK-NEXT:    store i32 7, ptr [[P0]], align 4
; The local-space view: the object is the same alloca, cast to addrspace(5).
; CHECK-NEXT:    %l = addrspacecast ptr %arr to ptr addrspace(5)
; CHECK-NEXT:    %q = getelementptr i32, ptr addrspace(5) %l, i64 %j
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr addrspace(5) %q to i64
; CHECK-NEXT:    [[B1:%.*]] = ptrtoint ptr addrspace(5) %arr.atoll to i64
; CHECK-NEXT:    [[O1:%.*]] = sub i64 [[R1]], [[B1]]
; CHECK-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[O1]], i64 60)
; CHECK-NEXT:    [[A1:%.*]] = and i64 [[C1]], -4
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr addrspace(5) %arr.atoll, i64 [[A1]]
; CHECK-NEXT:    %v = load i32, ptr addrspace(5) [[P1]], align 4
; 8 bytes align 4: offset <= 56.
; CHECK-NEXT:    [[R2:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[B2:%.*]] = ptrtoint ptr %arr to i64
; CHECK-NEXT:    [[O2:%.*]] = sub i64 [[R2]], [[B2]]
; CHECK-NEXT:    [[C2:%.*]] = call i64 @llvm.umin.i64(i64 [[O2]], i64 56)
; CHECK-NEXT:    [[A2:%.*]] = and i64 [[C2]], -4
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr %arr, i64 [[A2]]
; CHECK-NEXT:    %wide = load <2 x i32>, ptr [[P2]], align 4

; PTX-LABEL: .entry stack(
; PTX:         .local .align 4 .b8 __local_depot0[64];
; PTX:         st.local.b32 [{{%rd[0-9]+}}], 0;
; PTX:         min.u64 [[C0:%rd[0-9]+]], {{%rd[0-9]+}}, 60;
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], {{%rd[0-9]+}}, [[C0]];
; PTX-NEXT:    st.local.b32 {{\[}}[[A0]]{{\]}}, 7;
; PTX:         min.u64 [[C1:%rd[0-9]+]], {{%rd[0-9]+}}, 60;
; PTX-NEXT:    add.s64 [[A1:%rd[0-9]+]], {{%rd[0-9]+}}, [[C1]];
; PTX-NEXT:    ld.local.b32 {{%r[0-9]+}}, {{\[}}[[A1]]{{\]}};
; PTX-NEXT:    min.u64 [[C2:%rd[0-9]+]], {{%rd[0-9]+}}, 56;
