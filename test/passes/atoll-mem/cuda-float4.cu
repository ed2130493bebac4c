// Real clang-22 output of float4 loads and stores (16-byte aligned struct, which
// clang -O2 splits into four float accesses at offsets 0, 4, 8, 12 with the
// alignments 16, 4, 8, 4): the four accesses share one clamp of the float4's
// address with the align-16 mask (the members' largest alignment), each member
// keeps its constant offset, so none can be misaligned, every byte stays in the
// arena, and the backend re-forms one 16-byte vector access.
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
// CHECK-NOT:     %atoll.arena.mask.a4 =
// CHECK-NOT:     %atoll.arena.mask.a8 =
// CHECK:         %atoll.arena.mask.a16 = and i32 %atoll.arena.mask32, -16
// CHECK-NOT:     %atoll.arena.mask.a4 =
// CHECK-NOT:     %atoll.arena.mask.a8 =
// CHECK:       atoll.body:
// CHECK:         [[T:%.*]] = trunc i64 {{%.*}} to i32
// CHECK-NEXT:    [[O:%.*]] = and i32 [[T]], %atoll.arena.mask.a16
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
// CHECK-NEXT:    [[A:%.*]] = or i64 %atoll.arena.base, [[Z]]
// CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
// CHECK-NEXT:    [[B:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
// CHECK-NEXT:    [[P0:%.*]] = getelementptr i8, ptr [[B]], i64 0
// CHECK-NEXT:    load float, ptr [[P0]], align 16
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         [[P1:%.*]] = getelementptr i8, ptr [[B]], i64 4
// CHECK-NEXT:    load float, ptr [[P1]], align 4
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         [[P2:%.*]] = getelementptr i8, ptr [[B]], i64 8
// CHECK-NEXT:    load float, ptr [[P2]], align 8
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         [[P3:%.*]] = getelementptr i8, ptr [[B]], i64 12
// CHECK-NEXT:    load float, ptr [[P3]], align 4
// The stores: one clamp, four members.
// CHECK:         and i32 {{%.*}}, %atoll.arena.mask.a16
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         store float {{.*}}, align 16
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         store float {{.*}}, align 4
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         store float {{.*}}, align 8
// CHECK-NOT:     %atoll.arena.mask
// CHECK:         store float {{.*}}, align 4
// CHECK-NEXT:    br label

// PTX-LABEL: .entry _Z6scale4PK6float4PS_fi(
// PTX:         and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX:         ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [{{%rd[0-9]+}}];
// PTX:         and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX:         st.global.v4.b32 [{{%rd[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// PTX-NOT:     ld.global.b32
// PTX-NOT:     st.global.b32
