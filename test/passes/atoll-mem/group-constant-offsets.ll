; Accesses Base + C into one object, in one block, share a single clamp of Base
; (limit: object size - max(C + S)); C stays an immediate. (Members of different
; alignments share it too: group-mixed-alignment.ll.)
; Accesses in different blocks are clamped on their own.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s | %llc-sm90 | FileCheck %s --check-prefix=PTX
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define ptx_kernel void @same_block(
; CHECK:         [[OFF:%atoll.obj.off]] = mul i64 {{%.*}}, 4
; CHECK-NEXT:    [[T:%.*]] = trunc i64 [[OFF]] to i32
; CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
; CHECK-NEXT:    [[CL:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 244)
; CHECK:         [[BASE:%atoll.obj.addr]] = getelementptr i8, ptr addrspace(3) @tile, i64
; CHECK-NEXT:    %atoll.grp.addr = getelementptr i8, ptr addrspace(3) [[BASE]], i64 0
; CHECK-NEXT:    load float, ptr addrspace(3) %atoll.grp.addr, align 4
; CHECK-NEXT:    %atoll.grp.addr1 = getelementptr i8, ptr addrspace(3) [[BASE]], i64 4
; CHECK-NEXT:    load float, ptr addrspace(3) %atoll.grp.addr1, align 4
; CHECK-NEXT:    %atoll.grp.addr2 = getelementptr i8, ptr addrspace(3) [[BASE]], i64 8
; CHECK-NEXT:    load float, ptr addrspace(3) %atoll.grp.addr2, align 4
; CHECK-NOT:     llvm.umin
; CHECK:         ret void
; PTX-LABEL: .entry same_block(
; PTX:         min.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 244;
; PTX-NOT:     min.u32
; PTX:         ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R:%rd[0-9]+]]{{\]}};
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]+4{{\]}};
; PTX-NEXT:    ld.shared.b32 {{%r[0-9]+}}, {{\[}}[[R]]+8{{\]}};
define ptx_kernel void @same_block(i32 %i, ptr %out) {
  %b = getelementptr float, ptr addrspace(3) @tile, i32 %i
  %p1 = getelementptr i8, ptr addrspace(3) %b, i64 4
  %p2 = getelementptr i8, ptr addrspace(3) %b, i64 8
  %x0 = load float, ptr addrspace(3) %b, align 4
  %x1 = load float, ptr addrspace(3) %p1, align 4
  %x2 = load float, ptr addrspace(3) %p2, align 4
  %s = fadd float %x0, %x1
  %t = fadd float %s, %x2
  store float %t, ptr %out, align 4
  ret void
}

; The second access only runs on one path: it may not tighten the first's clamp
; (limit 252 - 36 = 216 would); each is clamped on its own, the second as a whole.
; CHECK-LABEL: define ptx_kernel void @two_blocks(
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 252)
; CHECK:       far:
; CHECK:         [[O2:%atoll.obj.off[0-9]*]] = add i64 36, {{%.*}}
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 252)
; CHECK-NOT:     {{i32|i64}} 216
define ptx_kernel void @two_blocks(i32 %i, i1 %c, ptr %out) {
  %b = getelementptr float, ptr addrspace(3) @tile, i32 %i
  %x0 = load float, ptr addrspace(3) %b, align 4
  store float %x0, ptr %out, align 4
  br i1 %c, label %far, label %done
far:
  %p = getelementptr i8, ptr addrspace(3) %b, i64 36
  %x1 = load float, ptr addrspace(3) %p, align 4
  store float %x1, ptr %out, align 4
  br label %done
done:
  ret void
}

; Global accesses p + 0 and p + 4 in one block share one arena clamp: the arena
; counts as their object (mask mode: and, umin to window - 8, or; then + C).
; CHECK-LABEL: define ptx_kernel void @global_pair(
; CHECK:         [[S8:%.*]] = sub i64 %atoll.arena.window, 8
; CHECK-NEXT:    %atoll.align = and i64 [[S8]], -4
; CHECK-NEXT:    [[LIM:%.*]] = trunc i64 %atoll.align to i32
; CHECK:         %atoll.off = and i32 {{%.*}}, %atoll.arena.mask.a4
; CHECK-NEXT:    %atoll.off.clamped = call i32 @llvm.umin.i32(i32 %atoll.off, i32 [[LIM]])
; CHECK-NEXT:    [[Z:%.*]] = zext i32 %atoll.off.clamped to i64
; CHECK-NEXT:    %atoll.addr = or i64 %atoll.arena.base, [[Z]]
; CHECK:         [[G:%.*]] = addrspacecast ptr addrspace(1) %atoll.global to ptr
; CHECK-NEXT:    %atoll.grp.addr = getelementptr i8, ptr [[G]], i64 0
; CHECK-NEXT:    load i32, ptr %atoll.grp.addr, align 4
; CHECK-NEXT:    %atoll.grp.addr{{[0-9]+}} = getelementptr i8, ptr [[G]], i64 4
; CHECK-NOT:     llvm.umin
; PTX-LABEL: .entry global_pair(
; PTX:         min.u32
; PTX-NOT:     min.u32
; PTX:         ld.global.b32 {{%r[0-9]+}}, {{\[}}[[Q:%rd[0-9]+]]{{\]}};
; PTX:         ld.global.b32 {{%r[0-9]+}}, {{\[}}[[Q]]+4{{\]}};
define ptx_kernel void @global_pair(ptr %nodes, i64 %i, ptr %out) {
  %n = getelementptr [2 x i32], ptr %nodes, i64 %i
  %p1 = getelementptr i8, ptr %n, i64 4
  %a = load i32, ptr %n, align 4
  %b = load i32, ptr %p1, align 4
  %s = add i32 %a, %b
  store i32 %s, ptr %out, align 4
  ret void
}
