// clang-22 output for __device__ variables the kernel only reads, and for sinf,
// whose slow path reads libdevice's __cudart_i2opi_f (a global-space constant
// read through global-space GEPs): all move to constant memory.
// RUN: %clang-cuda %s -o %t.bc
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=INPUT
// RUN: %opt-atoll -passes=promote-ptx-constant-globals %t.bc -S -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %llc-sm90 %t.ll -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

__device__ int dro[4] = {5, 6, 7, 8};
__device__ double bias = 0.5;

__global__ void kern(float *out, int i) {
  out[0] = sinf(out[1]) + dro[i & 3] + (float)bias;
}

// INPUT-DAG: @dro = dso_local addrspace(1) externally_initialized global [4 x i32]
// INPUT-DAG: @__cudart_i2opi_f = internal unnamed_addr addrspace(1) constant [6 x i32]
// INPUT-DAG: getelementptr inbounds nuw i32, ptr addrspace(1) @__cudart_i2opi_f

// CHECK-DAG: @dro = dso_local addrspace(4) externally_initialized constant [4 x i32] [i32 5, i32 6, i32 7, i32 8]
// CHECK-DAG: @bias = dso_local addrspace(4) externally_initialized constant double 5.000000e-01
// CHECK-DAG: @__cudart_i2opi_f = internal unnamed_addr addrspace(4) constant [6 x i32]
// CHECK-DAG: getelementptr inbounds nuw i32, ptr addrspace(4) @__cudart_i2opi_f
// CHECK-DAG: @llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @{{dro|bias}} to ptr), ptr addrspacecast (ptr addrspace(4) @{{dro|bias}} to ptr)]
// CHECK-NOT: addrspace(1) @

// PTX-DAG: .visible .const .align 4 .b8 dro[16] = {5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 8};
// PTX-DAG: .visible .const .align 8 .f64 bias = 0d3FE0000000000000;
// PTX-DAG: .const .align 4 .b8 __cudart_i2opi_f[24]
// PTX-NOT: {{^(\.visible |\.extern )?\.global}}
