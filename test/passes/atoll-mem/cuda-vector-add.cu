// Real clang-22 output of a CUDA vector add: the three buffer accesses are global
// (generic kernel pointers), each masked into the arena; the PTX loads and stores
// through the and/or-confined address.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// VERBOSE-COUNT-2: atoll-mem: _Z4vaddPKfS0_Pfi: global load confined: into the arena (mask)
// VERBOSE-NEXT:    atoll-mem: _Z4vaddPKfS0_Pfi: global store confined: into the arena (mask)
// VERBOSE-NOT:     atoll-mem:

// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4vaddPKfS0_Pfi(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
// CHECK-COUNT-2: load float, ptr {{%.*}}, align 4
// CHECK:         store float {{%.*}}, ptr {{%.*}}, align 4
// CHECK:       attributes #{{[0-9]+}} = { {{.*}}"atoll-hardened"="mask-based"

// PTX-LABEL: .entry _Z4vaddPKfS0_Pfi(
// Per access: the low 32 bits of the address and-ed with the mask, widened, or-ed
// with the base.
// PTX:         and.b32 [[M4:%r[0-9]+]], {{%r[0-9]+}}, -4;
// PTX:         cvt.u32.u64 [[T0:%r[0-9]+]], {{%rd[0-9]+}};
// PTX-NEXT:    and.b32 [[O0:%r[0-9]+]], [[T0]], [[M4]];
// PTX-NEXT:    cvt.u64.u32 [[Z0:%rd[0-9]+]], [[O0]];
// PTX-NEXT:    or.b64 [[A0:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z0]];
// PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A0]]{{\]}};
// PTX:         cvt.u32.u64 [[T1:%r[0-9]+]], {{%rd[0-9]+}};
// PTX-NEXT:    and.b32 [[O1:%r[0-9]+]], [[T1]], [[M4]];
// PTX-NEXT:    cvt.u64.u32 [[Z1:%rd[0-9]+]], [[O1]];
// PTX-NEXT:    or.b64 [[A1:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z1]];
// PTX-NEXT:    ld.global.b32 {{%r[0-9]+}}, {{\[}}[[A1]]{{\]}};
// PTX:         cvt.u32.u64 [[T2:%r[0-9]+]], {{%rd[0-9]+}};
// PTX-NEXT:    and.b32 [[O2:%r[0-9]+]], [[T2]], [[M4]];
// PTX-NEXT:    cvt.u64.u32 [[Z2:%rd[0-9]+]], [[O2]];
// PTX-NEXT:    or.b64 [[A2:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z2]];
// PTX-NEXT:    st.global.b32 {{\[}}[[A2]]{{\]}},
