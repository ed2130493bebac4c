; A kernel that can reach shared memory zeroes the whole user shared window at
; entry, cooperatively (thread t of n zeroes 16-byte blocks t, t + n, ..., then
; bytes t, t + n, ... of the last < 16 bytes), then waits at a
; CTA barrier before any tenant code runs: no residue of an earlier kernel is
; readable. This kernel touches only a static shared object, so it gets no pad
; (__atoll_smem_pad only keeps the window clamp's bytes >= S; see
; shared-pad-only-for-window.ll): zeroing alone does not need it.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x float] undef, align 4

define ptx_kernel void @uses_shared(i64 %i, ptr %out) {
  %p = getelementptr float, ptr addrspace(3) @tile, i64 %i
  %v = load float, ptr addrspace(3) %p, align 4
  store float %v, ptr %out, align 4
  ret void
}

; CHECK-NOT:   @__atoll_smem_pad
; CHECK-LABEL: define ptx_kernel void @uses_shared(
; CHECK-NOT:     __atoll_smem_pad
; CHECK:         [[TX:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
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
; CHECK-NEXT:    %atoll.zero.tid = zext i32 [[TID]] to i64
; CHECK-NEXT:    %atoll.zero.start = shl i64 %atoll.zero.tid, 4
; CHECK-NEXT:    [[NZX:%.*]] = zext i32 [[N]] to i64
; CHECK-NEXT:    %atoll.zero.step = shl i64 [[NZX]], 4
; CHECK-NEXT:    %atoll.smem.cap = call i32 asm "mov.u32 $0, %reserved_smem_offset_cap;", "=r"()
; CHECK-NEXT:    %atoll.smem.lo = zext i32 %atoll.smem.cap to i64
; CHECK-NEXT:    [[DSZ:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
; CHECK-NEXT:    [[DSZ64:%.*]] = zext i32 [[DSZ]] to i64
; CHECK-NEXT:    %atoll.smem.end = add i64 ptrtoint (ptr addrspace(3) @__atoll_dyn_smem to i64), [[DSZ64]]
; CHECK-NEXT:    %atoll.smem.bytes = sub i64 %atoll.smem.end, %atoll.smem.lo
; CHECK-NEXT:    [[E0:%.*]] = add i64 %atoll.zero.start, 16
; CHECK-NEXT:    [[C0:%.*]] = icmp ule i64 [[E0]], %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[C0]], label %atoll.zero.smem, label %atoll.zero.tail
; 16-byte stores over the window...
; CHECK:       atoll.zero.smem:
; CHECK-NEXT:    %atoll.zero.i = phi i64 [ %atoll.zero.start, %0 ], [ [[NEXT:%.*]], %atoll.zero.smem ]
; CHECK-NEXT:    [[A:%.*]] = add i64 %atoll.smem.lo, %atoll.zero.i
; CHECK-NEXT:    [[P:%.*]] = inttoptr i64 [[A]] to ptr addrspace(3)
; CHECK-NEXT:    store <4 x i32> zeroinitializer, ptr addrspace(3) [[P]], align 16
; CHECK-NEXT:    [[NEXT]] = add i64 %atoll.zero.i, %atoll.zero.step
; CHECK-NEXT:    [[E1:%.*]] = add i64 [[NEXT]], 16
; CHECK-NEXT:    [[C1:%.*]] = icmp ule i64 [[E1]], %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[C1]], label %atoll.zero.smem, label %atoll.zero.tail
; ...then the last < 16 bytes byte by byte (thread t zeroes bytes t, t + n, ... of
; the tail), never past the window's end: a dynamic size of 4093 leaves no
; stale byte.
; CHECK:       atoll.zero.tail:
; CHECK-NEXT:    [[B16:%.*]] = and i64 %atoll.smem.bytes, -16
; CHECK-NEXT:    %atoll.zero.tail.off = add i64 [[B16]], %atoll.zero.tid
; CHECK-NEXT:    [[TIN:%.*]] = icmp ult i64 %atoll.zero.tail.off, %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[TIN]], label %atoll.zero.tail.store, label %atoll.zero.done
; CHECK:       atoll.zero.tail.store:
; CHECK-NEXT:    %atoll.zero.t = phi i64 [ %atoll.zero.tail.off, %atoll.zero.tail ], [ [[TN:%.*]], %atoll.zero.tail.store ]
; CHECK-NEXT:    [[TA:%.*]] = add i64 %atoll.smem.lo, %atoll.zero.t
; CHECK-NEXT:    [[TP:%.*]] = inttoptr i64 [[TA]] to ptr addrspace(3)
; CHECK-NEXT:    store i8 0, ptr addrspace(3) [[TP]], align 1
; CHECK-NEXT:    [[NZ2:%.*]] = zext i32 [[N]] to i64
; CHECK-NEXT:    [[TN]] = add i64 %atoll.zero.t, [[NZ2]]
; CHECK-NEXT:    [[TC:%.*]] = icmp ult i64 [[TN]], %atoll.smem.bytes
; CHECK-NEXT:    br i1 [[TC]], label %atoll.zero.tail.store, label %atoll.zero.done
; CHECK:       atoll.zero.done:
; CHECK-NEXT:    call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
; CHECK-NEXT:    br label %atoll.body
; CHECK:       atoll.body:
; CHECK-NEXT:    %p = getelementptr float, ptr addrspace(3) @tile, i64 %i

; PTX-NOT:     __atoll_smem_pad
; PTX-LABEL: .entry uses_shared(
; PTX-NOT:     __atoll_smem_pad
; PTX:         mov.u32 {{%r[0-9]+}}, %reserved_smem_offset_cap;
; PTX:         mov.u32 {{%r[0-9]+}}, %dynamic_smem_size;
; PTX:       {{^}}$L__BB0_2:
; PTX:         st.shared.v4.b32 [{{%rd[0-9]+}}{{.*}}], {0, 0, 0, 0};
; PTX:         st.shared.b8 [{{%rd[0-9]+}}{{.*}}], 0;
; PTX-NOT:     st.shared.b32
; PTX:         barrier.sync 0;
