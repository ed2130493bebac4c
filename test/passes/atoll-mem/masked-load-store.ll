; llvm.masked.load/store: the whole vector (every lane, masked or not) is kept
; inside the window; the alignment is the pointer operand's align attribute.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sm = internal addrspace(3) global [32 x float] undef, align 16

; The mask arrives as bytes: a <4 x i1> parameter is refused (its PTX .param is
; read past its end).
define ptx_kernel void @masked(ptr %p, i64 %i, <4 x i8> %mb) {
  %m = trunc <4 x i8> %mb to <4 x i1>
  %a = getelementptr float, ptr %p, i64 %i
  %v = call <4 x float> @llvm.masked.load.v4f32.p0(ptr align 4 %a, <4 x i1> %m, <4 x float> zeroinitializer)
  %s = getelementptr float, ptr addrspace(3) @sm, i64 %i
  call void @llvm.masked.store.v4f32.p3(<4 x float> %v, ptr addrspace(3) align 16 %s, <4 x i1> %m)
  %loc = alloca [8 x float], align 4
  %l = getelementptr float, ptr %loc, i64 %i
  call void @llvm.masked.store.v4f32.p0(<4 x float> %v, ptr align 4 %l, <4 x i1> %m)
  ret void
}

; Global, align 4, 16 bytes: mask and umin with (window - 16) & -4.
; MASK-LABEL: define ptx_kernel void @masked(
; MASK:         [[S16:%.*]] = sub i64 %atoll.arena.window, 16
; MASK-NEXT:    [[AL:%.*]] = and i64 [[S16]], -4
; MASK-NEXT:    [[LIM:%.*]] = trunc i64 [[AL]] to i32
; MASK:         %a = getelementptr float, ptr %p, i64 %i
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %a to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[T0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[T0]], %atoll.arena.mask.a4
; MASK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIM]])
; MASK-NEXT:    [[Z0:%.*]] = zext i32 [[C0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[Z0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    %v = call <4 x float> @llvm.masked.load.v4f32.p0(ptr align 4 [[X0]], <4 x i1> %m, <4 x float> zeroinitializer)
; Shared object of 128 bytes, 16-byte vector: offset <= 112, 16-aligned.
; MASK-NEXT:    %s = getelementptr float, ptr addrspace(3) @sm, i64 %i
; MASK-NEXT:    [[O1:%.*]] = mul i64 %i, 4
; MASK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; MASK-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 112)
; MASK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -16
; MASK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; MASK-NEXT:    [[X1:%.*]] = getelementptr i8, ptr addrspace(3) @sm, i64 [[Z1]]
; MASK-NEXT:    call void @llvm.masked.store.v4f32.p3(<4 x float> %v, ptr addrspace(3) align 16 [[X1]], <4 x i1> %m)
; Stack object of 32 bytes: offset <= 16, 4-aligned.
; MASK-NEXT:    %l = getelementptr float, ptr %loc, i64 %i
; MASK-NEXT:    [[O2:%.*]] = mul i64 %i, 4
; MASK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; MASK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; MASK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 16)
; MASK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -4
; MASK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; MASK-NEXT:    [[X2:%.*]] = getelementptr i8, ptr %loc, i64 [[Z2]]
; MASK-NEXT:    call void @llvm.masked.store.v4f32.p0(<4 x float> %v, ptr align 4 [[X2]], <4 x i1> %m)

; MOD-LABEL: define ptx_kernel void @masked(
; MOD:         [[C0:%.*]] = call i64 @llvm.umin.i64(i64 {{%.*}}, i64 %atoll.lim)
; MOD-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; MOD-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; MOD-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MOD-NEXT:    [[X0:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MOD-NEXT:    %v = call <4 x float> @llvm.masked.load.v4f32.p0(ptr align 4 [[X0]], <4 x i1> %m, <4 x float> zeroinitializer)
; MOD:         [[T1:%.*]] = trunc i64 %atoll.obj.off to i32
; MOD-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; MOD-NEXT:    call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 112)
; MOD:         [[T2:%.*]] = trunc i64 %atoll.obj.off2 to i32
; MOD-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; MOD-NEXT:    call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 16)
