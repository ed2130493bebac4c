// clang-22 output for __constant__ data, static const tables, tables of string
// pointers (plain and in structs) and printf: __constant__ stays; the tables, the
// strings and the printf format end up in constant memory; it compiles for sm_90.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes=promote-ptx-constant-globals %t.bc -S -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %llc-sm90 %t.ll -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

#include <cstdio>

__constant__ float cscale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
static const int stbl[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const char *const words[] = {"one", "two"};
struct Entry { float a; double b; const char *name; };
__device__ const Entry entries[3] = {{1, 2, "x"}, {3, 4, "y"}, {5, 6, "z"}};

__global__ void kern(float *out, int i) {
  out[0] = cscale[i & 3] + stbl[i & 7] + words[i & 1][0];
  // A double next to a pointer in an array of structs is data, not an address.
  out[1] = entries[i % 3].b + entries[i % 3].name[0];
  printf("i=%d\n", i);
}

// The input, for the record: strings are generic globals.
// CHECK-NOT: {{^@.* = .*addrspace\(1\)}}
// CHECK-DAG: @cscale = dso_local addrspace(4) externally_initialized constant [4 x float]
// CHECK-DAG: @_ZL4stbl = internal unnamed_addr addrspace(4) constant [8 x i32]
// CHECK-DAG: @_ZL5words = internal unnamed_addr addrspace(4) constant [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @.str{{.*}} to ptr), ptr addrspacecast (ptr addrspace(4) @.str{{.*}} to ptr)]
// CHECK-DAG: @_ZL7entries = internal unnamed_addr addrspace(4) constant [3 x %struct.Entry] [%struct.Entry { float 1.000000e+00, double 2.000000e+00, ptr addrspacecast (ptr addrspace(4) @.str{{.*}} to ptr) },
// CHECK-DAG: @.str = private unnamed_addr addrspace(4) constant [6 x i8] c"i=%d\0A\00"
// CHECK-DAG: call i32 @vprintf(ptr {{.*}}addrspacecast (ptr addrspace(4) @.str to ptr)

// PTX-DAG: .visible .const .align 4 .b8 cscale[16]
// PTX-DAG: .const .align 4 .b8 _ZL4stbl[32]
// PTX-DAG: .const .align 8 .u64 _ZL5words[2] = {generic(_$_str{{.*}}), generic(_$_str{{.*}})};
// PTX-DAG: .const .align 1 .b8 _$_str[6]
// PTX-DAG: .const .align 8 .u64 _ZL7entries[9] = {1065353216, 4611686018427387904, generic(_$_str{{[0-9]+}}), 1077936128,
// PTX-NOT: {{^(\.visible |\.extern )?\.global}}
