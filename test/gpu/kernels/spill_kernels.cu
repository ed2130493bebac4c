#include <stdint.h>

// Review R6-F2: ptxas's register spills go into the stack frame the driver reserves
// for every resident thread, after every PTX-level check. local_spill declares a
// 16,000-byte frame (under the 16 KiB cap: atoll-mem and the PTX validator accept
// it) and keeps 512 words live around a loop (more than the 255 registers): ptxas
// spills ~2 KiB more (sm_90, CUDA 13: an 18,424-byte frame). The runtime refuses it
// at load (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES above the reservation). A kernel of
// spills alone beyond 16 KiB (4,000+ live words) takes ptxas minutes; this one
// seconds.
#define FRAME_WORDS 4000u
#define LIVE 512

extern "C" __global__ void local_spill(const uint32_t *seeds, uint32_t *out, uint32_t rounds) {
  uint32_t buf[FRAME_WORDS];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t seed = seeds[t];
  for (uint32_t i = 0; i < FRAME_WORDS; ++i)
    buf[i] = seed * i + 1u;
  uint32_t v[LIVE];
#pragma unroll
  for (int j = 0; j < LIVE; ++j)
    v[j] = buf[(seed + j) % FRAME_WORDS];
  for (uint32_t i = 0; i < rounds; ++i) {
    const uint32_t first = v[0];
#pragma unroll
    for (int j = 0; j < LIVE - 1; ++j)
      v[j] = v[j + 1] * 3u + v[j];
    v[LIVE - 1] = first * 3u + v[LIVE - 1];
  }
  uint32_t acc = 0;
#pragma unroll
  for (int j = 0; j < LIVE; ++j)
    acc ^= v[j] + uint32_t(j);
  out[t] = acc;
}
