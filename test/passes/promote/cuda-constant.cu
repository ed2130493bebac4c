// clang-22 output for __constant__ data, static const tables, a table of string
// pointers and printf: __constant__ stays, the tables, the strings and the printf
// format end up in constant memory, and the result compiles for sm_90.
// RUN: %clang-cuda %s -o %t.bc
// RUN: %opt-atoll -passes=promote-ptx-constant-globals %t.bc -S -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %llc-sm90 %t.ll -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

#include <cstdio>

__constant__ float cscale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
static const int stbl[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const char *const words[] = {"one", "two"};

__global__ void kern(float *out, int i) {
  out[0] = cscale[i & 3] + stbl[i & 7] + words[i & 1][0];
  printf("i=%d\n", i);
}

// The input, for the record: strings are generic globals.
// CHECK-NOT: {{^@.* = .*addrspace\(1\)}}
// CHECK-DAG: @cscale = dso_local addrspace(4) externally_initialized constant [4 x float]
// CHECK-DAG: @_ZL4stbl = internal unnamed_addr addrspace(4) constant [8 x i32]
// CHECK-DAG: @_ZL5words = internal unnamed_addr addrspace(4) constant [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @.str{{.*}} to ptr), ptr addrspacecast (ptr addrspace(4) @.str{{.*}} to ptr)]
// CHECK-DAG: @.str = private unnamed_addr addrspace(4) constant [6 x i8] c"i=%d\0A\00"
// CHECK-DAG: call i32 @vprintf(ptr {{.*}}addrspacecast (ptr addrspace(4) @.str to ptr)

// PTX-DAG: .visible .const .align 4 .b8 cscale[16]
// PTX-DAG: .const .align 4 .b8 _ZL4stbl[32]
// PTX-DAG: .const .align 8 .u64 _ZL5words[2] = {generic(_$_str{{.*}}), generic(_$_str{{.*}})};
// PTX-DAG: .const .align 1 .b8 _$_str[6]
// PTX-NOT: {{^(\.visible |\.extern )?\.global}}
