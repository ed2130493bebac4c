// Kernels for PartitionGpuTest (SM partitions, issue 17): which SM each block ran on.
#include <stdint.h>

__device__ static inline uint32_t sm_id() {
  uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); // on the inline-asm allow-list
  return id;
}

__device__ static inline uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Every block stays resident for `ns` nanoseconds (so that a grid of many blocks
// spreads over every SM it may use) and its first thread records its SM.
extern "C" __global__ void sm_probe(uint32_t *sm, uint64_t ns) {
  const uint64_t start = now_ns();
  while (now_ns() - start < ns) {
  }
  if (threadIdx.x == 0)
    sm[blockIdx.x] = sm_id();
}
