; A static __shared__ array is a known object: every access through it (shared
; space or a generic pointer from an addrspacecast) is confined into the object,
;   obj + zext(umin(trunc32(p - obj), objsize - S) & ~(A-1)),
; with p - obj taken from the GEP indices,
; independent of the clamping mode. Loads, stores, atomicrmw and cmpxchg alike.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;clamping-mode=modulo-based>' -S %s | FileCheck %s
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [64 x float] undef, align 4
@flags = internal addrspace(3) global [8 x i64] undef, align 8

define ptx_kernel void @shared_obj(i64 %i, float %x) {
  %p = getelementptr float, ptr addrspace(3) @buf, i64 %i
  store float %x, ptr addrspace(3) %p, align 4
  %g = addrspacecast ptr addrspace(3) %p to ptr
  %v = load float, ptr %g, align 4
  %f = getelementptr i64, ptr addrspace(3) @flags, i64 %i
  %o = atomicrmw or ptr addrspace(3) %f, i64 1 monotonic, align 8
  %c = cmpxchg ptr addrspace(3) %f, i64 %o, i64 0 monotonic monotonic, align 8
  %v2 = load <2 x float>, ptr addrspace(3) %p, align 8
  ret void
}

; The load of @buf raised its alignment to the 8 the <2 x float> access needs.
; CHECK: @buf = internal addrspace(3) global [64 x float] undef, align 8
; Only static objects: no shared pad (that is for the window clamp).
; CHECK-NOT: @__atoll_smem_pad

; CHECK-LABEL: define ptx_kernel void @shared_obj(i64 %i, float %x, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK:       atoll.body:
; 4 bytes in the 256-byte @buf: offset <= 252, 4-aligned.
; CHECK-NEXT:    %p = getelementptr float, ptr addrspace(3) @buf, i64 %i
; CHECK-NEXT:    [[O0:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T0:%.*]] = trunc i64 [[O0]] to i32
; CHECK-NEXT:    [[OPQT0:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T0]])
; CHECK-NEXT:    [[C0:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT0]], i32 252)
; CHECK-NEXT:    [[A0:%.*]] = and i32 [[C0]], -4
; CHECK-NEXT:    [[Z0:%.*]] = zext i32 [[A0]] to i64
; CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr addrspace(3) @buf, i64 [[Z0]]
; CHECK-NEXT:    store float %x, ptr addrspace(3) [[P0]], align 4
; The generic alias: the same clamp, relative to @buf's generic address.
; CHECK-NEXT:    %g = addrspacecast ptr addrspace(3) %p to ptr
; CHECK-NEXT:    [[O1:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T1:%.*]] = trunc i64 [[O1]] to i32
; CHECK-NEXT:    [[OPQT1:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T1]])
; CHECK-NEXT:    [[C1:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT1]], i32 252)
; CHECK-NEXT:    [[A1:%.*]] = and i32 [[C1]], -4
; CHECK-NEXT:    [[Z1:%.*]] = zext i32 [[A1]] to i64
; CHECK-NEXT:    [[P1:%.*]] = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @buf to ptr), i64 [[Z1]]
; CHECK-NEXT:    %v = load float, ptr [[P1]], align 4
; 8 bytes in the 64-byte @flags: offset <= 56, 8-aligned.
; CHECK-NEXT:    %f = getelementptr i64, ptr addrspace(3) @flags, i64 %i
; CHECK-NEXT:    [[O2:%.*]] = mul i64 %i, 8
; CHECK-NEXT:    [[T2:%.*]] = trunc i64 [[O2]] to i32
; CHECK-NEXT:    [[OPQT2:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T2]])
; CHECK-NEXT:    [[C2:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT2]], i32 56)
; CHECK-NEXT:    [[A2:%.*]] = and i32 [[C2]], -8
; CHECK-NEXT:    [[Z2:%.*]] = zext i32 [[A2]] to i64
; CHECK-NEXT:    [[P2:%.*]] = getelementptr i8, ptr addrspace(3) @flags, i64 [[Z2]]
; CHECK-NEXT:    %o = atomicrmw or ptr addrspace(3) [[P2]], i64 1 monotonic, align 8
; CHECK-NEXT:    [[O3:%.*]] = mul i64 %i, 8
; CHECK-NEXT:    [[T3:%.*]] = trunc i64 [[O3]] to i32
; CHECK-NEXT:    [[OPQT3:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T3]])
; CHECK-NEXT:    [[C3:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT3]], i32 56)
; CHECK-NEXT:    [[A3:%.*]] = and i32 [[C3]], -8
; CHECK-NEXT:    [[Z3:%.*]] = zext i32 [[A3]] to i64
; CHECK-NEXT:    [[P3:%.*]] = getelementptr i8, ptr addrspace(3) @flags, i64 [[Z3]]
; CHECK-NEXT:    %c = cmpxchg ptr addrspace(3) [[P3]], i64 %o, i64 0 monotonic monotonic, align 8
; 8 bytes align 8 in @buf (raised to align 8): offset <= 248, 8-aligned.
; CHECK-NEXT:    [[O4:%.*]] = mul i64 %i, 4
; CHECK-NEXT:    [[T4:%.*]] = trunc i64 [[O4]] to i32
; CHECK-NEXT:    [[OPQT4:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T4]])
; CHECK-NEXT:    [[C4:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT4]], i32 248)
; CHECK-NEXT:    [[A4:%.*]] = and i32 [[C4]], -8
; CHECK-NEXT:    [[Z4:%.*]] = zext i32 [[A4]] to i64
; CHECK-NEXT:    [[P4:%.*]] = getelementptr i8, ptr addrspace(3) @buf, i64 [[Z4]]
; CHECK-NEXT:    %v2 = load <2 x float>, ptr addrspace(3) [[P4]], align 8
; CHECK-NEXT:    ret void

