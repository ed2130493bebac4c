; Accesses Base + C of different alignments share one clamp: clang -O2 splits a
; float4 into four float accesses at offsets 0, 4, 8, 12 with the alignments 16,
; 4, 8, 4. The group's alignment is the members' largest (16): each C is a
; multiple of its member's alignment, so Base is 16-aligned in a correct program,
; the single clamp keeps it 16-aligned (mask & -16 in the arena, & -16 after the
; umin in an object), and the backend re-forms one 16-byte vector access
; (ld/st.v4). Were the alignment part of the group key, each alignment would get
; its own clamp (and the align-4/-8 masks), and no vector access would form.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 16

define ptx_kernel void @global_float4(ptr %in, ptr %out, i64 %i) {
  %p = getelementptr <4 x float>, ptr %in, i64 %i
  %p4 = getelementptr inbounds nuw i8, ptr %p, i64 4
  %p8 = getelementptr inbounds nuw i8, ptr %p, i64 8
  %p12 = getelementptr inbounds nuw i8, ptr %p, i64 12
  %x = load float, ptr %p, align 16
  %y = load float, ptr %p4, align 4
  %z = load float, ptr %p8, align 8
  %w = load float, ptr %p12, align 4
  %q = getelementptr <4 x float>, ptr %out, i64 %i
  %q4 = getelementptr inbounds nuw i8, ptr %q, i64 4
  %q8 = getelementptr inbounds nuw i8, ptr %q, i64 8
  %q12 = getelementptr inbounds nuw i8, ptr %q, i64 12
  store float %w, ptr %q, align 16
  store float %z, ptr %q4, align 4
  store float %y, ptr %q8, align 8
  store float %x, ptr %q12, align 4
  ret void
}

define ptx_kernel void @shared_float4(ptr %out, i64 %i) {
  %p = getelementptr <4 x float>, ptr addrspace(3) @tile, i64 %i
  %p4 = getelementptr inbounds nuw i8, ptr addrspace(3) %p, i64 4
  %p8 = getelementptr inbounds nuw i8, ptr addrspace(3) %p, i64 8
  %p12 = getelementptr inbounds nuw i8, ptr addrspace(3) %p, i64 12
  %x = load float, ptr addrspace(3) %p, align 16
  %y = load float, ptr addrspace(3) %p4, align 4
  %z = load float, ptr addrspace(3) %p8, align 8
  %w = load float, ptr addrspace(3) %p12, align 4
  %s0 = fadd float %x, %y
  %s1 = fadd float %z, %w
  %s = fadd float %s0, %s1
  store float %s, ptr %out, align 4
  ret void
}

