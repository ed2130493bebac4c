// Kernels for PreemptionGpuTest: loops that never end on their own, and a counted
// loop for fuel.
#include <stdint.h>

// Every thread spins on a flag nobody sets (a wait: polled on every edge).
extern "C" __global__ void spin_flag(volatile uint32_t *flag) {
  while (*flag == 0) {
  }
}

// Register-only spin (counted check); the never-taken store keeps the loop under
// C++'s forward-progress rule.
extern "C" __global__ void spin_register(uint32_t *out, uint32_t seed) {
  uint32_t v = seed | 1u;
  while (v != 0) {
    v = v * 3u + 2u;
    if (v == 0x12345678u)
      out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
}

// Thread t counts iters[t] loop iterations and stores how far it got after each one,
// so the host sees exactly where fuel stopped it. Fuel counts the back edges of the
// compiled loop: not unrolled here, so one back edge per iteration.
extern "C" __global__ void count_to(const uint32_t *iters, uint32_t *reached) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t n = iters[t];
#pragma unroll 1
  for (uint32_t i = 0; i < n; ++i)
    ((volatile uint32_t *)reached)[t] = i + 1;
}

// A charged loop (docs/passes.md "Charged loops"): no volatile access, a run-time
// count below the cap, so it runs as the copy without checks and is charged n
// iterations before it starts. Thread t stores its LCG value after n steps; a thread
// whose charge exhausts its fuel leaves before the loop and stores nothing.
extern "C" __global__ void lcg_charged(const uint32_t *iters, uint32_t *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t n = iters[t], v = t;
#pragma unroll 1
  for (uint32_t i = 0; i < n; ++i)
    v = v * 1664525u + 1013904223u;
  out[t] = v;
}
