// %clusterid.x read from CUDA source (clang's __nvvm_read_ptx_sreg_clusterid_x):
// kernels are never launched in clusters and the PTX validator refuses every
// cluster register, so atoll-mem refuses it first, with its reason.
// RUN: %clang-cuda %s -o %t.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t.bc 2>&1 | FileCheck %s
// CHECK: error: atoll-mem: refused in '_Z1kPj': 'llvm.nvvm.read.ptx.sreg.clusterid.x': cluster special register (kernels are launched without a cluster)
__global__ void k(unsigned *out) { out[threadIdx.x] = __nvvm_read_ptx_sreg_clusterid_x(); }
