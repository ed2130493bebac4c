// Real clang-22 output of a block reduction in dynamic shared memory (extern
// __shared__, sized at launch) finished with atomicAdd: every buf[] access is
// confined into the shared window [%reserved_smem_offset_cap, + bytes), bytes = __atoll_dyn_smem + %dynamic_smem_size - lo,
// the input load and the atomic into the arena; the window is zeroed first.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// The PTX layout checks are about confinement: without preemption checks (tested in
// preempt-*.ll), which would sit between the loop and the atomic.
// RUN: %opt-atoll -passes='atoll-mem<preempt=off>' %t.bc -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX-MOD

__global__ void reduce(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, buf[0]);
}

// VERBOSE:      atoll-mem: _Z6reducePKfPfi: global load confined: into the arena (mask)
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: shared store confined: into the shared window
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: shared load confined: into the shared window
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: shared load confined: into the shared window
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: shared store confined: into the shared window
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: shared load confined: into the shared window
// VERBOSE-NEXT: atoll-mem: _Z6reducePKfPfi: global atomicrmw confined: into the arena (mask) | {{.*}} = atomicrmw fadd ptr %1, float {{.*}}

// CHECK: @buf = external {{.*}}addrspace(3) global [0 x float]
// The window clamp needs the 256-byte pad (window >= widest access).
// CHECK: @__atoll_smem_pad = internal addrspace(3) global [256 x i8] undef, align 16
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6reducePKfPfi(
// CHECK:         %atoll.smem.lim = sub i64 %atoll.smem.bytes, 4
// CHECK:         call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
// CHECK-NEXT:    br label %atoll.body
// CHECK:         [[S:%.*]] = addrspacecast ptr {{%.*}} to ptr addrspace(3)
// CHECK-NEXT:    [[R:%.*]] = ptrtoint ptr addrspace(3) [[S]] to i64
// CHECK-NEXT:    [[RF:%atoll.smem.addr.fr[0-9]*]] = freeze i64 [[R]]
// CHECK-NEXT:    [[O:%.*]] = sub i64 [[RF]], %atoll.smem.lo
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[L:%.*]] = trunc i64 %atoll.smem.lim{{[0-9]*}} to i32
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[T]], i32 [[L]])
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[W:%.*]] = add i64 %atoll.smem.lo, [[Z]]
// CHECK:         [[AO:%.*]] = and i32 {{%.*}}, %atoll.arena.mask.a4
// CHECK-NEXT:    [[AZ:%.*]] = zext i32 [[AO]] to i64
// CHECK-NEXT:    [[AA:%.*]] = or i64 %atoll.arena.base, [[AZ]]
// CHECK-NEXT:    [[AG:%.*]] = inttoptr i64 [[AA]] to ptr addrspace(1)
// CHECK-NEXT:    [[AX:%.*]] = addrspacecast ptr addrspace(1) [[AG]] to ptr
// CHECK-NEXT:    atomicrmw fadd ptr [[AX]], float {{%.*}} seq_cst, align 4

// PTX-LABEL: .entry _Z6reducePKfPfi(
// PTX:         mov.u32 {{%r[0-9]+}}, %reserved_smem_offset_cap;
// PTX:         mov.u32 {{%r[0-9]+}}, %dynamic_smem_size;
// PTX:         barrier.sync 0;
// PTX:         ld.shared.b32 [[V:%r[0-9]+]],
// PTX-NEXT:    cvt.u32.u64 [[T:%r[0-9]+]],
// PTX-NEXT:    and.b32 [[O:%r[0-9]+]], [[T]],
// PTX-NEXT:    cvt.u64.u32 [[Z:%rd[0-9]+]], [[O]];
// PTX-NEXT:    or.b64 [[A:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z]];
// PTX-NEXT:    atom.global.add.f32 {{%r[0-9]+}}, {{\[}}[[A]]{{\]}},
// Modulo mode: each arena access tests rel = addr - base against the size and
// branches over the remainder, which is out of line (after the ret).
// PTX-MOD-LABEL: .entry _Z6reducePKfPfi(
// PTX-MOD:       barrier.sync 0;
// PTX-MOD:       setp.lt.u64 [[P0:%p[0-9]+]], [[R0:%rd[0-9]+]], [[SIZE:%rd[0-9]+]];
// PTX-MOD-NEXT:  @[[P0]] bra [[TAIL0:\$L__BB0_[0-9]+]];
// PTX-MOD-NEXT:  bra.uni [[WRAP0:\$L__BB0_[0-9]+]];
// PTX-MOD-NEXT:  [[TAIL0]]:
// PTX-MOD-NOT:   rem.u
// PTX-MOD:       ld.global.b32
// PTX-MOD-NOT:   rem.u
// PTX-MOD:       setp.lt.u64 [[P1:%p[0-9]+]], [[R1:%rd[0-9]+]], [[SIZE]];
// PTX-MOD-NEXT:  @[[P1]] bra [[TAIL1:\$L__BB0_[0-9]+]];
// PTX-MOD-NEXT:  bra.uni [[WRAP1:\$L__BB0_[0-9]+]];
// PTX-MOD-NEXT:  [[TAIL1]]:
// PTX-MOD-NOT:   rem.u
// PTX-MOD:       atom.global.add.f32
// PTX-MOD-NOT:   rem.u
// PTX-MOD:       ret;
// PTX-MOD:       [[WRAP0]]:
// PTX-MOD:       rem.u64 {{%rd[0-9]+}}, [[R0]], [[SIZE]];
// PTX-MOD-NEXT:  bra.uni [[TAIL0]];
// PTX-MOD:       [[WRAP1]]:
// PTX-MOD:       rem.u64 {{%rd[0-9]+}}, [[R1]], [[SIZE]];
// PTX-MOD-NEXT:  bra.uni [[TAIL1]];
