// Real clang-22 output of float4 loads and stores (16-byte aligned struct, which
// clang -O2 splits into four float accesses at offsets 0, 4, 8, 12 with the
// alignments 16, 4, 8, 4): each access is masked with its own alignment's mask,
// so none can be misaligned and every byte stays in the arena.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

__global__ void scale4(const float4 *in, float4 *out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = in[i];
    out[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
  }
}

// VERBOSE:      global load confined: into the arena (mask) | {{.*}} = load float, ptr {{.*}}, align 16
// VERBOSE-NEXT: global load confined: into the arena (mask) | {{.*}} = load float, ptr {{.*}}, align 4
// VERBOSE-NEXT: global load confined: into the arena (mask) | {{.*}} = load float, ptr {{.*}}, align 8
// VERBOSE-NEXT: global load confined: into the arena (mask) | {{.*}} = load float, ptr {{.*}}, align 4
// VERBOSE-NEXT: global store confined: into the arena (mask) | store float {{.*}}, align 16
// VERBOSE-NEXT: global store confined: into the arena (mask) | store float {{.*}}, align 4
// VERBOSE-NEXT: global store confined: into the arena (mask) | store float {{.*}}, align 8
// VERBOSE-NEXT: global store confined: into the arena (mask) | store float {{.*}}, align 4

// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6scale4PK6float4PS_fi(
// CHECK:         %atoll.arena.mask.a16 = and i64 %atoll.arena.mask, -16
// CHECK:         %atoll.arena.mask.a4 = and i64 %atoll.arena.mask, -4
// CHECK:         %atoll.arena.mask.a8 = and i64 %atoll.arena.mask, -8
// CHECK:         and i64 {{%.*}}, %atoll.arena.mask.a16
// CHECK:         load float, ptr {{%.*}}, align 16
// CHECK:         and i64 {{%.*}}, %atoll.arena.mask.a4
// CHECK:         load float, ptr {{%.*}}, align 4
// CHECK:         and i64 {{%.*}}, %atoll.arena.mask.a8
// CHECK:         load float, ptr {{%.*}}, align 8

// PTX-LABEL: .entry _Z6scale4PK6float4PS_fi(
// PTX-COUNT-4: ld.global.b32
// PTX-COUNT-4: st.global.b32
