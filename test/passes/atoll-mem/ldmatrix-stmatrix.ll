; ldmatrix/stmatrix m8n8: each thread names one 16-byte row in shared memory. A
; row in a static shared object is confined into it; any other operand, even a
; generic kernel pointer (global), is confined into the shared window, since
; ldmatrix on a non-shared address faults. Refused: an addrspace(1) overload.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; The entry checks (R6-F3) are tested in preempt-entry-drain.ll; here the PTX is
; checked without them so that the access sequence stays contiguous.
; RUN: %opt-atoll -passes=atoll-mem -atoll-preempt-entry-budget=16384 %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@a = internal addrspace(3) global [128 x i16] undef, align 16

define ptx_kernel void @mma_tiles(ptr %p, i64 %row, ptr %out) {
  %r = getelementptr [8 x i16], ptr addrspace(3) @a, i64 %row
  %f = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %r)
  %f0 = extractvalue { i32, i32, i32, i32 } %f, 0
  %g = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.trans.b16.p0(ptr %p)
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %r, i32 %g)
  %s = add i32 %f0, %g
  store i32 %s, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @mma_tiles(
; CHECK:         %atoll.smem.lim = sub i64 %atoll.smem.bytes, 16
; CHECK:       atoll.body:
; A row of the 256-byte object: offset <= 240, 16-aligned.
; CHECK-NEXT:    %r = getelementptr [8 x i16], ptr addrspace(3) @a, i64 %row
; CHECK-NEXT:    [[O0:%.*]] = mul i64 %row, 16
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[OPQT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT0]], i32 240)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -16
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr addrspace(3) @a, i64 [[Z0]]
; ldmatrix/stmatrix are .sync.aligned: they run only when the whole warp is
; there (activemask == all lanes), else they are skipped with zero results (two
; halves of a warp at two different such instructions hang: warp_probe case 24).
; CHECK-NEXT:    [[AM0:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[WH0:%.*]] = icmp eq i32 [[AM0]], -1
; CHECK-NEXT:    br i1 [[WH0]], label %[[COLL0:atoll.warp.collective[0-9]*]], label %[[JOIN0:atoll.warp.join[0-9]*]]
; CHECK:       [[COLL0]]:
; CHECK-NEXT:    %f = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) [[P0]])
; CHECK-NEXT:    br label %[[JOIN0]]
; CHECK:       [[JOIN0]]:
; CHECK-NEXT:    %f.or.zero = phi { i32, i32, i32, i32 } [ %f, %[[COLL0]] ], [ zeroinitializer, %atoll.body ]
; The generic kernel pointer: into the shared window, not the arena.
; CHECK-NEXT:    %f0 = extractvalue { i32, i32, i32, i32 } %f.or.zero, 0
; CHECK-NEXT:    [[S1:%.*]] = addrspacecast ptr %p to ptr addrspace(3)
; CHECK-NEXT:    [[R1:%.*]] = ptrtoint ptr addrspace(3) [[S1]] to i64
; CHECK-NEXT:    [[R1F:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R1]]
; CHECK-NEXT:    [[O1:%.*]] = sub i64 [[R1F]], %atoll.smem.lo
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[L1:%.*]] = trunc i64 %atoll.smem.lim to i32
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[T1]], i32 [[L1]])
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -16
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[W1:%.*]] = add i64 %atoll.smem.lo, [[Z1]]
; CHECK-NEXT:    [[SP1:%.*]] = inttoptr i64 [[W1]] to ptr addrspace(3)
; CHECK-NEXT:    [[G1:%.*]] = addrspacecast ptr addrspace(3) [[SP1]] to ptr
; CHECK-NEXT:    [[AM1:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[WH1:%.*]] = icmp eq i32 [[AM1]], -1
; CHECK-NEXT:    br i1 [[WH1]], label %[[COLL1:atoll.warp.collective[0-9]*]], label %[[JOIN1:atoll.warp.join[0-9]*]]
; CHECK:       [[COLL1]]:
; CHECK-NEXT:    %g = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.trans.b16.p0(ptr [[G1]])
; CHECK-NEXT:    br label %[[JOIN1]]
; CHECK:       [[JOIN1]]:
; CHECK-NEXT:    %g.or.zero = phi i32 [ %g, %[[COLL1]] ], [ 0, %[[JOIN0]] ]
; CHECK-NEXT:    [[O2:%.*]] = mul i64 %row, 16
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 240)
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -16
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr addrspace(3) @a, i64 [[Z2]]
; CHECK-NEXT:    [[AM2:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[WH2:%.*]] = icmp eq i32 [[AM2]], -1
; CHECK-NEXT:    br i1 [[WH2]], label %[[COLL2:atoll.warp.collective[0-9]*]], label %[[JOIN2:atoll.warp.join[0-9]*]]
; CHECK:       [[COLL2]]:
; CHECK-NEXT:    call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) [[P2]], i32 %g.or.zero)
; CHECK-NEXT:    br label %[[JOIN2]]
; CHECK:       [[JOIN2]]:
; CHECK-NEXT:    %s = add i32 %f0, %g.or.zero

; PTX-LABEL: .entry mma_tiles(
; PTX:         activemask.b32 [[AM0:%r[0-9]+]];
; PTX-NEXT:    setp.{{ne|eq}}.b32 [[W0:%p[0-9]+]], [[AM0]], -1;
; PTX:         @[[W0]] bra
; PTX:         min.u32 [[C0:%r[0-9]+]], {{%r[0-9]+}}, 240;
; PTX-NEXT:    and.b32 [[C0A:%r[0-9]+]], [[C0]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[C0A]];
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z0]];
; PTX-NEXT:    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{.*}}, {{\[}}[[A0]]{{\]}};
; PTX:         and.b32 [[A1:%r[0-9]+]], {{%r[0-9]+}}, -16;
; PTX-NEXT:    cvt.u64.u32 [[Z1:%rd[0-9]+]], [[A1]];
; PTX-NEXT:    add.s64 [[W1:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z1]];
; PTX-NEXT:    cvta.shared.u64 [[G1:%rd[0-9]+]], [[W1]];
; PTX-NEXT:    activemask.b32 [[AM1:%r[0-9]+]];
; PTX-NEXT:    setp.ne.b32 [[WP1:%p[0-9]+]], [[AM1]], -1;
; PTX-NEXT:    @[[WP1]] bra
; PTX:         ldmatrix.sync.aligned.m8n8.x1.trans.b16 {{.*}}, {{\[}}[[G1]]{{\]}};
; The same offset again: the object clamp's opaque step is not CSE'd by the DAG.
; PTX:         activemask.b32
; PTX:         min.u32 [[C2:%r[0-9]+]], {{%r[0-9]+}}, 240;
; PTX:         stmatrix.sync.aligned.m8n8.x1.shared.b16 {{\[}}{{%rd[0-9]+}}{{\]}},