; PTX-LABEL: .entry shared_obj(
; PTX:         barrier.sync 0;
; PTX:         cvt.u32.u64 [[I:%r[0-9]+]], {{%rd[0-9]+}};
; PTX-NEXT:    shl.b32 [[I4:%r[0-9]+]], [[I]], 2;
; The offset passes through the opaque identity asm before the clamp.
; PTX-NEXT:    // begin inline asm
; PTX-NEXT:    mov.b32 [[Q0:%r[0-9]+]], [[I4]];
; PTX-NEXT:    // end inline asm
; PTX-NEXT:    min.u32 [[C0:%r[0-9]+]], [[Q0]], 252;
; PTX-NEXT:    and.b32 [[C0A:%r[0-9]+]], [[C0]], 252;
; PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[C0A]];
; PTX-NEXT:    mov.b64 [[BUF:%rd[0-9]+]], buf;
; PTX-NEXT:    add.s64 [[A0:%rd[0-9]+]], [[BUF]], [[Z0]];
; PTX-NEXT:    st.shared.b32 {{\[}}[[A0]]{{\]}}, {{%r[0-9]+}};
; PTX:         min.u32 [[C2:%r[0-9]+]], {{%r[0-9]+}}, 56;
; PTX-NEXT:    and.b32 [[C2A:%r[0-9]+]], [[C2]], {{-?[0-9]+}};
; PTX-NEXT:    cvt.u64.u32 [[Z2:%rd[0-9]+]], [[C2A]];
; PTX-NEXT:    mov.b64 [[FL:%rd[0-9]+]], flags;
; PTX-NEXT:    add.s64 [[A2:%rd[0-9]+]], [[FL]], [[Z2]];
; A 64-bit shared `or` is a CAS loop in SASS (R7-F2): atoll-mem's own, checked, on
; the same confined address (atomics-non-native.ll).
; PTX-NEXT:    ld.shared.b64 [[OLD:%rd[0-9]+]], {{\[}}[[A2]]{{\]}};
; PTX:         or.b64 [[NEW:%rd[0-9]+]], [[OLD]], 1;
; PTX-NEXT:    atom.relaxed.sys.shared.cas.b64 {{%rd[0-9]+}}, {{\[}}[[A2]]{{\]}}, [[OLD]], [[NEW]];
; PTX:         atom.relaxed.sys.shared.cas.b64 {{%rd[0-9]+}}, {{\[}}{{%rd[0-9]+}}{{\]}},
