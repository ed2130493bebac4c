// Real clang-22 output of a per-thread histogram in a stack array: the array is
// zeroed at entry, the counts[in[i] & 15]++ read-modify-write is confined into the
// 64-byte array, the unrolled constant-index reads are proven safe, the global
// accesses go to the arena.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes='atoll-mem<verbose;summarize>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

__global__ void histo_local(const int *in, int *out, int n) {
  int counts[16];
  for (int b = 0; b < 16; ++b)
    counts[b] = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    counts[in[i] & 15]++;
  for (int b = 0; b < 16; ++b)
    out[threadIdx.x * 16 + b] = counts[b];
}

// VERBOSE: local load confined: into its stack object
// VERBOSE: local store confined: into its stack object
// VERBOSE: space      kind           confined  proven-safe   refused
// VERBOSE: global     load                  1            0         0
// VERBOSE: global     store                16            0         0
// VERBOSE: local      load                  1           16         0
// VERBOSE: local      store                 1            0         0
// VERBOSE: local      memset                0            1         0

// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z11histo_localPKiPii(
// CHECK-NEXT:    [[ARR:%[0-9]+]] = alloca [16 x i32], align 4
// CHECK:         call void @llvm.memset.p0.i64(ptr align 4 [[ARR]], i8 0, i64 64, i1 false)
// CHECK-NEXT:    br label %atoll.body
// CHECK:         getelementptr inbounds nuw i32, ptr [[ARR]], i64 [[I:%.*]]
// CHECK-NEXT:    [[O:%.*]] = mul i64 [[I]], 4
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 60)
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[X:%.*]] = getelementptr i8, ptr [[ARR]], i64 [[Z]]
// CHECK-NEXT:    load i32, ptr [[X]], align 4

// The umin stays even where the backend could prove (x & 15) * 4 <= 60: the
// offset reaches it through an opaque asm, so no range the compiler derives
// (from the code, or from UB) can fold an object clamp away.
// PTX-LABEL: .entry _Z11histo_localPKiPii(
// PTX:         .local .align 4 .b8 __local_depot0[64];
// PTX:         st.local.b32 [{{%rd[0-9]+}}], 0;
// PTX:         and.b32 [[I:%r[0-9]+]], {{%r[0-9]+}}, 15;
// PTX-NEXT:    shl.b32 [[O:%r[0-9]+]], [[I]], 2;
// PTX-NEXT:    // begin inline asm
// PTX-NEXT:    mov.b32 [[Q:%r[0-9]+]], [[O]];
// PTX-NEXT:    // end inline asm
// PTX-NEXT:    min.u32 [[C:%r[0-9]+]], [[Q]], 60;
// PTX-NEXT:    and.b32 [[CA:%r[0-9]+]], [[C]], 60;
// PTX-NEXT:    cvt.u64.u32 [[Z:%rd[0-9]+]], [[CA]];
// PTX-NEXT:    add.s64 [[A:%rd[0-9]+]], {{%rd[0-9]+}}, [[Z]];
// PTX-NEXT:    ld.local.b32 {{%r[0-9]+}}, {{\[}}[[A]]{{\]}};
