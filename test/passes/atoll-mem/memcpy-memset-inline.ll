; The .inline forms of memcpy and memset are confined like the plain ones; a
; constant length beyond 256 bytes is cut against the windows at run time.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s --check-prefix=MASK
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s --check-prefix=MOD
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 16

define ptx_kernel void @inline_forms(ptr %dst, ptr %src, i64 %i) {
  call void @llvm.memcpy.inline.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 32, i1 false)
  %t = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  call void @llvm.memset.inline.p3.i64(ptr addrspace(3) align 4 %t, i8 0, i64 16, i1 false)
  call void @llvm.memset.inline.p0.i64(ptr align 4 %dst, i8 1, i64 1024, i1 false)
  ret void
}

; MASK-LABEL: define ptx_kernel void @inline_forms(
; MASK:         [[S32:%.*]] = sub i64 %atoll.arena.window, 32
; MASK-NEXT:    [[AD:%.*]] = and i64 [[S32]], -8
; MASK-NEXT:    [[LIMD:%.*]] = trunc i64 [[AD]] to i32
; MASK-NEXT:    [[S32B:%.*]] = sub i64 %atoll.arena.window, 32
; MASK-NEXT:    [[AS:%.*]] = and i64 [[S32B]], -8
; MASK-NEXT:    [[LIMS:%.*]] = trunc i64 [[AS]] to i32
; MASK:       atoll.body:
; MASK-NEXT:    [[P0:%.*]] = ptrtoint ptr %dst to i64
; MASK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; MASK-NEXT:    [[TO0:%.*]] = trunc i64 [[P0F]] to i32
; MASK-NEXT:    [[O0:%.*]] = and i32 [[TO0]], %atoll.arena.mask.a8
; MASK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[O0]], i32 [[LIMD]])
; MASK-NEXT:    [[ZC0:%.*]] = zext i32 [[C0]] to i64
; MASK-NEXT:    [[A0:%.*]] = or i64 %atoll.arena.base, [[ZC0]]
; MASK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; MASK-NEXT:    [[D:%.*]] = addrspacecast ptr addrspace(1) [[G0]] to ptr
; MASK-NEXT:    [[P1:%.*]] = ptrtoint ptr %src to i64
; MASK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; MASK-NEXT:    [[TO1:%.*]] = trunc i64 [[P1F]] to i32
; MASK-NEXT:    [[O1:%.*]] = and i32 [[TO1]], %atoll.arena.mask.a8
; MASK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[O1]], i32 [[LIMS]])
; MASK-NEXT:    [[ZC1:%.*]] = zext i32 [[C1]] to i64
; MASK-NEXT:    [[A1:%.*]] = or i64 %atoll.arena.base, [[ZC1]]
; MASK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; MASK-NEXT:    [[S:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; MASK-NEXT:    call void @llvm.memcpy.inline.p0.p0.i64(ptr align 8 [[D]], ptr align 8 [[S]], i64 32, i1 false)
; 16 bytes into the 256-byte shared object: offset clamped to 256 - 16 = 240.
; MASK-NEXT:    %t = getelementptr i32, ptr addrspace(3) @tile, i64 %i
; MASK-NEXT:    [[TO:%.*]] = mul i64 %i, 4
; MASK-NEXT:    [[T:%.*]] = trunc i64 [[TO]] to i32
; MASK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; MASK-NEXT:    [[TC:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 240)
; MASK-NEXT:    [[TA:%.*]] = and i32 [[TC]], -4
; MASK-NEXT:    [[TZ:%.*]] = zext i32 [[TA]] to i64
; MASK-NEXT:    [[TP:%.*]] = getelementptr i8, ptr addrspace(3) @tile, i64 [[TZ]]
; MASK-NEXT:    call void @llvm.memset.inline.p3.i64(ptr addrspace(3) align 4 [[TP]], i8 0, i64 16, i1 false)
; 1024 constant bytes: cut to the arena window at run time.
; MASK-NEXT:    [[L:%.*]] = call i64 @llvm.umin.i64(i64 1024, i64 %atoll.arena.window)
; MASK-NEXT:    [[P2:%.*]] = ptrtoint ptr %dst to i64
; MASK-NEXT:    [[P2F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P2]]
; MASK-NEXT:    [[TO2:%.*]] = trunc i64 [[P2F]] to i32
; MASK-NEXT:    [[O2:%.*]] = and i32 [[TO2]], %atoll.arena.mask.a4
; MASK-NEXT:    [[S2:%.*]] = sub i64 %atoll.arena.window, [[L]]
; MASK-NEXT:    [[LIM2:%.*]] = and i64 [[S2]], -4
; MASK-NEXT:    [[LIM232:%.*]] = trunc i64 [[LIM2]] to i32
; MASK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[O2]], i32 [[LIM232]])
; MASK-NEXT:    [[ZC2:%.*]] = zext i32 [[C2]] to i64
; MASK-NEXT:    [[A2:%.*]] = or i64 %atoll.arena.base, [[ZC2]]
; MASK-NEXT:    [[G2:%.*]] = inttoptr i64 [[A2]] to ptr addrspace(1)
; MASK-NEXT:    [[D2:%.*]] = addrspacecast ptr addrspace(1) [[G2]] to ptr
; MASK-NEXT:    call void @llvm.memset.inline.p0.i64(ptr align 4 [[D2]], i8 1, i64 [[L]], i1 false)

; MOD-LABEL: define ptx_kernel void @inline_forms(
; MOD:         call i64 @llvm.umin.i64(i64 {{%.*}}, i64 %atoll.lim)
; MOD:         call void @llvm.memcpy.inline.p0.p0.i64(ptr align 8 {{%.*}}, ptr align 8 {{%.*}}, i64 32, i1 false)
; MOD:         [[TT:%.*]] = trunc i64 %atoll.obj.off to i32
; MOD-NEXT:    [[OPQTT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[TT]])
; MOD-NEXT:    call i32 @llvm.umin.i32(i32 [[OPQTT]], i32 240)
; MOD:         [[L:%.*]] = call i64 @llvm.umin.i64(i64 1024, i64 %__atoll_arena_size)
; MOD:         [[LIM:%.*]] = sub i64 %__atoll_arena_size, [[L]]
; MOD-NEXT:    call i64 @llvm.umin.i64(i64 {{%.*}}, i64 [[LIM]])
; MOD:         call void @llvm.memset.inline.p0.i64(ptr align 4 {{%.*}}, i8 1, i64 [[L]], i1 false)
