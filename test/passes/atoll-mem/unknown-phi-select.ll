; Phis and selects: of two pointers into the same space they keep that space (and
; the object when it is the same); of a shared and a global pointer the space is
; unknown and the run-time space test decides.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x float] undef, align 4

define ptx_kernel void @mixed(ptr %buf, i1 %c, i64 %i, float %x) {
entry:
  %sh = addrspacecast ptr addrspace(3) @tile to ptr
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %base = phi ptr [ %sh, %a ], [ %buf, %b ]
  %p = getelementptr float, ptr %base, i64 %i
  store float %x, ptr %p, align 4
  %q = select i1 %c, ptr %buf, ptr %p
  %v = load float, ptr %q, align 4
  %t = select i1 %c, ptr addrspace(3) @tile, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tile, i64 64)
  %t2 = getelementptr float, ptr addrspace(3) %t, i64 %i
  store float %v, ptr addrspace(3) %t2, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @mixed(
; CHECK:       join:
; CHECK-NEXT:    %base = phi ptr [ %sh, %a ], [ %buf, %b ]
; CHECK-NEXT:    %p = getelementptr float, ptr %base, i64 %i
; CHECK-NEXT:    [[PF0:%atoll.ptr.fr[0-9]*]] = freeze ptr %p
; CHECK-NEXT:    [[IS:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF0]])
; CHECK:         [[SEL:%atoll.generic]] = select i1 [[IS]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    store float %x, ptr [[SEL]], align 4
; A select of global and (shared or global): unknown as well.
; CHECK-NEXT:    %q = select i1 %c, ptr %buf, ptr %p
; CHECK-NEXT:    [[PF1:%atoll.ptr.fr[0-9]*]] = freeze ptr %q
; CHECK-NEXT:    [[IS2:%.*]] = call i1 @llvm.nvvm.isspacep.shared(ptr [[PF1]])
; CHECK:         [[SEL2:%.*]] = select i1 [[IS2]], ptr {{%.*}}, ptr {{%.*}}
; CHECK-NEXT:    %v = load float, ptr [[SEL2]], align 4
; Two offsets into the same shared object: confined into @tile. The pointer is
; not @tile plus GEPs (a select in between): the offset is the address difference.
; CHECK-NEXT:    %t = select i1 %c,
; CHECK-NEXT:    %t2 = getelementptr float, ptr addrspace(3) %t, i64 %i
; CHECK-NEXT:    [[R3:%.*]] = ptrtoint ptr addrspace(3) %t2 to i64
; CHECK-NEXT:    [[O3:%.*]] = sub i64 [[R3]], ptrtoint (ptr addrspace(3) @tile to i64)
; CHECK-NEXT:    [[T3:%.*]] = trunc i64 [[O3]] to i32
; CHECK-NEXT:    [[OPQT3:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T3]])
; CHECK-NEXT:    [[C3:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT3]], i32 124)
; CHECK-NEXT:    [[A3:%.*]] = and i32 [[C3]], -4
; CHECK-NEXT:    [[Z3:%.*]] = zext i32 [[A3]] to i64
; CHECK-NEXT:    [[P3:%.*]] = getelementptr i8, ptr addrspace(3) @tile, i64 [[Z3]]
; CHECK-NEXT:    store float %v, ptr addrspace(3) [[P3]], align 4
