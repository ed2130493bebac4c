// Device probe for issue 13 class 6: which synchronisation primitives fault (kill
// the context), hang, or only give garbage with hostile run-time operands on the
// H200 (sm_90). One case per process: ./sync_probe <case>; run_sync_probe.sh runs all.
// Operands come from a kernel argument (run-time values the compiler cannot fold).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__device__ unsigned lane() { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
__device__ unsigned lmeq() { unsigned l; asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(l)); return l; }

__global__ void k(int which, unsigned a, unsigned b, unsigned *out) {
  unsigned t = threadIdx.x, l = lane(), r = 0;
  switch (which) {
  case 0: // shfl.sync, mask excludes the executing thread
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a ^ (1u << l)));
    break;
  case 1: // shfl.sync full mask, lanes >= 16 have exited
    if (l >= 16) return;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a));
    break;
  case 2: // shfl.sync full mask in a 16-thread block (launched with 16 threads)
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a));
    break;
  case 3: // vote.sync.ballot, mask excludes self
    asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2;}" : "=r"(r) : "r"(t & 1), "r"(a ^ (1u << l)));
    break;
  case 4: // match.any.sync, mask excludes self
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(t & 3), "r"(a ^ (1u << l)));
    break;
  case 5: // redux.sync.add, mask excludes self
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(t), "r"(a ^ (1u << l)));
    break;
  case 6: // bar.warp.sync, mask excludes self
    asm volatile("bar.warp.sync %0;" :: "r"(a ^ (1u << l)));
    break;
  case 7: // bar.warp.sync full mask, lanes >= 16 exited
    if (l >= 16) return;
    asm volatile("bar.warp.sync %0;" :: "r"(a));
    break;
  case 8: // elect.sync, mask excludes self
    asm volatile("{.reg .pred p; elect.sync %0|p, %1;}" : "=r"(r) : "r"(a ^ (1u << l)));
    break;
  case 9: // nanosleep with a huge run-time value
    asm volatile("nanosleep.u32 %0;" :: "r"(a));
    break;
  case 10: { // cluster special registers without a cluster launch
    unsigned c0, c1, c2, c3;
    asm volatile("mov.u32 %0, %%clusterid.x; mov.u32 %1, %%cluster_ctarank; mov.u32 %2, %%cluster_nctarank; mov.u32 %3, %%nclusterid.x;"
                 : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3));
    r = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
    break;
  }
  case 11: // barrier.sync, run-time id 16
    asm volatile("barrier.sync %0;" :: "r"(a));
    break;
  case 12: // barrier.sync 0, run-time count not a multiple of 32
    asm volatile("barrier.sync 0, %0;" :: "r"(a));
    break;
  case 13: // bar.sync 0 (aligned) in divergent code: half of each warp
    if (l & 1) asm volatile("bar.sync 0;");
    break;
  case 14: // shfl.sync with inconsistent masks that each include self: lane i names i, i+1
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(lmeq() | (1u << ((l + 1) & 31))));
    break;
  case 15: // shfl.sync full mask at two different PCs (even/odd lanes)
    if (l & 1) asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a));
    else asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a));
    break;
  case 16: // shfl.sync with hostile lane and clamp/segmask operands (mask full)
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r) : "r"(t), "r"(a), "r"(b));
    break;
  case 17: // confined: mask | lanemask_eq, with a hostile mask of 0
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a | lmeq()));
    break;
  case 18: // vote.sync.all with mask|self where the others exited
    if (l >= 8) return;
    asm volatile("{.reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q;}" : "=r"(r) : "r"(t), "r"(a | lmeq()));
    break;
  case 19: // bar.warp.sync with mask|self where named lanes wait at a shfl.sync elsewhere
    if (l < 16) asm volatile("bar.warp.sync %0;" :: "r"(a | lmeq()));
    else asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(t), "r"(a | lmeq()));
    break;
  case 20: // barrier.sync 0 with constant count 64 from a 32-thread CTA (hang?)
    asm volatile("barrier.sync 0, 64;");
    break;
  }
  out[blockIdx.x * blockDim.x + t] = r;
}

int main(int argc, char **argv) {
  int which = atoi(argv[1]);
  unsigned a = argc > 2 ? strtoul(argv[2], 0, 0) : 0xffffffffu;
  unsigned b = argc > 3 ? strtoul(argv[3], 0, 0) : 0;
  int threads = argc > 4 ? atoi(argv[4]) : 32;
  unsigned *out;
  cudaMalloc(&out, 4096 * 4);
  cudaMemset(out, 0, 4096 * 4);
  k<<<1, threads>>>(which, a, b, out);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned h[32] = {};
  if (e == cudaSuccess) e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  // Is the context still usable?
  cudaError_t e2 = cudaMemset(out, 0, 4);
  if (e2 == cudaSuccess) e2 = cudaDeviceSynchronize();
  printf("case %d a=0x%x b=0x%x threads=%d: %s; context after: %s; out[0..3]=%x %x %x %x\n", which, a, b,
         threads, cudaGetErrorName(e), cudaGetErrorName(e2), h[0], h[1], h[2], h[3]);
  return e == cudaSuccess ? 0 : 1;
}
