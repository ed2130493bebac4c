; The warp-collective guard comes from the intrinsic table's column
; (AlignedWarpCollective, IntrinsicTable.cpp), for every ldmatrix/stmatrix row:
; here stmatrix .x4 .trans, which no other test names. It runs only when
; %activemask names the whole warp (R3-F1b: two halves of a warp at two
; different .aligned instructions wait for each other forever).
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i16] undef, align 16

define ptx_kernel void @store_tile(i64 %row, i32 %a, i32 %b, i32 %c, i32 %d) {
  %p = getelementptr [8 x i16], ptr addrspace(3) @tile, i64 %row
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %p, i32 %a, i32 %b, i32 %c, i32 %d)
  ret void
}

declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3), i32, i32, i32, i32)

; CHECK-LABEL: define ptx_kernel void @store_tile(
; CHECK:         [[AM:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[W:%atoll.warp.whole]] = icmp eq i32 [[AM]], -1
; CHECK-NEXT:    br i1 [[W]], label %[[C:atoll.warp.collective]], label %[[J:atoll.warp.join]]
; CHECK:       [[C]]:
; CHECK-NEXT:    call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %atoll.obj.addr, i32 %a, i32 %b, i32 %c, i32 %d)
; CHECK-NEXT:    br label %[[J]]
; CHECK:       [[J]]:
; CHECK-NEXT:    ret void
