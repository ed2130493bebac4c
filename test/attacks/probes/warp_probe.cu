// Device probe (review R3-F1 and its neighbours): do warp primitives whose member
// mask is confined the way atoll-mem confines it, (mask | %lanemask_eq) &
// %activemask, still hang when lanes are at different primitives or disagree on
// the mask? And what does a partial warp do at a warp-wide .aligned matrix
// instruction (mma, ldmatrix, stmatrix, movmatrix): fault, hang or garbage?
// One case per process: ./warp_probe <case>; run_warp_probe.sh runs all.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ unsigned lane() { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
// What atoll-mem emits for a run-time member mask: the active lanes whose
// (mask | self) & active equals the caller's.
__device__ unsigned confine(unsigned m) {
  unsigned self, act, r;
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(self));
  asm volatile("activemask.b32 %0;" : "=r"(act));
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"((m | self) & act), "r"(act));
  return r;
}
// The first fix, without the match (measured: case 1 still hangs).
__device__ unsigned confine_active(unsigned m) {
  unsigned self, act;
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(self));
  asm volatile("activemask.b32 %0;" : "=r"(act));
  return (m | self) & act;
}
__device__ bool whole_warp() {
  unsigned act;
  asm volatile("activemask.b32 %0;" : "=r"(act));
  return act == 0xffffffffu;
}
__device__ unsigned shfl(unsigned m, unsigned v, unsigned src) {
  unsigned r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(r) : "r"(v), "r"(src), "r"(m));
  return r;
}
__device__ unsigned shfl_down(unsigned m, unsigned v) {
  unsigned r;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(m));
  return r;
}
__device__ void warpsync(unsigned m) { asm volatile("bar.warp.sync %0;" ::"r"(m)); }

__global__ void k(int which, unsigned a, unsigned *out, unsigned *smem_init) {
  __shared__ __align__(16) unsigned short tile[8 * 8 * 4];
  unsigned t = threadIdx.x, l = lane(), r = 0;
  for (unsigned i = t; i < 256; i += blockDim.x) tile[i] = (unsigned short)i;
  __syncthreads();
  switch (which) {
  case 0: // R3-F1 warp_hang_pc, confined: full mask at two different PCs
    if (t & 1) r = shfl(confine(a), t, 0);
    else r = shfl_down(confine(a), t);
    break;
  case 1: // R3-F1 warp_hang_mask, confined: per-lane masks that disagree
    r = shfl(confine((1u << l) | (1u << ((l + 1) & 31))), t, 0);
    break;
  case 2: // R3-F1 warp_hang_mixed, confined: half at bar.warp.sync, half at shfl.sync
    if (l < 16) warpsync(confine(a));
    else r = shfl(confine(a), t, 0);
    break;
  case 3: // R3-F1 warp_hang_bar, confined: half at the CTA barrier, half at a warp sync
    if (l < 16) asm volatile("barrier.sync 0;");
    else warpsync(confine(a));
    break;
  case 4: { // control: a legit warp reduction after a divergent branch, confined masks
    unsigned v = t;
    if (l & 1) v *= 3; else v += 7;
    for (int o = 16; o > 0; o >>= 1) {
      unsigned x;
      asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, %3;" : "=r"(x) : "r"(v), "r"(o), "r"(confine(a)));
      v += x;
    }
    r = v;
    break;
  }
  case 5: // a constant half mask used by the whole warp (lanes 16-31 disagree), confined
    r = shfl(confine(0xffffu), t, 0);
    break;
  case 6: // case 1 with the first fix only (and activemask, no match): hung on 2026-12-01
    r = shfl(confine_active((1u << l) | (1u << ((l + 1) & 31))), t, 0);
    break;
  case 10: // unconfined reference: R3-F1 warp_hang_pc (expected: hang)
    if (t & 1) r = shfl(a, t, 0);
    else r = shfl_down(a, t);
    break;
  case 20: { // mma.sync.aligned by half a warp
    if (l >= 16) break;
    unsigned a0 = t, a1 = t + 1, a2 = t + 2, a3 = t + 3, b0 = t, b1 = t;
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    r = __float_as_uint(d0 + d1 + d2 + d3);
    break;
  }
  case 21: { // ldmatrix.sync.aligned by half a warp
    if (l >= 16) break;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(l & 7) * 8 + (l >> 3) * 64]);
    unsigned x0, x1, x2, x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(addr));
    r = x0 ^ x1 ^ x2 ^ x3;
    break;
  }
  case 22: { // stmatrix.sync.aligned by half a warp
    if (l >= 16) break;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(l & 7) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(t));
    r = tile[l];
    break;
  }
  case 23: { // movmatrix.sync.aligned by half a warp
    if (l >= 16) break;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r) : "r"(t));
    break;
  }
  case 24: { // mma.sync.aligned, the two halves of a warp at two different mma instructions
    unsigned a0 = t, b0 = t;
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    if (l < 16)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};"
                   : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(b0));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};"
                   : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(b0), "r"(a0));
    r = __float_as_uint(d0 + d1 + d2 + d3);
    break;
  }
  case 25: { // ldmatrix, the two halves of a warp at two different ldmatrix instructions
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(l & 7) * 8]);
    if (l < 16)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    break;
  }
  case 26: { // case 24 (mma at two instructions) guarded the way atoll-mem guards ldmatrix/stmatrix
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    if (l < 16) {
      if (whole_warp())
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(t));
    } else {
      if (whole_warp())
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(t + 1));
    }
    r = __float_as_uint(d0 + d1 + d2 + d3);
    break;
  }
  case 27: { // case 25 guarded
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(l & 7) * 8]);
    if (l < 16) {
      if (whole_warp())
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    } else if (whole_warp()) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    }
    break;
  }
  case 28: { // control: a guarded ldmatrix by a whole, converged warp still runs
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(l & 7) * 8]);
    if (whole_warp())
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    break;
  }
  }
  out[blockIdx.x * blockDim.x + t] = r;
}

int main(int argc, char **argv) {
  int which = argc > 1 ? atoi(argv[1]) : 0;
  unsigned a = argc > 2 ? (unsigned)strtoul(argv[2], nullptr, 0) : 0xffffffffu;
  unsigned threads = argc > 3 ? (unsigned)strtoul(argv[3], nullptr, 0) : 256;
  unsigned blocks = argc > 4 ? (unsigned)strtoul(argv[4], nullptr, 0) : 1056;
  unsigned *out;
  cudaMalloc(&out, sizeof(unsigned) * threads * blocks);
  k<<<blocks, threads>>>(which, a, out, nullptr);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned h[4] = {0, 0, 0, 0};
  cudaError_t e2 = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("case %d a=0x%x grid=%ux%u: %s; context after: %s; out[0..3]=%u %u %u %u\n", which, a,
         blocks, threads, cudaGetErrorName(e), cudaGetErrorName(e2), h[0], h[1], h[2], h[3]);
  return e == cudaSuccess ? 0 : 1;
}
