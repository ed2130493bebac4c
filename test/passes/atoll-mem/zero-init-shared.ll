; A kernel that can reach shared memory zeroes the whole user shared window at
; entry, cooperatively (thread t of n zeroes words t, t + n, ...), then waits at a
; CTA barrier before any tenant code runs: no residue of an earlier kernel is
; readable. The pad is referenced so that the window is never empty.
; RUN: %opt-atoll -passes=atoll-mem -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x float] undef, align 4

define ptx_kernel void @uses_shared(i64 %i, ptr %out) {
  %p = getelementptr float, ptr addrspace(3) @tile, i64 %i
  %v = load float, ptr addrspace(3) %p, align 4
  store float %v, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @uses_shared(
; CHECK:         store volatile i8 0, ptr addrspace(3) @__atoll_smem_pad, align 1
; CHECK-NEXT:    [[TX:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    [[TY:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
; CHECK-NEXT:    [[TZ:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; CHECK-NEXT:    [[NX:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT:    [[NY:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
; CHECK-NEXT:    [[NZ:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
; CHECK-NEXT:    [[T0:%.*]] = mul i32 [[NY]], [[TZ]]
; CHECK-NEXT:    [[T1:%.*]] = add i32 [[TY]], [[T0]]
; CHECK-NEXT:    [[T2:%.*]] = mul i32 [[NX]], [[T1]]
; CHECK-NEXT:    [[TID:%.*]] = add i32 [[TX]], [[T2]]
; CHECK-NEXT:    [[N0:%.*]] = mul i32 [[NY]], [[NZ]]
; CHECK-NEXT:    [[N:%.*]] = mul i32 [[NX]], [[N0]]
; CHECK-NEXT:    [[ST:%.*]] = shl i32 [[TID]], 2
; CHECK-NEXT:    %atoll.zero.start = zext i32 [[ST]] to i64
; CHECK-NEXT:    [[SP:%.*]] = shl i32 [[N]], 2
; CHECK-NEXT:    %atoll.zero.step = zext i32 [[SP]] to i64
; CHECK-NEXT:    %atoll.smem.cap = call i32 asm "mov.u32 $0, %reserved_smem_offset_cap;", "=r"()
; CHECK-NEXT:    %atoll.smem.lo = zext i32 %atoll.smem.cap to i64
; CHECK-NEXT:    [[DSZ:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
; CHECK-NEXT:    [[DSZ64:%.*]] = zext i32 [[DSZ]] to i64
; CHECK-NEXT:    %atoll.smem.end = add i64 ptrtoint (ptr addrspace(3) @__atoll_dyn_smem to i64), [[DSZ64]]
; CHECK-NEXT:    %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; CHECK-NEXT:    [[E0:%.*]] = add i64 %atoll.zero.start, 4
; CHECK-NEXT:    [[C0:%.*]] = icmp ule i64 [[E0]], %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[C0]], label %atoll.zero.smem, label %atoll.zero.done
; CHECK:       atoll.zero.smem:
; CHECK-NEXT:    %atoll.zero.i = phi i64 [ %atoll.zero.start, %0 ], [ [[NEXT:%.*]], %atoll.zero.smem ]
; CHECK-NEXT:    [[A:%.*]] = add i64 %atoll.smem.lo, %atoll.zero.i
; CHECK-NEXT:    [[P:%.*]] = inttoptr i64 [[A]] to ptr addrspace(3)
; CHECK-NEXT:    store i32 0, ptr addrspace(3) [[P]], align 4
; CHECK-NEXT:    [[NEXT]] = add i64 %atoll.zero.i, %atoll.zero.step
; CHECK-NEXT:    [[E1:%.*]] = add i64 [[NEXT]], 4
; CHECK-NEXT:    [[C1:%.*]] = icmp ule i64 [[E1]], %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[C1]], label %atoll.zero.smem, label %atoll.zero.done
; CHECK:       atoll.zero.done:
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr float, ptr addrspace(3) @tile, i64 %i

; PTX-LABEL: .entry uses_shared(
; PTX:         st.volatile.shared.b8 [__atoll_smem_pad], 0;
; PTX:         mov.u32 {{%r[0-9]+}}, %reserved_smem_offset_cap;
; PTX:         mov.u32 {{%r[0-9]+}}, %dynamic_smem_size;
; PTX:       {{^}}$L__BB0_2:
; PTX:         st.shared.b32 [{{%rd[0-9]+}}{{.*}}], 0;
; PTX:         bar.sync 0;