; Arena: only the align-16 mask exists; one clamp per float4, four members each.
; CHECK-LABEL: define ptx_kernel void @global_float4(
; CHECK-NOT:     %atoll.arena.mask.a4
; CHECK-NOT:     %atoll.arena.mask.a8
; CHECK:         %atoll.arena.mask.a16 = and i32 %atoll.arena.mask32, -16
; CHECK-NOT:     %atoll.arena.mask.a4
; CHECK-NOT:     %atoll.arena.mask.a8
; CHECK:       atoll.body:
; CHECK:         %p12 = getelementptr inbounds nuw i8, ptr %p, i64 12
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[PF]] to i32
; CHECK-NEXT:    [[O:%.*]] = and i32 [[T]], %atoll.arena.mask.a16
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
; CHECK-NEXT:    [[A:%.*]] = or i64 %atoll.arena.base, [[Z]]
; CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; CHECK-NEXT:    [[B:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK-NEXT:    [[B0:%.*]] = getelementptr i8, ptr [[B]], i64 0
; CHECK-NEXT:    %x = load float, ptr [[B0]], align 16
; CHECK-NEXT:    [[B4:%.*]] = getelementptr i8, ptr [[B]], i64 4
; CHECK-NEXT:    %y = load float, ptr [[B4]], align 4
; CHECK-NEXT:    [[B8:%.*]] = getelementptr i8, ptr [[B]], i64 8
; CHECK-NEXT:    %z = load float, ptr [[B8]], align 8
; CHECK-NEXT:    [[B12:%.*]] = getelementptr i8, ptr [[B]], i64 12
; CHECK-NEXT:    %w = load float, ptr [[B12]], align 4
; The stores: again one clamp (align 16) and four members.
; CHECK:         %q12 = getelementptr inbounds nuw i8, ptr %q, i64 12
; CHECK-NEXT:    [[QP:%.*]] = ptrtoint ptr %q to i64
; CHECK-NEXT:    [[QPF:%atoll.addr.fr[0-9]*]] = freeze i64 [[QP]]
; CHECK-NEXT:    [[QT:%.*]] = trunc i64 [[QPF]] to i32
; CHECK-NEXT:    [[QO:%.*]] = and i32 [[QT]], %atoll.arena.mask.a16
; CHECK-NEXT:    [[QZ:%.*]] = zext i32 [[QO]] to i64
; CHECK-NEXT:    [[QA:%.*]] = or i64 %atoll.arena.base, [[QZ]]
; CHECK-NEXT:    [[QG:%.*]] = inttoptr i64 [[QA]] to ptr addrspace(1)
; CHECK-NEXT:    [[QB:%.*]] = addrspacecast ptr addrspace(1) [[QG]] to ptr
; CHECK-NEXT:    [[Q0:%.*]] = getelementptr i8, ptr [[QB]], i64 0
; CHECK-NEXT:    store float %w, ptr [[Q0]], align 16
; CHECK-NEXT:    [[Q4:%.*]] = getelementptr i8, ptr [[QB]], i64 4
; CHECK-NEXT:    store float %z, ptr [[Q4]], align 4
; CHECK-NEXT:    [[Q8:%.*]] = getelementptr i8, ptr [[QB]], i64 8
; CHECK-NEXT:    store float %y, ptr [[Q8]], align 8
; CHECK-NEXT:    [[Q12:%.*]] = getelementptr i8, ptr [[QB]], i64 12
; CHECK-NEXT:    store float %x, ptr [[Q12]], align 4
; CHECK-NEXT:    ret void

; Shared object: one clamp of the float4's offset (limit 256 - 16, aligned to 16)
; for the four loads; no clamp aligned to 4 or 8.
; CHECK-LABEL: define ptx_kernel void @shared_float4(
; CHECK:         %p12 = getelementptr inbounds nuw i8, ptr addrspace(3) %p, i64 12
; CHECK-NEXT:    [[SO:%.*]] = mul i64 %i, 16
; CHECK-NEXT:    [[ST:%.*]] = trunc i64 [[SO]] to i32
; CHECK-NEXT:    [[OPQST:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[ST]])
; CHECK-NEXT:    [[SC:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQST]], i32 240)
; CHECK-NEXT:    [[SA:%.*]] = and i32 [[SC]], -16
; CHECK-NEXT:    [[SZ:%.*]] = zext i32 [[SA]] to i64
; CHECK-NEXT:    [[SB:%.*]] = getelementptr i8, ptr addrspace(3) @tile, i64 [[SZ]]
; CHECK-NEXT:    [[S0:%.*]] = getelementptr i8, ptr addrspace(3) [[SB]], i64 0
; CHECK-NEXT:    %x = load float, ptr addrspace(3) [[S0]], align 16
; CHECK-NEXT:    [[S4:%.*]] = getelementptr i8, ptr addrspace(3) [[SB]], i64 4
; CHECK-NEXT:    %y = load float, ptr addrspace(3) [[S4]], align 4
; CHECK-NEXT:    [[S8:%.*]] = getelementptr i8, ptr addrspace(3) [[SB]], i64 8
; CHECK-NEXT:    %z = load float, ptr addrspace(3) [[S8]], align 8
; CHECK-NEXT:    [[S12:%.*]] = getelementptr i8, ptr addrspace(3) [[SB]], i64 12
; CHECK-NEXT:    %w = load float, ptr addrspace(3) [[S12]], align 4
; CHECK-NOT:     @llvm.umin.i32
; CHECK:         ret void

; The backend re-forms the 16-byte accesses.
; PTX-LABEL: .entry global_float4(
; PTX-NOT:     ld.global.b32
; PTX:         ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [{{%rd[0-9]+}}];
; PTX-NOT:     st.global.b32
; PTX:         st.global.v4.b32 [{{%rd[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
; PTX-LABEL: .entry shared_float4(
; PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 240;
; PTX-NOT:     ld.shared.b32
; PTX:         ld.shared.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [{{%rd[0-9]+}}];
; PTX-NOT:     ld.shared.b32
; PTX:         ret;
