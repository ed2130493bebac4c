// Real clang-22 output with a struct passed by value: the run-time-indexed
// p.w[...] read is confined into the byval parameter (40 bytes), the fixed
// fields (p.sel, p.bias) are proven safe, the buffers go to the arena.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o /dev/null
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

struct Params { float w[8]; int sel; float bias; };
__global__ void apply(Params p, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * p.w[(p.sel + i) & 7] + p.bias;
}

// VERBOSE:      atoll-mem: _Z5apply6ParamsPKfPfi: global load confined: into the arena (mask)
// VERBOSE-NEXT: atoll-mem: _Z5apply6ParamsPKfPfi: param load proven-safe: constant offset inside its object
// VERBOSE-NEXT: atoll-mem: _Z5apply6ParamsPKfPfi: param load confined: into its byval parameter
// VERBOSE-NEXT: atoll-mem: _Z5apply6ParamsPKfPfi: param load proven-safe: constant offset inside its object
// VERBOSE-NEXT: atoll-mem: _Z5apply6ParamsPKfPfi: global store confined: into the arena (mask)

// CHECK:       define {{.*}}ptx_kernel void @_Z5apply6ParamsPKfPfi(ptr noundef readonly byval(%struct.Params) align 4 captures(none) [[P:%[0-9]+]], ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
// CHECK:         [[G:%.*]] = getelementptr inbounds nuw float, ptr [[P]], i64 [[I:%.*]]
// CHECK-NEXT:    [[O:%.*]] = mul i64 [[I]], 4
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 36)
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[X:%.*]] = getelementptr i8, ptr [[P]], i64 [[Z]]
// CHECK-NEXT:    load float, ptr [[X]], align 4
